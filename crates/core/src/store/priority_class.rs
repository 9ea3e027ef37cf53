//! The PriorityClass strategy (pkg/registry/scheduling/priorityclass, pkg/apis/scheduling
//! validation) and the system classes the API server creates. Pods are resolved against these
//! classes by the `Priority` admission plugin (`admission/priority.rs`).

use crate::api::priority_class::{HIGHEST_USER_DEFINABLE_PRIORITY, SYSTEM_CLUSTER_CRITICAL, SYSTEM_NODE_CRITICAL};
use crate::api::{ObjectMeta, PriorityClass};
use crate::error::FieldError;

pub(crate) const PREEMPT_LOWER_PRIORITY: &str = "PreemptLowerPriority";

/// The classes the API server creates at start (its `scheduling/bootstrap-system-priority-classes`
/// post-start hook).
pub fn system_priority_classes() -> Vec<PriorityClass> {
    [
        (SYSTEM_NODE_CRITICAL, "Used for system critical pods that must not be moved from their current node."),
        (SYSTEM_CLUSTER_CRITICAL, "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary."),
    ]
    .into_iter()
    .map(|((name, value), description)| PriorityClass {
        metadata: ObjectMeta::named("", name),
        value,
        description: Some(description.to_string()),
        ..Default::default()
    })
    .collect()
}

/// `SetDefaults_PriorityClass`.
pub fn default_priority_class(class: &mut PriorityClass) {
    class.preemption_policy.get_or_insert_with(|| PREEMPT_LOWER_PRIORITY.to_string());
    class.global_default.get_or_insert(false);
}

/// `ValidatePriorityClass` and `ValidatePriorityClassUpdate`.
pub fn validate_priority_class(class: &PriorityClass, old: Option<&PriorityClass>) -> Vec<FieldError> {
    let mut causes = Vec::new();
    let name = class.metadata.name.as_str();
    let system = [SYSTEM_NODE_CRITICAL, SYSTEM_CLUSTER_CRITICAL].iter().any(|(n, v)| *n == name && *v == class.value);
    if name.starts_with("system-") && !system {
        causes.push(FieldError::forbidden("metadata.name", "priority class names with 'system-' prefix are reserved"));
    }
    if class.value > HIGHEST_USER_DEFINABLE_PRIORITY && !system {
        let detail = format!("maximum allowed value of a user defined priority is {HIGHEST_USER_DEFINABLE_PRIORITY}");
        causes.push(FieldError::forbidden("value", detail));
    }
    if let Some(policy) = class.preemption_policy.as_deref().filter(|p| !matches!(*p, PREEMPT_LOWER_PRIORITY | "Never"))
    {
        causes.push(FieldError::not_supported("preemptionPolicy", policy, &[PREEMPT_LOWER_PRIORITY, "Never"]));
    }
    if old.is_some_and(|old| old.value != class.value) {
        causes.push(FieldError::forbidden("value", "may not be changed in an update."));
    }
    causes
}
