//! The `kubelab sim` scenario language: one command per line — `kubectl …` (with heredocs for
//! stdin), `sleep DURATION`, `lab VERB …` — and `#` comments. Used by tests, lesson solutions
//! and anyone scripting the simulator.

pub mod lab;
pub mod words;

use crate::kubectl::{self, Context, FileSystem};
use crate::sim::Sim;
use crate::sim::time::Duration;

/// What one script line asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    Kubectl { argv: Vec<String>, stdin: Option<String> },
    Sleep(Duration),
    Lab(Vec<String>),
}

/// One step: where it was, how it was written (echoed in the transcript), what it does.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub line: usize,
    pub written: String,
    pub action: Action,
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
    let lines: Vec<&str> = text.lines().collect();
    let mut steps = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let number = i + 1;
        let raw = lines[i];
        i += 1;
        let err = |message: String| ScriptError { line: number, message };
        let (command, heredoc_tag) = split_heredoc(raw);
        let words = words::split(command).map_err(err)?;
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
            "kubectl" => Action::Kubectl { argv: words[1..].to_vec(), stdin },
            "sleep" => match words.as_slice() {
                [_, duration] => Action::Sleep(Duration::parse(duration).map_err(err)?),
                _ => return Err(err("usage: sleep DURATION (e.g. 30s, 5m, 1h2m)".into())),
            },
            "lab" if words.len() > 1 => Action::Lab(words[1..].to_vec()),
            other => {
                return Err(err(format!(
                    "unknown command \"{other}\": a line is kubectl …, sleep DURATION or lab VERB …"
                )));
            }
        };
        steps.push(Step { line: number, written, action });
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
    for step in steps {
        transcript.text.push_str(&format!("$ {}\n", step.written));
        sim.record_command(&step.written);
        let (printed, ok) = run_step(sim, step, files);
        transcript.text.push_str(&printed);
        if strict && !ok {
            transcript.exit_code = 1;
            break;
        }
    }
    transcript
}

/// Runs one step; returns what it printed and whether it succeeded.
pub fn run_step(sim: &mut Sim, step: &Step, files: &dyn FileSystem) -> (String, bool) {
    match &step.action {
        Action::Kubectl { argv, stdin } => {
            let mut ctx = Context { sim, files, stdin: stdin.as_deref() };
            let output = kubectl::run(&mut ctx, argv);
            ctx.sim.settle();
            (output.render(), output.succeeded())
        }
        Action::Sleep(duration) => {
            sim.advance(*duration);
            (String::new(), true)
        }
        Action::Lab(words) => match lab::run(sim, words) {
            Ok(text) => (format!("{text}\n"), true),
            Err(text) => (format!("{text}\n"), false),
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
            Action::Kubectl { argv: vec!["apply".into(), "-f".into(), "-".into()], stdin: Some("kind: X\n".into()) }
        );
        assert_eq!(steps[0].written, "kubectl apply -f - <<EOF\nkind: X\nEOF");
        assert_eq!(steps[1].action, Action::Sleep(Duration::from_secs(5)));
        assert_eq!(steps[2].line, 6);
    }

    #[test]
    fn malformed_lines_name_their_line() {
        let err = parse("kubectl get pods\nsleep forever\n").unwrap_err();
        assert_eq!(err.to_string(), "line 2: time: invalid duration \"forever\"");
        let err = parse("helm install x\n").unwrap_err();
        assert_eq!(err.line, 1);
        assert!(parse("kubectl apply -f - <<EOF\nkind: X\n").is_err());
    }
}
