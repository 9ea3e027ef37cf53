//! The reactive handle every lab component shares: the `LabSession` (kept out of the signal
//! graph), a version that ticks after each change so views re-read the cluster, the terminal's
//! transcript, the typed-command history, the clock's speed and what the live region announces.

use crate::engine::LiveLab;
use crate::lab::lab_session::Entry;
use crate::lab::sliced_run::{self, SlicedRun, Step};
use kubelab_core::sim::time::Duration;
use leptos::prelude::*;

/// The most transcript entries kept; older ones scroll away.
const TRANSCRIPT_LIMIT: usize = 400;
/// The most typed commands ↑/↓ recalls.
const HISTORY_LIMIT: usize = 200;

#[derive(Clone, Copy)]
pub struct LabHandle {
    session: StoredValue<Box<dyn LiveLab>, LocalStorage>,
    version: RwSignal<u64>,
    pub transcript: RwSignal<Vec<Entry>>,
    pub typed: RwSignal<Vec<String>>,
    /// Virtual seconds per wall second; 0 is paused (the default: time moves when the learner
    /// says so, as lessons expect).
    pub speed: RwSignal<u32>,
    /// The latest sentence for screen readers (the page's `aria-live` region).
    pub announcement: RwSignal<String>,
    /// A message above the lab (a shared link that could not be opened).
    pub notice: RwSignal<Option<String>>,
    /// Work run between frames on a big cluster (`sliced_run.rs`).
    pub sliced: SlicedRun,
    /// Counts the learner's own commands (typed, clicked, dragged, answered) once each has
    /// settled. A task completes only then (`task_panel.rs`): the running clock and an
    /// instructor's pushed fault change the lab without counting here.
    pub learner_moves: RwSignal<u64>,
}

impl LabHandle {
    pub fn new(session: Box<dyn LiveLab>) -> LabHandle {
        LabHandle {
            session: StoredValue::new_local(session),
            version: RwSignal::new(0),
            transcript: RwSignal::new(Vec::new()),
            typed: RwSignal::new(Vec::new()),
            speed: RwSignal::new(0),
            announcement: RwSignal::new(String::new()),
            notice: RwSignal::new(None),
            sliced: SlicedRun::new(),
            learner_moves: RwSignal::new(0),
        }
    }

    /// Runs a script (one or more lines), appends what it printed to the transcript and
    /// returns the last entry (what a drag announces).
    pub fn run(&self, text: &str) -> Option<Entry> {
        let last = self.run_with(|session| session.run(text));
        self.learner_moved();
        last
    }

    /// A learner's command has settled (run at once, or its last slice reconciled).
    pub fn learner_moved(&self) {
        self.learner_moves.update(|moves| *moves += 1);
    }

    /// As `run`, leaving the reconciling it causes for `LabSession::settle_for` (`sliced_run.rs`).
    pub fn run_deferred(&self, text: &str) -> Option<Entry> {
        self.run_with(|session| session.run_deferred(text))
    }

    fn run_with(&self, run: impl FnOnce(&mut dyn LiveLab) -> Vec<Entry>) -> Option<Entry> {
        let entries = self.update_quietly(run).unwrap_or_default();
        let last = entries.last().cloned();
        self.show(entries);
        self.redraw();
        last
    }

    /// Runs a script someone else sent (the instructor's pushed fault): the same path as the
    /// terminal, with each line marked in the transcript by a `#` comment naming the sender.
    pub fn run_from(&self, text: &str, from: &str) {
        let mut entries = self.update_quietly(|session| session.run(text)).unwrap_or_default();
        for entry in &mut entries {
            entry.command = instructor_line(&entry.command, from);
        }
        self.show(entries);
        self.version.update(|version| *version += 1);
    }

    /// Appends entries to the transcript (a replayed permalink's, a note).
    pub fn show(&self, entries: Vec<Entry>) {
        self.transcript.update(|transcript| {
            transcript.extend(entries);
            let excess = transcript.len().saturating_sub(TRANSCRIPT_LIMIT);
            transcript.drain(..excess);
        });
    }

    /// Changes the lab outside `run` (the clock, scrubbing, forking), then redraws.
    pub fn update<R>(&self, change: impl FnOnce(&mut dyn LiveLab) -> R) -> Option<R> {
        let result = self.update_quietly(change);
        self.redraw();
        result
    }

    /// Changes the lab without redrawing (a slice of a big cluster's reconciling); `redraw`
    /// shows the result when the caller chooses.
    pub fn update_quietly<R>(&self, change: impl FnOnce(&mut dyn LiveLab) -> R) -> Option<R> {
        self.session.try_update_value(|session| change(session.as_mut()))
    }

    pub fn redraw(&self) {
        self.version.update(|version| *version += 1);
    }

    /// One clock tick: lets `duration` pass unless the lab is looking at the past.
    /// Called from the clock's timer, so it reads the lab with `try_*`: a tick that fires after
    /// the page was left finds the lab gone and does nothing.
    pub fn pass_time(&self, duration: Duration) {
        if self.session.try_with_value(|session| session.past_position().is_none()) == Some(true) {
            self.update(|session| session.pass_time(duration));
        }
    }

    pub fn announce(&self, text: impl Into<String>) {
        self.announcement.set(text.into());
    }

    /// Runs a line as if typed at the prompt: it also joins the ↑/↓ history.
    pub fn run_typed(&self, line: &str) -> Option<Entry> {
        let line = line.trim();
        if line.is_empty() {
            return None;
        }
        self.typed.update(|typed| {
            if typed.last().map(String::as_str) != Some(line) {
                typed.push(line.to_string());
            }
            let excess = typed.len().saturating_sub(HISTORY_LIMIT);
            typed.drain(..excess);
        });
        // On a big cluster every line runs between frames: a sleep in slices, a command with its
        // reconciling spread over frames.
        if self.sliced.busy() || self.is_big() {
            self.sliced.push(*self, [Step::of(line)]);
            return None;
        }
        self.run(line)
    }

    /// Whether the cluster is big enough that long work runs in slices between frames.
    pub fn is_big(&self) -> bool {
        self.peek(|session| session.nodes()) > sliced_run::SLICED_ABOVE_NODES
    }

    /// Reads the lab; inside a reactive view this re-runs after every command.
    pub fn with<R>(&self, read: impl FnOnce(&dyn LiveLab) -> R) -> R {
        self.version.track();
        self.session.with_value(|session| read(session.as_ref()))
    }

    /// Reads the lab without subscribing (event handlers).
    pub fn peek<R>(&self, read: impl FnOnce(&dyn LiveLab) -> R) -> R {
        self.session.with_value(|session| read(session.as_ref()))
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
