//! `Priority` (plugin/pkg/admission/priority): a pod names a PriorityClass; admission writes
//! the class's value into `spec.priority`, which the scheduler's queue and preemption read, and
//! refuses a class that does not exist.

use super::{Operation, Plugin, Request};
use crate::api::{ObjectMut, Pod, PriorityClass};
use crate::error::ApiError;
use crate::store::Store;
use crate::store::priority_class::PREEMPT_LOWER_PRIORITY;

pub const PLUGIN: Plugin = Plugin { name: "Priority", admit: Some(admit), validate: None };

fn admit(store: &Store, request: &Request<'_>, object: &mut ObjectMut<'_>) -> Result<(), ApiError> {
    match object {
        ObjectMut::Pod(pod) if request.operation == Operation::Create => admit_pod(store, pod, request.name),
        _ => Ok(()),
    }
}

/// The plugin's pod half: resolve `priorityClassName` (or the global default class) to a
/// priority and preemption policy, refusing a class that does not exist or a pod that sets
/// another priority itself. `name` is what the error names: before name generation, a
/// `generateName` pod is known by its prefix (`pods "hello-6b85969876-" is forbidden`).
fn admit_pod(store: &Store, pod: &mut Pod, name: &str) -> Result<(), ApiError> {
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
