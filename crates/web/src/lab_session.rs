//! One live lab as the page drives it: the core's `LessonLab` plus what the terminal needs
//! (run a typed line, complete a word) and a log of every line, for the panic report.
//! Plain Rust, no browser types, so it is tested natively.

use crate::panic_report;
use kubelab_core::kubectl;
use kubelab_core::lesson::{Lesson, LessonLab, Level};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// One line the learner ran and what it printed, exactly as the core rendered it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub command: String,
    pub output: String,
    pub succeeded: bool,
}

pub struct LabSession {
    lab: LessonLab,
    /// The lesson this lab belongs to (`sandbox` for free play) and its seed.
    lesson_id: String,
    seed: u64,
    /// Every script the learner ran, in order, exactly as given to `run`: with the lesson and
    /// seed this replays the lab (permalinks, the instructor's read-only replay, shared labs).
    log: Vec<String>,
    /// Set when the core panicked (natively; in wasm32 a panic aborts): the lab refuses more.
    broken: bool,
}

impl LabSession {
    /// A lab for the lesson with its hidden setup run.
    pub fn for_lesson(lesson: &Lesson) -> Result<LabSession, String> {
        panic_report::begin(&lesson.id, lesson.seed.unwrap_or(1));
        let mut lab = LessonLab::new(lesson);
        lab.setup(lesson).map_err(|err| format!("the lesson's setup does not parse: {err}"))?;
        Ok(LabSession::wrap(lab, lesson))
    }

    /// A free lab: the default three-node cluster, seed 1, nothing set up.
    pub fn sandbox() -> LabSession {
        let lesson = sandbox_lesson();
        panic_report::begin(&lesson.id, 1);
        LabSession::wrap(LessonLab::new(&lesson), &lesson)
    }

    fn wrap(lab: LessonLab, lesson: &Lesson) -> LabSession {
        let seed = lesson.seed.unwrap_or(1);
        LabSession { lab, lesson_id: lesson.id.clone(), seed, log: Vec::new(), broken: false }
    }

    /// The lesson id (`sandbox` for free play), the seed and every script run so far.
    pub fn replay_log(&self) -> (&str, u64, &[String]) {
        (&self.lesson_id, self.seed, &self.log)
    }

    /// Runs what the learner typed or clicked (`kubectl …`, `sleep 10s`, `lab …`), one entry
    /// per line; a line that does not parse is one failed entry that says why.
    pub fn run(&mut self, text: &str) -> Vec<Entry> {
        let text = text.trim();
        if text.is_empty() {
            return Vec::new();
        }
        if self.broken {
            return vec![failed(text, "the lab stopped after an internal error; reload the page to start again\n")];
        }
        panic_report::record(text);
        self.log.push(text.to_string());
        let lab = &mut self.lab;
        match catch_unwind(AssertUnwindSafe(|| lab.run_as_learner(text))) {
            Ok(Ok(ran)) => ran
                .into_iter()
                .map(|r| Entry { command: r.written, output: r.output, succeeded: r.succeeded })
                .collect(),
            Ok(Err(err)) => vec![failed(text, &format!("{}\n", explain_script_error(text, &err.message)))],
            Err(_) => {
                self.broken = true;
                vec![failed(text, "internal error: the simulator stopped; see the report above\n")]
            }
        }
    }

    /// Words that may finish the word under the cursor (`kubectl …` lines only).
    pub fn complete(&self, line: &str, cursor: usize) -> Vec<String> {
        if !line.trim_start().starts_with("kubectl") {
            return ["kubectl", "sleep", "lab"]
                .iter()
                .filter(|w| w.starts_with(line.trim()))
                .map(|w| w.to_string())
                .collect();
        }
        kubectl::complete(self.lab.sim(), line, cursor)
    }

    pub fn lab(&self) -> &LessonLab {
        &self.lab
    }
}

fn failed(command: &str, output: &str) -> Entry {
    Entry { command: command.to_string(), output: output.to_string(), succeeded: false }
}

/// The script parser's message, with a nudge when the learner left out `kubectl`.
fn explain_script_error(text: &str, message: &str) -> String {
    let first = text.split_whitespace().next().unwrap_or_default();
    let verbs = kubectl::VERBS.iter().any(|verb| verb.name == first);
    if verbs { format!("{message} (did you mean `kubectl {text}`?)") } else { message.to_string() }
}

fn sandbox_lesson() -> Lesson {
    Lesson {
        id: "sandbox".into(),
        title: "Sandbox".into(),
        summary: String::new(),
        minutes: 0,
        level: Level::Beginner,
        prerequisites: Vec::new(),
        seed: None,
        cluster: None,
        files: Default::default(),
        setup: String::new(),
        steps: Vec::new(),
        quiz: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_kubectl_sleep_and_lab_lines() {
        let mut session = LabSession::sandbox();
        let entries = session.run("kubectl get nodes");
        assert_eq!(entries.len(), 1);
        assert!(entries[0].output.contains("node-1   Ready"), "{}", entries[0].output);
        assert!(session.run("sleep 10s")[0].succeeded);
        assert!(session.run("lab node power-off node-2")[0].succeeded);
        assert!(session.run("   ").is_empty());
    }

    #[test]
    fn a_bad_line_is_a_failed_entry_not_a_panic() {
        let mut session = LabSession::sandbox();
        let entry = &session.run("get pods")[0];
        assert!(!entry.succeeded);
        assert!(entry.output.contains("did you mean `kubectl get pods`"), "{}", entry.output);
        assert!(!session.run("kubectl get 'unterminated")[0].succeeded);
    }

    #[test]
    fn logs_every_script_for_replay() {
        let mut session = LabSession::sandbox();
        session.run("kubectl get nodes");
        session.run("  ");
        session.run("sleep 5s");
        let (lesson, seed, log) = session.replay_log();
        assert_eq!((lesson, seed), ("sandbox", 1));
        assert_eq!(log, ["kubectl get nodes", "sleep 5s"]);
    }

    #[test]
    fn completes_verbs_and_commands() {
        let session = LabSession::sandbox();
        assert!(session.complete("kubectl ge", 10).contains(&"get".to_string()));
        assert_eq!(session.complete("sl", 2), vec!["sleep".to_string()]);
    }
}
