//! PodDisruptionBudget (policy/v1): how many of a set of pods must stay up (or may be down)
//! while they are disrupted on purpose (evicted, drained); the disruption controller keeps its
//! status, and the Eviction subresource spends `status.disruptionsAllowed`.

use super::condition::Condition;
use super::intstr::IntOrString;
use super::label_selector::LabelSelector;
use super::meta::{ObjectMeta, Time};
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PodDisruptionBudget {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: PodDisruptionBudgetSpec,
    /// A Go struct, never omitted: a new budget prints its four counts as zeros.
    #[serde(default)]
    pub status: PodDisruptionBudgetStatus,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PodDisruptionBudgetSpec {
    pub min_available: Option<IntOrString>,
    pub selector: Option<LabelSelector>,
    pub max_unavailable: Option<IntOrString>,
    /// `IfHealthyBudget` (what an unset policy means) or `AlwaysAllow`.
    pub unhealthy_pod_eviction_policy: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PodDisruptionBudgetStatus {
    #[serde(default, skip_serializing_if = "is_zero")]
    pub observed_generation: i64,
    /// Pods the Eviction subresource let go that the controller has not yet seen deleted, and
    /// when (an entry older than `DELETION_TIMEOUT` is dropped: the delete never came).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub disrupted_pods: BTreeMap<String, Time>,
    #[serde(default)]
    pub disruptions_allowed: i32,
    #[serde(default)]
    pub current_healthy: i32,
    #[serde(default)]
    pub desired_healthy: i32,
    #[serde(default)]
    pub expected_pods: i32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
}

fn is_zero(n: &i64) -> bool {
    *n == 0
}

/// The unhealthy pod eviction policies (policy/v1 `UnhealthyPodEvictionPolicyType`).
pub const IF_HEALTHY_BUDGET: &str = "IfHealthyBudget";
pub const ALWAYS_ALLOW: &str = "AlwaysAllow";

/// The one condition a budget carries, and its reasons (policy/v1 types.go).
pub const DISRUPTION_ALLOWED: &str = "DisruptionAllowed";
pub const SUFFICIENT_PODS: &str = "SufficientPods";
pub const INSUFFICIENT_PODS: &str = "InsufficientPods";
pub const SYNC_FAILED: &str = "SyncFailed";

/// How long an approved eviction may take before the controller stops counting the pod as
/// going (pkg/controller/disruption `DeletionTimeout`, 2 minutes).
pub const DELETION_TIMEOUT_SECONDS: u64 = 120;

impl PodDisruptionBudget {
    /// component-helpers' `UpdateDisruptionAllowedCondition`: `DisruptionAllowed` True with
    /// `SufficientPods` while a disruption is allowed, else False with `InsufficientPods`.
    pub fn update_disruption_allowed_condition(&mut self, now: Time) {
        let allowed = self.status.disruptions_allowed > 0;
        let reason = if allowed { SUFFICIENT_PODS } else { INSUFFICIENT_PODS };
        self.set_condition(allowed, reason, "", now);
    }

    /// apimachinery's `SetStatusCondition` for `DisruptionAllowed`: the transition time moves
    /// only when the status does.
    pub fn set_condition(&mut self, holds: bool, reason: &str, message: &str, now: Time) {
        let generation = self.status.observed_generation;
        let mut wanted = Condition::new(DISRUPTION_ALLOWED, holds, reason, message, generation, now);
        let conditions = &mut self.status.conditions;
        match conditions.iter_mut().find(|c| c.type_ == DISRUPTION_ALLOWED) {
            Some(old) => {
                if old.status == wanted.status {
                    wanted.last_transition_time = old.last_transition_time;
                }
                *old = wanted;
            }
            None => conditions.push(wanted),
        }
    }

    /// The budget's selector, as upstream reads it for both the controller and the Eviction
    /// subresource: a missing or empty selector matches no pod, not every pod.
    pub fn selects(&self, labels: &super::string_map::StringMap) -> bool {
        match &self.spec.selector {
            Some(selector) => match selector.to_selector() {
                Ok(selector) => !selector.is_empty() && selector.matches(labels),
                Err(_) => false,
            },
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_budget_prints_its_counts_as_zeros_and_reads_either_form_of_a_bound() {
        let yaml = "metadata: {name: web}\nspec:\n  minAvailable: 2\n  selector: {matchLabels: {app: web}}\n";
        let pdb: PodDisruptionBudget = serde_yaml::from_str(yaml).unwrap();
        assert_eq!(pdb.spec.min_available, Some(IntOrString::Int(2)));
        let json = serde_json::to_value(&pdb).unwrap();
        assert_eq!(
            json["status"].to_string(),
            r#"{"currentHealthy":0,"desiredHealthy":0,"disruptionsAllowed":0,"expectedPods":0}"#
        );
        let percent: PodDisruptionBudget = serde_yaml::from_str("spec: {maxUnavailable: \"25%\"}").unwrap();
        assert_eq!(percent.spec.max_unavailable, Some(IntOrString::String("25%".into())));
        assert!(!percent.selects(&Default::default()), "no selector selects nothing");
    }
}
