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
#[derive(Clone, Debug, Eq)]
pub struct Status {
    pub code: Code,
    pub plugin: &'static str,
    pub reasons: Reasons,
}

impl Status {
    pub fn new(code: Code, plugin: &'static str, reason: impl Into<Cow<'static, str>>) -> Status {
        Status { code, plugin, reasons: Reasons::one(reason.into()) }
    }

    pub fn unschedulable(plugin: &'static str, reason: impl Into<Cow<'static, str>>) -> Status {
        Status::new(Code::Unschedulable, plugin, reason)
    }

    pub fn unresolvable(plugin: &'static str, reason: impl Into<Cow<'static, str>>) -> Status {
        Status::new(Code::UnschedulableAndUnresolvable, plugin, reason)
    }

    /// Upstream `Status.Message()`: the reasons joined with ", ".
    pub fn message(&self) -> String {
        let reasons: Vec<&str> = self.reasons.iter().collect();
        reasons.join(", ")
    }
}

/// Equal statuses are mostly the same static strings: their addresses are compared first.
impl PartialEq for Status {
    fn eq(&self, other: &Status) -> bool {
        self.code == other.code && same_str(self.plugin, other.plugin) && self.reasons == other.reasons
    }
}

fn same_str(a: &str, b: &str) -> bool {
    (std::ptr::eq(a.as_ptr(), b.as_ptr()) && a.len() == b.len()) || a == b
}

/// A status's reasons, the first held inline: a filter refuses most nodes with one static
/// reason, and a refusal that allocates nothing keeps a pod's cycle over a thousand nodes cheap.
#[derive(Clone, Debug, Default, Eq)]
pub struct Reasons {
    first: Option<Cow<'static, str>>,
    rest: Vec<Cow<'static, str>>,
}

impl Reasons {
    pub fn one(reason: Cow<'static, str>) -> Reasons {
        Reasons { first: Some(reason), rest: Vec::new() }
    }

    pub fn push(&mut self, reason: Cow<'static, str>) {
        match self.first {
            None => self.first = Some(reason),
            Some(_) => self.rest.push(reason),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.first.is_none()
    }

    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        self.first.iter().chain(&self.rest).map(|r| r.as_ref())
    }
}

impl PartialEq for Reasons {
    fn eq(&self, other: &Reasons) -> bool {
        let first = match (&self.first, &other.first) {
            (Some(a), Some(b)) => same_str(a, b),
            (a, b) => a.is_none() && b.is_none(),
        };
        first && self.rest.len() == other.rest.len() && self.rest.iter().zip(&other.rest).all(|(a, b)| same_str(a, b))
    }
}
