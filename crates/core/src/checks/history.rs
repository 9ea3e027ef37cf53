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
    /// It succeeded but matched nothing (`No resources found in default namespace.`): a
    /// `kubectl describe pods -l app=nothing` does not count as describing the pods.
    pub found_nothing: bool,
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

    /// Appends a script step that ran, with what it printed.
    pub fn record(&mut self, step: &Step, succeeded: bool, output: &str) {
        let kubectl_argv = match &step.action {
            Action::Kubectl { argv, .. } => argv.clone(),
            _ => Vec::new(),
        };
        let found_nothing = output.lines().any(|line| line.starts_with("No resources found"));
        self.commands.push(CommandRecord { line: step.written.clone(), kubectl_argv, succeeded, found_nothing });
    }

    pub fn commands(&self) -> &[CommandRecord] {
        &self.commands
    }
}
