//! The reactive handle every lab component shares: the `LabSession` (kept out of the signal
//! graph), a version that ticks after each command so views re-read the cluster, the terminal's
//! transcript and the typed-command history.

use crate::lab_session::{Entry, LabSession};
use leptos::prelude::*;

/// The most transcript entries kept; older ones scroll away.
const TRANSCRIPT_LIMIT: usize = 400;
/// The most typed commands ↑/↓ recalls.
const HISTORY_LIMIT: usize = 200;

#[derive(Clone, Copy)]
pub struct LabHandle {
    session: StoredValue<LabSession, LocalStorage>,
    version: RwSignal<u64>,
    pub transcript: RwSignal<Vec<Entry>>,
    pub typed: RwSignal<Vec<String>>,
}

impl LabHandle {
    pub fn new(session: LabSession) -> LabHandle {
        LabHandle {
            session: StoredValue::new_local(session),
            version: RwSignal::new(0),
            transcript: RwSignal::new(Vec::new()),
            typed: RwSignal::new(Vec::new()),
        }
    }

    /// Runs a script (one or more lines) and appends what it printed to the transcript.
    pub fn run(&self, text: &str) {
        let entries = self.session.try_update_value(|session| session.run(text)).unwrap_or_default();
        self.append(entries);
    }

    /// Runs a script someone else sent (the instructor's pushed fault): the same path as the
    /// terminal, with each line marked in the transcript by a `#` comment naming the sender.
    pub fn run_from(&self, text: &str, from: &str) {
        let mut entries = self.session.try_update_value(|session| session.run(text)).unwrap_or_default();
        for entry in &mut entries {
            entry.command = instructor_line(&entry.command, from);
        }
        self.append(entries);
    }

    fn append(&self, entries: Vec<Entry>) {
        self.transcript.update(|transcript| {
            transcript.extend(entries);
            let excess = transcript.len().saturating_sub(TRANSCRIPT_LIMIT);
            transcript.drain(..excess);
        });
        self.version.update(|version| *version += 1);
    }

    /// Runs a line as if typed at the prompt: it also joins the ↑/↓ history.
    pub fn run_typed(&self, line: &str) {
        let line = line.trim();
        if line.is_empty() {
            return;
        }
        self.typed.update(|typed| {
            if typed.last().map(String::as_str) != Some(line) {
                typed.push(line.to_string());
            }
            let excess = typed.len().saturating_sub(HISTORY_LIMIT);
            typed.drain(..excess);
        });
        self.run(line);
    }

    /// Reads the lab; inside a reactive view this re-runs after every command.
    pub fn with<R>(&self, read: impl FnOnce(&LabSession) -> R) -> R {
        self.version.track();
        self.session.with_value(read)
    }

    /// Reads the lab without subscribing (event handlers).
    pub fn peek<R>(&self, read: impl FnOnce(&LabSession) -> R) -> R {
        self.session.with_value(read)
    }
}

/// How a line the instructor sent reads in the transcript (still a valid script line: the
/// marker is a comment).
pub fn instructor_line(command: &str, from: &str) -> String {
    format!("{command}   # from your instructor, {from}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instructor_lines_stay_runnable() {
        let line = instructor_line("lab node power-off node-2", "Ada");
        assert_eq!(line, "lab node power-off node-2   # from your instructor, Ada");
        assert!(kubelab_core::script::parse(&line).is_ok());
    }
}
