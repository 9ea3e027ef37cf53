//! kubectl's command-line mistakes as a type, printed as kubectl prints each kind: a flag that
//! cobra refuses (`error: invalid argument "x" for "--replicas" flag: …` and where to find the
//! usage) and kubectl's own usage errors (`cmdutil.UsageErrorf`: `error: …` and where to find
//! help and examples). Failures that are not the command line's fault stay plain text.

use super::output::Output;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UsageError {
    /// cobra/pflag refused a flag or its value.
    Flag(String),
    /// kubectl's `UsageErrorf`: the arguments do not make a command.
    Command(String),
}

/// What a verb's helpers return: a usage error, or a failure already worded as kubectl words it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    Usage(UsageError),
    Failed(String),
}

impl UsageError {
    pub fn flag(message: impl Into<String>) -> UsageError {
        UsageError::Flag(message.into())
    }

    pub fn command(message: impl Into<String>) -> UsageError {
        UsageError::Command(message.into())
    }

    /// A verb with subcommands given one it does not have (`kubectl create frobnicate`).
    pub fn unknown_command(words: &str) -> UsageError {
        UsageError::Command(format!("unknown command \"{words}\""))
    }

    /// The text kubectl prints for `verb` (its full path: `rollout status`).
    pub fn render(&self, verb: &str) -> String {
        match self {
            UsageError::Flag(message) => format!("error: {message}\nSee 'kubectl {verb} --help' for usage."),
            UsageError::Command(message) => format!("error: {message}\nSee 'kubectl {verb} -h' for help and examples"),
        }
    }

    /// The failed output kubectl leaves (exit 1).
    pub fn output(&self, verb: &str) -> Output {
        Output::failed(self.render(verb))
    }
}

impl CommandError {
    pub fn output(&self, verb: &str) -> Output {
        match self {
            CommandError::Usage(usage) => usage.output(verb),
            CommandError::Failed(message) => Output::failed(message.clone()),
        }
    }
}

impl From<UsageError> for CommandError {
    fn from(usage: UsageError) -> CommandError {
        CommandError::Usage(usage)
    }
}

impl From<String> for CommandError {
    fn from(message: String) -> CommandError {
        CommandError::Failed(message)
    }
}

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UsageError::Flag(message) | UsageError::Command(message) => f.write_str(message),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_reads_as_kubectl_prints_it() {
        assert_eq!(
            UsageError::flag("invalid argument \"x\" for \"--replicas\" flag").render("scale"),
            "error: invalid argument \"x\" for \"--replicas\" flag\nSee 'kubectl scale --help' for usage."
        );
        assert_eq!(
            UsageError::command("USAGE: cordon NODE [flags]").render("cordon"),
            "error: USAGE: cordon NODE [flags]\nSee 'kubectl cordon -h' for help and examples"
        );
    }
}
