//! The linter's replay: the lesson played on the simulator as a learner who follows it — setup,
//! each step's commands, predictions (exactly one choice true after the run), tasks (not done on
//! arrival, not done by minutes of the lab's own motion, not done by any listed wrong solution,
//! done after the solution), then the quiz's lab questions (exactly one choice true).

use super::format::{Lesson, Prediction, Task};
use super::lab::{LessonLab, Ran};
use super::lint::{Diagnostic, Linter};
use super::locate::{Segment, Segment::Index, Segment::Key, script_start};
use crate::checks::Check;
use crate::script;
use crate::sim::time::Duration;

/// How long the idle replay lets the lab run on its own: longer than a probe's failure cycle,
/// a back-off step and a rollout, so that a task the lab would finish by itself shows up.
pub const IDLE: Duration = Duration::from_secs(5 * 60);

impl Linter<'_> {
    /// Plays the lesson as a learner who follows it: setup, then every step in order.
    pub(super) fn replay(&mut self, lesson: &Lesson) {
        let mut lab = LessonLab::new(lesson);
        let ran = lab.setup(lesson);
        self.report_failures(ran, &[Key("setup")], "setup");
        for (i, step) in lesson.steps.iter().enumerate() {
            for (j, command) in step.commands.iter().enumerate() {
                let ran = lab.run_as_learner(command);
                self.report_failures(ran, &[Key("steps"), Index(i), Key("commands"), Index(j)], "suggested command");
            }
            if let Some(prediction) = &step.prediction {
                self.replay_prediction(&mut lab, prediction, i);
            }
            if let Some(task) = &step.task {
                self.replay_task(&mut lab, task, i);
            }
        }
        for (i, question) in lesson.quiz.iter().enumerate() {
            let Some(run) = &question.run else { continue };
            let at = [Key("quiz"), Index(i)];
            let ran = lab.run_as_learner(run);
            self.report_failures(ran, &[&at[..], &[Key("run")]].concat(), "quiz question's run");
            let choices =
                question.choices.iter().filter_map(|c| c.check.as_ref().map(|check| (c.text.as_str(), check)));
            self.exactly_one_true(&lab, choices, &at, "quiz question");
        }
    }

    fn report_failures(&mut self, ran: Result<Vec<Ran>, script::ScriptError>, path: &[Segment], what: &str) {
        let start = script_start(self.text, path);
        for line in ran.unwrap_or_default().into_iter().filter(|r| !r.succeeded) {
            let command = line.written.lines().next().unwrap_or("");
            let output = line.output.trim_end().lines().next().unwrap_or("").to_string();
            let message = format!("{what} fails: `{command}`: {output}");
            self.diagnostics.push(Diagnostic { line: start + line.line - 1, message });
        }
    }

    fn replay_prediction(&mut self, lab: &mut LessonLab, prediction: &Prediction, i: usize) {
        let at = [Key("steps"), Index(i), Key("prediction")];
        let ran = lab.run_as_learner(&prediction.run);
        self.report_failures(ran, &[&at[..], &[Key("run")]].concat(), "prediction run");
        let choices = prediction.choices.iter().map(|c| (c.text.as_str(), &c.check));
        self.exactly_one_true(lab, choices, &at, "prediction");
    }

    /// After a prediction's (or a lab question's) run, exactly one choice's check must hold.
    fn exactly_one_true<'c>(
        &mut self,
        lab: &LessonLab,
        choices: impl Iterator<Item = (&'c str, &'c Check)>,
        at: &[Segment],
        what: &str,
    ) {
        let verdicts: Vec<String> = choices
            .map(|(text, check)| {
                let verdict = lab.check(check);
                format!("[{}] {text}: {}", if verdict.passed { "true" } else { "false" }, verdict.message)
            })
            .collect();
        let true_choices = verdicts.iter().filter(|v| v.starts_with("[true]")).count();
        if true_choices != 1 {
            let message = format!(
                "{what}: {true_choices} choices are true after its run, want exactly 1: {}",
                verdicts.join("; ")
            );
            self.report(at, message);
        }
    }

    fn replay_task(&mut self, lab: &mut LessonLab, task: &Task, i: usize) {
        let at = [Key("steps"), Index(i), Key("task")];
        let goal = Check::All(task.checks.clone());
        let before = lab.check(&goal);
        if before.passed {
            self.report(&at, format!("task is already done before the learner does anything: {}", before.message));
        } else if !task.waiting {
            let mut idle = lab.clone();
            idle.pass_time(IDLE);
            let after = idle.check(&goal);
            if after.passed {
                let message = format!(
                    "task completes by itself after {IDLE} with no learner action: {} (a task about waiting says `waiting: true`)",
                    after.message
                );
                self.report(&at, message);
            }
        }
        for (j, wrong) in task.wrong.iter().enumerate() {
            self.replay_wrong(lab, &goal, &wrong.run, &wrong.says, &[&at[..], &[Key("wrong"), Index(j)]].concat());
        }
        let solution = [&at[..], &[Key("solution")]].concat();
        let ran = lab.run_as_learner(&task.solution);
        self.report_failures(ran, &solution, "solution");
        let after = lab.check(&goal);
        if !after.passed {
            self.report(&solution, format!("the solution does not complete the task: {}", after.message));
        }
    }

    /// A wrong solution, on a copy of the lab: the task stays undone, right after it and after
    /// minutes more, and what the learner is told contains its `says`.
    fn replay_wrong(&mut self, lab: &LessonLab, goal: &Check, run: &str, says: &str, at: &[Segment]) {
        let mut tried = lab.clone();
        if tried.run_as_learner(run).is_err() {
            return; // reported as a script that does not parse
        }
        let verdict = tried.check(goal);
        if verdict.passed {
            self.report(at, format!("wrong solution completes the task: {}", verdict.message));
            return;
        }
        if !verdict.message.contains(says) {
            let message =
                format!("wrong solution: the learner is told \"{}\", which does not say \"{says}\"", verdict.message);
            self.report(at, message);
        }
        tried.pass_time(IDLE);
        let later = tried.check(goal);
        if later.passed {
            self.report(at, format!("wrong solution completes the task after {IDLE} more: {}", later.message));
        }
    }
}
