//! The node's MemoryPressure condition as the kubelet's node status reports what the eviction
//! manager decided, with the Event recorded at each transition (`Node node-1 status is now:
//! NodeHasInsufficientMemory`). Mirrors pkg/kubelet/nodestatus/setters.go
//! `MemoryPressureCondition` and kubelet_node_status.go `recordNodeStatusEvent`. Upstream the
//! condition is posted with the next node status update (every 10 s); here at once.

use crate::api::Node;
use crate::api::meta::Time;
use crate::store::Store;
use crate::store::event_recorder::{EventType, object_reference};

/// Sets the node's MemoryPressure condition; writes (and records the Event) only on a change.
pub fn set_memory_pressure(store: &mut Store, node_name: &str, under_pressure: bool) {
    let Some(node) = store.try_get_shared::<Node>("", node_name) else { return };
    let (status, reason, message, event) = if under_pressure {
        (
            "True",
            "KubeletHasInsufficientMemory",
            "kubelet has insufficient memory available",
            "NodeHasInsufficientMemory",
        )
    } else {
        ("False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available", "NodeHasSufficientMemory")
    };
    let current = node.status.conditions.iter().find(|c| c.type_ == "MemoryPressure");
    if current.is_none_or(|c| c.status == status) {
        return;
    }
    let mut updated = Node::clone(&node);
    let now = Time(store.now());
    for condition in &mut updated.status.conditions {
        match condition.type_.as_str() {
            "MemoryPressure" => super::super::set_node_condition(condition, status, reason, message, now),
            // The same status update renews every condition the kubelet reports.
            "Ready" | "DiskPressure" | "PIDPressure" => condition.last_heartbeat_time = Some(now),
            _ => {}
        }
    }
    if let Ok(stored) = store.update_status(updated) {
        let text = format!("Node {node_name} status is now: {event}");
        store.record_event(object_reference(&*stored), EventType::Normal, event, text);
    }
}
