//! Dragging a node by its grip: onto another zone's lane it is relabelled into that zone, onto
//! the bin it is removed — each through the command the terminal would run
//! (`drag_commands::node_drop_command`), so it lands in the history and the timeline. The node
//! menu offers the same moves for the keyboard.

use crate::lab::drag_commands::{self, NodeDrop};
use crate::lab::lab_handle::LabHandle;
use crate::lab::pod_dnd::PodDnd;
use leptos::ev::DragEvent;

/// The drag's data type: the name of the node being carried.
pub const NODE_TYPE: &str = "application/x-kubelab-node";

/// Starts carrying `node` (its grip's `dragstart`).
pub fn start(ev: &DragEvent, node: &str) {
    // A pod chip inside the card starts its own drag; the grip's must not reach the card.
    ev.stop_propagation();
    if let Some(transfer) = ev.data_transfer() {
        let _ = transfer.set_data(NODE_TYPE, node);
        let _ = transfer.set_data("text/plain", node);
    }
}

/// Whether a drag carries a node (its data is readable only on drop).
pub fn carries_node(ev: &DragEvent) -> bool {
    ev.data_transfer().is_some_and(|t| t.types().includes(&NODE_TYPE.into(), 0))
}

/// Handles a drop on `target`: runs the carried node's move; true if a node was carried.
pub fn drop_node(lab: LabHandle, dnd: PodDnd, ev: &DragEvent, target: NodeDrop) -> bool {
    let Some(node) = ev.data_transfer().and_then(|t| t.get_data(NODE_TYPE).ok()).filter(|n| !n.is_empty()) else {
        return false;
    };
    move_node(lab, dnd, &node, target);
    true
}

/// Runs `node`'s move to `target` and shows what it did, as a pod's drop does.
pub fn move_node(lab: LabHandle, dnd: PodDnd, node: &str, target: NodeDrop) {
    let zone = lab.peek(|session| session.picture().nodes.into_iter().find(|n| n.name == node).and_then(|n| n.zone));
    dnd.run_drop(lab, drag_commands::node_drop_command(node, zone.as_deref(), &target));
}
