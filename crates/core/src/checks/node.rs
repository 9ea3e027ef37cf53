//! `node`: a node's condition (Ready, MemoryPressure…) has a status, and/or the node is
//! (un)schedulable (`kubectl cordon` sets `.spec.unschedulable`).
//!
//! ```yaml
//! node: {name: node-2, condition: Ready, status: Unknown}
//! ```

use super::{Context, Verdict};
use crate::api::Node;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NodeCheck {
    pub name: String,
    /// A condition type: `Ready`, `MemoryPressure`, `DiskPressure`, `PIDPressure`.
    #[serde(default)]
    pub condition: Option<String>,
    /// The status that condition must have: `True`, `False` or `Unknown` (default `True`).
    #[serde(default)]
    pub status: Option<String>,
    #[serde(default)]
    pub schedulable: Option<bool>,
}

impl NodeCheck {
    pub fn evaluate(&self, ctx: &Context<'_>) -> Verdict {
        let Some(node) = ctx.store.try_get::<Node>("", &self.name) else {
            return Verdict::new(false, format!("there is no node {}", self.name));
        };
        let mut facts = Vec::new();
        let mut passed = true;
        if let Some(condition) = &self.condition {
            let want = self.status.as_deref().unwrap_or("True");
            let actual = node
                .status
                .conditions
                .iter()
                .find(|c| &c.type_ == condition)
                .map_or("not reported", |c| c.status.as_str());
            passed &= actual == want;
            let suffix = if actual == want { String::new() } else { format!(" (want {want})") };
            facts.push(format!("{condition} is {actual}{suffix}"));
        }
        if let Some(want) = self.schedulable {
            let actual = !node.spec.unschedulable.unwrap_or(false);
            passed &= actual == want;
            let state = if actual { "schedulable" } else { "unschedulable (cordoned)" };
            let suffix = if actual == want {
                ""
            } else if want {
                " (want schedulable)"
            } else {
                " (want cordoned)"
            };
            facts.push(format!("{state}{suffix}"));
        }
        if facts.is_empty() {
            facts.push("exists".into());
        }
        Verdict::new(passed, format!("node {}: {}", self.name, facts.join(", ")))
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{check, empty_lab};

    #[test]
    fn conditions_after_a_power_off() {
        let mut lab = empty_lab();
        let c = check("node: {name: node-2, condition: Ready, status: Unknown, schedulable: true}");
        let verdict = c.evaluate(&lab.context());
        assert_eq!(
            (verdict.passed, verdict.message.as_str()),
            (false, "node node-2: Ready is True (want Unknown), schedulable")
        );
        lab.run("lab node power-off node-2\nsleep 60s");
        let verdict = c.evaluate(&lab.context());
        assert_eq!((verdict.passed, verdict.message.as_str()), (true, "node node-2: Ready is Unknown, schedulable"));
    }

    #[test]
    fn schedulability_and_missing_nodes() {
        let lab = empty_lab();
        let verdict = check("node: {name: node-1, schedulable: false}").evaluate(&lab.context());
        assert_eq!((verdict.passed, verdict.message.as_str()), (false, "node node-1: schedulable (want cordoned)"));
        assert!(check("node: {name: node-1}").evaluate(&lab.context()).passed);
        assert_eq!(check("node: {name: node-9}").evaluate(&lab.context()).message, "there is no node node-9");
    }
}
