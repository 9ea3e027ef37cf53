//! NodeName: a pod that names its node (`spec.nodeName`) fits only that node.
//! Mirrors plugins/nodename.

use crate::scheduler::framework::cluster_event::on_node_events;
use crate::scheduler::framework::cycle_state::CycleState;
use crate::scheduler::framework::node_fit::NodeFit;
use crate::scheduler::framework::registry::FilterPlugin;
use crate::scheduler::framework::status::Status;
use crate::scheduler::framework::types::NodeInfo;

pub const NAME: &str = "NodeName";
pub const ERR_REASON: &str = "node(s) didn't match the requested node name";

pub fn filter(state: &CycleState, node: &NodeInfo) -> Result<(), Status> {
    match state.pod.node_name() {
        Some(wanted) if wanted != &*node.name => Err(Status::unresolvable(NAME, ERR_REASON)),
        _ => Ok(()),
    }
}

pub const FILTER: FilterPlugin = FilterPlugin { name: NAME, filter: filter_node, requeue_on: on_node_events };

fn filter_node(state: &CycleState, node: &NodeInfo, _: &NodeFit) -> Result<(), Status> {
    filter(state, node)
}
