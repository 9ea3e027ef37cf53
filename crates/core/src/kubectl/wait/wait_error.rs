//! Why an object's wait failed, and how kubectl prints what failed: one error as
//! `error: …` (or the API server's `Error from server (…)`), several (an aggregate the
//! builder collected) one per line without the `error: ` prefix. Mirrors `checkErr` and
//! `MultipleErrors` in staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go.

use crate::error::ApiError;
use crate::kubectl::output::Output;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WaitError {
    /// A request the API server refused (`pods "x" not found`).
    Server(ApiError),
    /// kubectl's own words, without the `error: ` that a lone error is printed with.
    Message(String),
    /// A line already worded in full (the builder's rewording of a refused selector).
    Printed(String),
}

impl WaitError {
    pub fn message(text: impl Into<String>) -> WaitError {
        WaitError::Message(text.into())
    }

    /// A line another part of kubectl worded in full: `error: …` becomes kubectl's own words.
    pub fn from_kubectl(text: &str) -> WaitError {
        match text.strip_prefix("error: ") {
            Some(message) => WaitError::message(message),
            None => WaitError::Printed(text.into()),
        }
    }

    pub fn is_not_found(&self) -> bool {
        matches!(self, WaitError::Server(error) if error.reason() == "NotFound")
    }

    /// `messageForError`: the API server's refusal as `StandardErrorMessage` words it, else the text.
    fn in_list(&self) -> String {
        match self {
            WaitError::Server(error) => error.to_string(),
            WaitError::Message(text) | WaitError::Printed(text) => text.clone(),
        }
    }

    /// A lone error: as in a list, with `error: ` before kubectl's own words.
    fn alone(&self) -> String {
        match self {
            WaitError::Server(error) => error.to_string(),
            WaitError::Message(text) => format!("error: {text}"),
            WaitError::Printed(text) => text.clone(),
        }
    }
}

impl From<ApiError> for WaitError {
    fn from(error: ApiError) -> WaitError {
        WaitError::Server(error)
    }
}

/// `cmdutil.CheckErr` at the end of the command: what was printed, then the errors.
pub fn report(mut out: Output, errors: Vec<WaitError>) -> Output {
    match errors.as_slice() {
        [] => {}
        [error] => out.error(error.alone()),
        several => {
            for error in several {
                out.error(error.in_list());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_error_is_prefixed_and_several_are_listed_bare() {
        let timed_out = || WaitError::message("timed out waiting for the condition on pods/a");
        let missing = || WaitError::Server(ApiError::not_found("pods", "b"));
        assert_eq!(
            report(Output::default(), vec![timed_out()]).render(),
            "error: timed out waiting for the condition on pods/a\n"
        );
        assert_eq!(
            report(Output::default(), vec![timed_out(), missing()]).render(),
            "timed out waiting for the condition on pods/a\nError from server (NotFound): pods \"b\" not found\n"
        );
        assert!(missing().is_not_found() && !timed_out().is_not_found());
        assert_eq!(report(Output::default(), vec![]).exit_code, 0);
    }
}
