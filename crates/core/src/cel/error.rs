//! Compile issues and evaluation errors, printed the way cel-go's `common.Errors` prints them.
//!
//! `CompileError`'s `Display` is cel-go's `Issues.String()` (`Errors.ToDisplayString`): one
//! `ERROR: <input>:LINE:COL: MESSAGE` block per issue with a snippet and a caret, sorted by
//! position, at most 100 of them.

use std::fmt;

/// cel-go's `maxErrorsToReport`.
const MAX_ERRORS_TO_REPORT: usize = 100;

/// cel-go's `maxSnippetLength`: longer lines are not quoted.
const MAX_SNIPPET_LENGTH: usize = 16384;

/// One problem found while parsing or checking, at a code point offset into the source
/// (`None` is cel-go's `NoLocation`, printed as line -1, column 0, with no snippet).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Issue {
    pub offset: Option<usize>,
    pub message: String,
}

impl Issue {
    pub fn at(offset: usize, message: impl Into<String>) -> Issue {
        Issue { offset: Some(offset), message: message.into() }
    }

    pub fn nowhere(message: impl Into<String>) -> Issue {
        Issue { offset: None, message: message.into() }
    }
}

/// Why an expression did not compile: the issues, with the source they point into.
#[derive(Clone, Debug, PartialEq)]
pub struct CompileError {
    source: String,
    issues: Vec<Issue>,
}

impl CompileError {
    pub(crate) fn new(source: &str, mut issues: Vec<Issue>) -> CompileError {
        // cel-go sorts stably by (line, column) before printing; NoLocation (-1, -1) sorts first.
        let key = |issue: &Issue| issue.offset.map(|o| line_col(source, o)).unwrap_or((-1, -1));
        issues.sort_by_key(key);
        CompileError { source: source.to_owned(), issues }
    }

    /// The issues' messages alone, without positions (cel-go `Error.Message`).
    pub fn messages(&self) -> Vec<&str> {
        self.issues.iter().map(|i| i.message.as_str()).collect()
    }
}

impl std::error::Error for CompileError {}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, issue) in self.issues.iter().take(MAX_ERRORS_TO_REPORT).enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write_issue(f, &self.source, issue)?;
        }
        if self.issues.len() > MAX_ERRORS_TO_REPORT {
            write!(f, "\n{} more errors were truncated", self.issues.len() - MAX_ERRORS_TO_REPORT)?;
        }
        Ok(())
    }
}

/// 1-based line and 0-based column (both in code points) of a code point offset, as cel-go's
/// `Source.OffsetLocation` computes them (lines end at `\n`).
fn line_col(source: &str, offset: usize) -> (i64, i64) {
    let (mut line, mut line_start) = (1i64, 0usize);
    for (i, c) in source.chars().enumerate() {
        if i >= offset {
            break;
        }
        if c == '\n' {
            line += 1;
            line_start = i + 1;
        }
    }
    (line, offset.saturating_sub(line_start) as i64)
}

/// cel-go `Error.ToDisplayString`.
fn write_issue(f: &mut fmt::Formatter<'_>, source: &str, issue: &Issue) -> fmt::Result {
    let (line, col) = issue.offset.map(|o| line_col(source, o)).unwrap_or((-1, -1));
    write!(f, "ERROR: <input>:{}:{}: {}", line, col + 1, issue.message)?;
    if line < 1 || source.is_empty() {
        return Ok(());
    }
    let Some(snippet) = source.split('\n').nth((line - 1) as usize) else { return Ok(()) };
    if snippet.len() > MAX_SNIPPET_LENGTH {
        return Ok(());
    }
    let snippet = snippet.replace('\t', " ");
    write!(f, "\n | {snippet}\n | ")?;
    let mut chars = snippet.chars();
    for _ in 0..col {
        match chars.next() {
            // Wide characters get full-width dots so the caret still lines up (cel-go `wideDot`).
            Some(c) if c.len_utf8() > 1 => f.write_str("\u{ff0e}")?,
            Some(_) => f.write_str(".")?,
            None => break,
        }
    }
    match chars.next() {
        Some(c) if c.len_utf8() > 1 => f.write_str("\u{ff3e}"),
        _ => f.write_str("^"),
    }
}

/// Why evaluation failed; `Display` is the message alone, as cel-go's `types.Err` prints.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalError {
    pub message: String,
}

impl EvalError {
    pub(crate) fn new(message: impl Into<String>) -> EvalError {
        EvalError { message: message.into() }
    }
}

impl std::error::Error for EvalError {}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// An evaluation failure inside the evaluator. `Error` is a CEL error value, which `&&`, `||`
/// and comprehensions may absorb (cel-spec: `false && error` is false); `Cancelled` stops
/// evaluation outright, as cel-go's cost limit interrupts it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Fault {
    Error(String),
    Cancelled(String),
}

impl Fault {
    pub fn err(message: impl Into<String>) -> Fault {
        Fault::Error(message.into())
    }

    /// cel-go `types.NoSuchOverloadErr()`.
    pub fn no_overload() -> Fault {
        Fault::err("no such overload")
    }

    pub fn into_eval_error(self) -> EvalError {
        match self {
            Fault::Error(m) | Fault::Cancelled(m) => EvalError::new(m),
        }
    }
}
