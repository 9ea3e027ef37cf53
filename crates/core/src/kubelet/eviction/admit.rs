//! The eviction manager's admission of a pod bound to its node: under memory pressure a
//! BestEffort pod is refused (it would be the first to go) unless it tolerates the
//! memory-pressure taint; critical pods are always admitted. Mirrors eviction_manager.go
//! `Admit`; the refusal is written as every kubelet admission refusal is (`admission::reject`).

use super::message::{REASON, node_condition_message};
use crate::api::Pod;
use crate::api::node::Taint;
use crate::api::priority_class::SYSTEM_CLUSTER_CRITICAL;
use crate::scheduler::plugins::taint_toleration::tolerations_tolerate_taint;

/// The taint the node lifecycle controller puts on a node reporting MemoryPressure.
pub const MEMORY_PRESSURE_TAINT: &str = "node.kubernetes.io/memory-pressure";

/// `kubelettypes.IsCriticalPod`: a static or mirror pod, or one at system-critical priority.
pub fn is_critical(pod: &Pod) -> bool {
    let annotations = &pod.metadata.annotations;
    let static_pod = annotations.get("kubernetes.io/config.source").is_some_and(|source| source != "api");
    let mirror = annotations.contains_key("kubernetes.io/config.mirror");
    // `scheduling.SystemCriticalPriority` is system-cluster-critical's value.
    static_pod || mirror || pod.spec.priority.unwrap_or(0) >= SYSTEM_CLUSTER_CRITICAL.1
}

/// Why a node under memory pressure refuses the pod (`Evicted` and its message), or `None`.
pub fn refusal(under_memory_pressure: bool, pod: &Pod) -> Option<(String, String)> {
    if !under_memory_pressure || is_critical(pod) {
        return None;
    }
    if crate::store::defaults::qos_class(&pod.spec) != "BestEffort" {
        return None;
    }
    let taint = Taint {
        key: MEMORY_PRESSURE_TAINT.to_string(),
        value: None,
        effect: "NoSchedule".to_string(),
        time_added: None,
    };
    if tolerations_tolerate_taint(&pod.spec.tolerations, &taint) {
        return None;
    }
    Some((REASON.to_string(), node_condition_message(&["MemoryPressure"])))
}
