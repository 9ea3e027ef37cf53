//! The commands a learner ran in a lab, in order, with whether each succeeded: what `ran`
//! checks read. Setup scripts are not part of it; what the learner clicks or types is.

use crate::script::{Action, Step};

/// One command as the learner ran it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandRecord {
    /// The line as written (`kubectl delete pod hello-…`).
    pub line: String,
    /// For kubectl lines, the words after `kubectl`; empty otherwise.
    pub kubectl_argv: Vec<String>,
    pub succeeded: bool,
}

/// Every command the learner ran, oldest first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct History {
    commands: Vec<CommandRecord>,
}

impl History {
    pub fn new() -> History {
        History::default()
    }

    /// Appends a script step that ran.
    pub fn record(&mut self, step: &Step, succeeded: bool) {
        let kubectl_argv = match &step.action {
            Action::Kubectl { argv, .. } => argv.clone(),
            _ => Vec::new(),
        };
        self.commands.push(CommandRecord { line: step.written.clone(), kubectl_argv, succeeded });
    }

    pub fn commands(&self) -> &[CommandRecord] {
        &self.commands
    }
}
