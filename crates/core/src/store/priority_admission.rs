//! Pod priority: the `Priority` admission plugin (plugin/pkg/admission/priority) and the
//! PriorityClass strategy (pkg/registry/scheduling/priorityclass, pkg/apis/scheduling
//! validation). A pod names a class; admission writes the class's value into `spec.priority`,
//! which the scheduler's queue and preemption read.

use super::Store;
use crate::api::priority_class::{HIGHEST_USER_DEFINABLE_PRIORITY, SYSTEM_CLUSTER_CRITICAL, SYSTEM_NODE_CRITICAL};
use crate::api::{ObjectMeta, Pod, PriorityClass};
use crate::error::{ApiError, FieldError};

const PREEMPT_LOWER_PRIORITY: &str = "PreemptLowerPriority";

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

/// The plugin's pod half: resolve `priorityClassName` (or the global default class) to a
/// priority and preemption policy, refusing a class that does not exist or a pod that sets
/// another priority itself. `name` is what the error names: before name generation, a
/// `generateName` pod is known by its prefix (`pods "hello-6b85969876-" is forbidden`).
pub fn admit_pod(store: &Store, pod: &mut Pod, name: &str) -> Result<(), ApiError> {
    let forbidden = |detail: String| ApiError::Forbidden { message: format!("pods \"{name}\" is forbidden: {detail}") };
    let (priority, policy) = match pod.spec.priority_class_name.as_deref().filter(|n| !n.is_empty()) {
        Some(class_name) => {
            let class = store
                .try_get::<PriorityClass>("", class_name)
                .ok_or_else(|| forbidden(format!("no PriorityClass with name {class_name} was found")))?;
            (class.value, class.preemption_policy.clone())
        }
        None => match global_default(store) {
            Some(class) => {
                pod.spec.priority_class_name = Some(class.metadata.name.clone());
                (class.value, class.preemption_policy.clone())
            }
            None => (0, None),
        },
    };
    if let Some(set) = pod.spec.priority.filter(|p| *p != priority) {
        return Err(forbidden(format!(
            "the integer value of priority ({set}) must not be provided in pod spec; priority admission controller computed {priority} from the given PriorityClass name"
        )));
    }
    let policy = policy.unwrap_or_else(|| PREEMPT_LOWER_PRIORITY.to_string());
    if let Some(set) = pod.spec.preemption_policy.as_deref().filter(|p| *p != policy) {
        return Err(forbidden(format!(
            "the string value of PreemptionPolicy ({set}) must not be provided in pod spec; priority admission controller computed {policy} from the given PriorityClass name"
        )));
    }
    pod.spec.priority = Some(priority);
    pod.spec.preemption_policy = Some(policy);
    Ok(())
}

/// `getDefaultPriorityClass`: of the classes marked globalDefault, the one with the lowest value.
fn global_default(store: &Store) -> Option<&PriorityClass> {
    store.list::<PriorityClass>(None).filter(|c| c.global_default == Some(true)).min_by_key(|c| c.value)
}
