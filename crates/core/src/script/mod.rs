//! The `kubelab sim` scenario language: one command per line — `kubectl …` (with heredocs for
//! stdin), `helm …`, `sleep DURATION`, `lab VERB …` — and `#` comments. Used by tests, lesson solutions
//! and anyone scripting the simulator. `kubectl get -w` watches through the sleeps that follow
//! it; ending the line with `&` keeps the watch running under every later line, as a second
//! terminal would.

pub mod complete;
pub mod lab;
pub mod lab_api;
pub mod lab_control_plane;
pub mod lab_curl;
pub mod lab_settings;
pub mod lab_traffic;
pub mod lab_usage;
pub mod local_pipe;
pub mod sim_run;
pub mod trace_replay;
pub mod words;

use crate::kubectl::{self, Context, FileSystem, Watch};
use crate::sim::Sim;
use crate::sim::time::Duration;

/// What one script line asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// `pipe`: what follows a `|`, run on kubectl's output in the learner's shell.
    Kubectl {
        argv: Vec<String>,
        stdin: Option<String>,
        pipe: Option<String>,
    },
    /// `helm …`: the lab's Helm 3 (`crate::helm`), its output pipeable as kubectl's.
    Helm {
        argv: Vec<String>,
        pipe: Option<String>,
    },
    Sleep(Duration),
    Lab(Vec<String>),
}

/// One step: where it was, how it was written (echoed in the transcript), what it does.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub line: usize,
    pub written: String,
    pub action: Action,
    /// Written with a trailing `&`: a watch it opens keeps streaming under later lines.
    pub background: bool,
}

/// A line that is not a valid script line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptError {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for ScriptError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// Parses a whole script, so a typo on line 40 is reported before line 1 runs.
pub fn parse(text: &str) -> Result<Vec<Step>, ScriptError> {
    // Every trailing carriage return goes, not only the one `lines` takes before a newline: a
    // step is recorded from these lines, and its replay must parse to the same text again.
    let lines: Vec<&str> = text.lines().map(|line| line.trim_end_matches('\r')).collect();
    let mut steps = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let number = i + 1;
        let raw = lines[i];
        i += 1;
        let err = |message: String| ScriptError { line: number, message };
        let (command, heredoc_tag) = split_heredoc(raw);
        let (command, pipe) = local_pipe::split(command);
        let mut words = words::split(command).map_err(err)?;
        let background = words.len() > 1 && words.last().is_some_and(|w| w == "&");
        if background {
            words.pop();
        }
        let Some(first) = words.first() else { continue };
        let mut written = raw.trim_end().to_string();
        let stdin = match heredoc_tag {
            Some(tag) => {
                let (body, consumed) = read_heredoc(&lines[i..], &tag)
                    .ok_or_else(|| err(format!("heredoc not terminated by \"{tag}\"")))?;
                for line in &lines[i..i + consumed] {
                    written.push('\n');
                    written.push_str(line);
                }
                i += consumed;
                Some(body)
            }
            None => None,
        };
        let action = match first.as_str() {
            "kubectl" => Action::Kubectl { argv: words[1..].to_vec(), stdin, pipe: pipe.map(str::to_string) },
            "helm" => Action::Helm { argv: words[1..].to_vec(), pipe: pipe.map(str::to_string) },
            _ if pipe.is_some() => return Err(err("only a kubectl or helm command's output can be piped".into())),
            "sleep" => match words.as_slice() {
                [_, duration] => Action::Sleep(Duration::parse(duration).map_err(err)?),
                _ => return Err(err("usage: sleep DURATION (e.g. 30s, 5m, 1h2m)".into())),
            },
            "lab" if words.len() > 1 => Action::Lab(words[1..].to_vec()),
            other => {
                return Err(err(format!(
                    "unknown command \"{other}\": a line is kubectl …, helm …, sleep DURATION or lab VERB …"
                )));
            }
        };
        steps.push(Step { line: number, written, action, background });
    }
    Ok(steps)
}

/// Finds `<<TAG` / `<<'TAG'` / `<<"TAG"` on a line; returns the command before it and the tag.
fn split_heredoc(line: &str) -> (&str, Option<String>) {
    let Some(at) = line.find("<<") else { return (line, None) };
    let tag = line[at + 2..].trim().trim_start_matches('-').trim_matches(|c| c == '\'' || c == '"');
    if tag.is_empty() || tag.contains(char::is_whitespace) {
        return (line, None);
    }
    (&line[..at], Some(tag.to_string()))
}

fn read_heredoc(lines: &[&str], tag: &str) -> Option<(String, usize)> {
    let end = lines.iter().position(|l| l.trim() == tag)?;
    let mut body = lines[..end].join("\n");
    body.push('\n');
    Some((body, end + 1))
}

/// The outcome of running a script.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Transcript {
    /// `$ line` followed by what it printed, for every line run.
    pub text: String,
    /// 0, or 1 when `strict` stopped at a failing command.
    pub exit_code: i32,
}

/// Runs parsed steps against a lab. With `strict`, stops at the first failing command.
pub fn run(sim: &mut Sim, steps: &[Step], files: &dyn FileSystem, strict: bool) -> Transcript {
    let mut transcript = Transcript::default();
    let mut background: Vec<Watch> = Vec::new();
    let mut i = 0;
    while let Some(step) = steps.get(i) {
        i += 1;
        transcript.text.push_str(&format!("$ {}\n", step.written));
        sim.record_command(&step.written);
        let (printed, ok, watch) = run_step_watching(sim, step, files);
        transcript.text.push_str(&printed);
        match watch {
            Some(watch) if step.background => background.push(watch),
            Some(watch) => {
                let mut watches = vec![watch];
                watches.append(&mut background);
                i += watch_through_sleeps(sim, &mut watches, &steps[i..], &mut transcript.text);
                let foreground = watches.remove(0);
                foreground.close(sim);
                background = watches;
            }
            None => {}
        }
        for watch in &mut background {
            push_lines(&mut transcript.text, watch.poll(sim));
        }
        if strict && !ok {
            transcript.exit_code = 1;
            break;
        }
    }
    for watch in background {
        watch.close(sim);
    }
    transcript
}

/// A foreground watch (the first of `watches`; the others run in the background) streams until
/// the next line that is not a sleep: it runs those sleeps, prints the rows of what changed
/// during them, then echoes them. Returns how many it ran.
fn watch_through_sleeps(sim: &mut Sim, watches: &mut [Watch], following: &[Step], text: &mut String) -> usize {
    let mut slept = Vec::new();
    for step in following {
        let Action::Sleep(duration) = step.action else { break };
        if sim.store().limits().check_sleep(step.written.trim(), duration).is_err() {
            // Refused where it runs on its own, after the watch's rows.
            break;
        }
        sim.record_command(&step.written);
        sim.advance(duration);
        for watch in watches.iter_mut() {
            push_lines(text, watch.poll(sim));
        }
        slept.push(step);
    }
    for step in &slept {
        text.push_str(&format!("$ {}\n", step.written));
    }
    slept.len()
}

fn push_lines(text: &mut String, lines: Vec<String>) {
    for line in lines {
        text.push_str(&line);
        text.push('\n');
    }
}

/// Runs one step; returns what it printed and whether it succeeded.
pub fn run_step(sim: &mut Sim, step: &Step, files: &dyn FileSystem) -> (String, bool) {
    let (printed, ok, watch) = run_step_watching(sim, step, files);
    if let Some(watch) = watch {
        watch.close(sim);
    }
    (printed, ok)
}

/// Runs one step; also returns the watch a `kubectl get -w` opened. A step stopped at the
/// lab's work budget says so after whatever it printed, and fails.
fn run_step_watching(sim: &mut Sim, step: &Step, files: &dyn FileSystem) -> (String, bool, Option<Watch>) {
    let (mut printed, ok, watch) = run_action(sim, step, files);
    if sim.take_over_budget() {
        printed.push_str(&sim.store().limits().work_refusal());
        printed.push('\n');
        return (printed, false, watch);
    }
    (printed, ok, watch)
}

fn run_action(sim: &mut Sim, step: &Step, files: &dyn FileSystem) -> (String, bool, Option<Watch>) {
    match &step.action {
        Action::Kubectl { argv, stdin, pipe } => {
            let mut ctx = Context { sim, files, stdin: stdin.as_deref() };
            let (output, watch) = kubectl::run_watching(&mut ctx, argv);
            ctx.sim.settle();
            match pipe {
                // kubectl's stderr (its warnings and errors) goes past the pipe to the terminal.
                Some(pipe) => {
                    let (stdout, stderr) = (output.stdout(), output.stderr());
                    let (piped, ok) = local_pipe::run(pipe, &stdout);
                    (stderr + &piped, ok, watch)
                }
                None => (output.render(), output.succeeded(), watch),
            }
        }
        Action::Helm { argv, pipe } => {
            let mut ctx = Context { sim, files, stdin: None };
            let output = crate::helm::run(&mut ctx, argv);
            ctx.sim.settle();
            match pipe {
                Some(pipe) => {
                    let (piped, ok) = local_pipe::run(pipe, &output.stdout());
                    (output.stderr() + &piped, ok, None)
                }
                None => (output.render(), output.succeeded(), None),
            }
        }
        Action::Sleep(duration) => match sim.store().limits().check_sleep(step.written.trim(), *duration) {
            Ok(()) => {
                sim.advance(*duration);
                (String::new(), true, None)
            }
            Err(refusal) => (format!("{refusal}\n"), false, None),
        },
        Action::Lab(words) => match lab::run(sim, words) {
            Ok(text) => (format!("{text}\n"), true, None),
            Err(text) => (format!("{text}\n"), false, None),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_parse_lines_heredocs_and_comments() {
        let text = "# setup\nkubectl apply -f - <<EOF\nkind: X\nEOF\nsleep 5s  # wait\nlab node add n4 --cpu 8\n";
        let steps = parse(text).unwrap();
        assert_eq!(steps.len(), 3);
        assert_eq!(
            steps[0].action,
            Action::Kubectl {
                argv: vec!["apply".into(), "-f".into(), "-".into()],
                stdin: Some("kind: X\n".into()),
                pipe: None
            }
        );
        assert_eq!(steps[0].written, "kubectl apply -f - <<EOF\nkind: X\nEOF");
        assert_eq!(steps[1].action, Action::Sleep(Duration::from_secs(5)));
        assert_eq!(steps[2].line, 6);
    }

    #[test]
    fn malformed_lines_name_their_line() {
        let err = parse("kubectl get pods\nsleep forever\n").unwrap_err();
        assert_eq!(err.to_string(), "line 2: time: invalid duration \"forever\"");
        let err = parse("docker ps\n").unwrap_err();
        assert_eq!(err.line, 1);
        assert!(parse("kubectl apply -f - <<EOF\nkind: X\n").is_err());
    }
}
