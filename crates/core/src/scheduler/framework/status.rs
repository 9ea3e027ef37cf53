//! A filter's verdict on one node: which plugin rejected it, how (retrying may help or not) and
//! why, in upstream's words. Mirrors pkg/scheduler/framework/interface.go (`Code`, `Status`).

use std::borrow::Cow;

/// Upstream's status codes for a rejection.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Code {
    /// The node might fit after a change, e.g. preempting pods on it.
    Unschedulable,
    /// No preemption on this node can help (a taint, a label, a too-large request).
    UnschedulableAndUnresolvable,
}

/// Why a node was refused: the plugin and its reasons (each counted in FailedScheduling).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    pub code: Code,
    pub plugin: &'static str,
    pub reasons: Vec<Cow<'static, str>>,
}

impl Status {
    pub fn new(code: Code, plugin: &'static str, reason: impl Into<Cow<'static, str>>) -> Status {
        Status { code, plugin, reasons: vec![reason.into()] }
    }

    pub fn unschedulable(plugin: &'static str, reason: impl Into<Cow<'static, str>>) -> Status {
        Status::new(Code::Unschedulable, plugin, reason)
    }

    pub fn unresolvable(plugin: &'static str, reason: impl Into<Cow<'static, str>>) -> Status {
        Status::new(Code::UnschedulableAndUnresolvable, plugin, reason)
    }

    /// Upstream `Status.Message()`: the reasons joined with ", ".
    pub fn message(&self) -> String {
        self.reasons.join(", ")
    }
}
