//! The kubelet's admission of a pod bound to its node: the device manager's Allocate, then the
//! resource fit (pkg/kubelet/lifecycle/predicate.go `canAdmitPod`, which runs the scheduler's
//! NodeResourcesFit). A pod the scheduler placed passed the same fit against the same cluster;
//! a pod written straight onto a node (`spec.nodeName`, no PodScheduled condition) did not, and
//! one the node cannot hold is rejected: Failed, with upstream's reason and message, and a
//! Warning Event. Its ReplicaSet, if it has one, makes another, which the scheduler places. A
//! device plugin may refuse any pod's request (a time-sliced GPU asked for twice under
//! `failRequestsGreaterThanOne`), scheduled or not.

use super::device_manager::DeviceManager;
use crate::api::{Node, Pod};
use crate::scheduler::framework::types::{PodRequests, Resource};
use crate::store::Store;
use crate::store::event_recorder::{EventType, object_reference};

/// Why the node refuses the pod: the reason (`OutOfcpu`, `UnexpectedAdmissionError`) and the
/// message, or None when it fits.
pub fn rejection(store: &Store, pod: &Pod, node: &Node, devices: &DeviceManager) -> Option<(String, String)> {
    // The device plugin's own refusals, which no scheduler sees coming.
    for container in pod.spec.containers.iter() {
        for (resource, quantity) in container.resources.limits.iter() {
            if let Some(refusal) = devices.allocate_refusal(&node.metadata.name, resource, quantity.value()) {
                let message = format!("Allocate failed due to {refusal}, which is unexpected");
                return Some(("UnexpectedAdmissionError".into(), message));
            }
        }
    }
    if pod.status.conditions.iter().any(|c| c.type_ == "PodScheduled" && c.status == "True") {
        return None;
    }
    let asked = PodRequests::of(pod).requests;
    let allocatable = Resource::from_list(&node.status.allocatable);
    let mut used = Resource::default();
    let others = store.list::<Pod>(None).filter(|p| {
        p.node_name() == Some(node.metadata.name.as_str())
            && p.metadata.uid != pod.metadata.uid
            && !matches!(p.phase(), "Succeeded" | "Failed")
    });
    let mut pods = 0;
    for other in others {
        used.add(&PodRequests::of(other).requests);
        pods += 1;
    }
    // The device manager allocates first (its admit handler precedes the predicate's).
    for (name, amount) in asked.scalar_resources.iter() {
        let name = name.as_str();
        let available = (allocatable.scalar(name) - used.scalar(name)).max(0);
        if amount > available && name.starts_with("nvidia.com/") {
            let message = format!(
                "Allocate failed due to requested number of devices unavailable for {name}. Requested: {amount}, Available: {available}, which is unexpected"
            );
            return Some(("UnexpectedAdmissionError".into(), message));
        }
    }
    let checks = [
        ("pods", 1, pods, allocatable.allowed_pod_number),
        ("cpu", asked.milli_cpu, used.milli_cpu, allocatable.milli_cpu),
        ("memory", asked.memory, used.memory, allocatable.memory),
        ("ephemeral-storage", asked.ephemeral_storage, used.ephemeral_storage, allocatable.ephemeral_storage),
    ];
    let scalars = asked
        .scalar_resources
        .iter()
        .map(|(name, amount)| (name.as_str(), amount, used.scalar(name.as_str()), allocatable.scalar(name.as_str())));
    let short =
        checks.into_iter().chain(scalars).find(|&(_, asked, used, capacity)| asked > 0 && asked > capacity - used);
    short.map(|(name, asked, used, capacity)| {
        let message =
            format!("Node didn't have enough resource: {name}, requested: {asked}, used: {used}, capacity: {capacity}");
        (format!("OutOf{name}"), message)
    })
}

/// Upstream `rejectPod`: the Event, then the pod Failed with "Pod was rejected: …".
pub fn reject(store: &mut Store, pod: &Pod, reason: &str, message: String) {
    store.record_event(object_reference(pod), EventType::Warning, reason, message.clone());
    let mut failed = pod.clone();
    failed.status.phase = Some("Failed".into());
    failed.status.reason = Some(reason.to_string());
    failed.status.message = Some(format!("Pod was rejected: {message}"));
    let _ = store.update_status(failed);
}
