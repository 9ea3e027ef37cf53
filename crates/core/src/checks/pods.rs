//! `pods`: how many pods matching a label selector are in a phase, show a STATUS, or are ready.
//! Pods being deleted are left out (as the ReplicaSet controller leaves them out) unless the
//! check asks for `status: Terminating`.
//!
//! ```yaml
//! pods: {selector: app=hello, ready: true, count: 3}
//! ```

use super::{Context, Verdict, namespace_or_default};
use crate::api::Pod;
use crate::api::labels::Selector;
use crate::kubectl::printers::pod_status;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PodsCheck {
    /// A label selector in `kubectl -l` syntax (`app=hello`, `tier in (web,api)`); empty: all pods.
    #[serde(default)]
    pub selector: String,
    /// Defaults to `default`.
    #[serde(default)]
    pub namespace: Option<String>,
    /// Count only pods in this phase (`Pending`, `Running`, `Succeeded`, `Failed`).
    #[serde(default)]
    pub phase: Option<String>,
    /// Count only pods whose STATUS column reads this (`Running`, `CrashLoopBackOff`, `Terminating`).
    #[serde(default)]
    pub status: Option<String>,
    /// Count only pods that are (true) or are not (false) Ready.
    #[serde(default)]
    pub ready: Option<bool>,
    /// Exactly this many pods must be counted.
    #[serde(default)]
    pub count: Option<u32>,
    /// At least this many (the default is 1 when `count` is not given).
    #[serde(default)]
    pub min: Option<u32>,
}

impl PodsCheck {
    pub fn problems(&self) -> Vec<String> {
        match Selector::parse(&self.selector) {
            Ok(_) => Vec::new(),
            Err(e) => vec![format!("pods: selector \"{}\": {e}", self.selector)],
        }
    }

    pub fn evaluate(&self, ctx: &Context<'_>) -> Verdict {
        let Ok(selector) = Selector::parse(&self.selector) else {
            return Verdict::new(false, format!("the selector \"{}\" does not parse", self.selector));
        };
        let namespace = namespace_or_default(&self.namespace);
        let selected: Vec<&Pod> = ctx
            .store
            .list::<Pod>(Some(namespace))
            .filter(|p| selector.matches(&p.metadata.labels))
            .filter(|p| !p.metadata.is_being_deleted() || self.status.as_deref() == Some("Terminating"))
            .collect();
        let counted = selected.iter().filter(|p| self.counts(p)).count();
        let passed = match (self.count, self.min) {
            (Some(want), _) => counted == want as usize,
            (None, min) => counted >= min.unwrap_or(1) as usize,
        };
        let mut message = self.describe(counted, selected.len());
        if !passed {
            message.push_str(&match (self.count, self.min) {
                (Some(want), _) => format!(" (want {want})"),
                (None, min) => format!(" (want at least {})", min.unwrap_or(1)),
            });
        }
        Verdict::new(passed, message)
    }

    fn counts(&self, pod: &Pod) -> bool {
        self.phase.as_deref().is_none_or(|phase| pod.phase() == phase)
            && self.status.as_deref().is_none_or(|status| pod_status(pod) == status)
            && self.ready.is_none_or(|ready| pod.is_ready() == ready)
    }

    /// "2 of 3 pods with app=hello are ready", or "3 pods with app=hello" without filters.
    fn describe(&self, counted: usize, selected: usize) -> String {
        let mut what = if self.selector.is_empty() { String::new() } else { format!(" with {}", self.selector) };
        what.push_str(&super::in_namespace(&self.namespace));
        let mut states = Vec::new();
        match self.ready {
            Some(true) => states.push("ready".to_string()),
            Some(false) => states.push("not ready".to_string()),
            None => {}
        }
        states.extend(self.phase.iter().map(|p| format!("in phase {p}")));
        states.extend(self.status.iter().map(|s| format!("showing {s}")));
        if states.is_empty() {
            return format!("{counted} {}{what}", plural(counted, "pod"));
        }
        let verb = if counted == 1 { "is" } else { "are" };
        format!("{counted} of {selected} {}{what} {verb} {}", plural(selected, "pod"), states.join(" and "))
    }
}

pub(crate) fn plural(n: usize, word: &str) -> String {
    if n == 1 { word.to_string() } else { format!("{word}s") }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{check, hello_lab};

    #[test]
    fn counts_ready_pods_and_says_how_many() {
        let ready = check("pods: {selector: app=hello, ready: true, count: 3}");
        let early = hello_lab(2);
        let verdict = ready.evaluate(&early.context());
        assert!(!verdict.passed);
        assert_eq!(verdict.message, "0 of 3 pods with app=hello are ready (want 3)");
        let verdict = ready.evaluate(&hello_lab(10).context());
        assert!(verdict.passed);
        assert_eq!(verdict.message, "3 of 3 pods with app=hello are ready");
    }

    #[test]
    fn phase_status_and_minimums() {
        let lab = hello_lab(2);
        let running = check("pods: {selector: app=hello, phase: Running, status: Running}");
        assert_eq!(
            running.evaluate(&lab.context()).message,
            "3 of 3 pods with app=hello are in phase Running and showing Running"
        );
        let pending = check("pods: {selector: 'app in (web)', phase: Pending, min: 1}");
        let verdict = pending.evaluate(&lab.context());
        assert!(!verdict.passed);
        assert_eq!(verdict.message, "0 of 0 pods with app in (web) are in phase Pending (want at least 1)");
        let all = check("pods: {}");
        assert_eq!(all.evaluate(&lab.context()).message, "3 pods");
    }

    #[test]
    fn terminating_pods_count_only_when_asked_for() {
        let mut lab = hello_lab(10);
        let victim = crate::kubectl::fixture::pod_named(&lab.sim, "hello-");
        lab.run(&format!("kubectl delete pod {victim} --wait=false"));
        let live = check("pods: {selector: app=hello, count: 3}");
        assert!(live.evaluate(&lab.context()).passed);
        let terminating = check("pods: {selector: app=hello, status: Terminating, count: 1}");
        let verdict = terminating.evaluate(&lab.context());
        assert_eq!(verdict.message, "1 of 4 pods with app=hello is showing Terminating");
        assert!(verdict.passed);
    }

    #[test]
    fn a_bad_selector_is_a_problem() {
        assert_eq!(check("pods: {selector: '=hello'}").problems().len(), 1);
        assert!(!check("pods: {selector: '=hello'}").evaluate(&hello_lab(0).context()).passed);
    }
}
