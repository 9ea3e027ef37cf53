//! NodeName: a pod that names its node (`spec.nodeName`) fits only that node.
//! Mirrors plugins/nodename.

use super::cycle_state::CycleState;
use super::status::Status;
use super::types::NodeInfo;

pub const NAME: &str = "NodeName";
pub const ERR_REASON: &str = "node(s) didn't match the requested node name";

pub fn filter(state: &CycleState, node: &NodeInfo) -> Result<(), Status> {
    match state.pod.node_name() {
        Some(wanted) if wanted != &*node.name => Err(Status::unresolvable(NAME, ERR_REASON)),
        _ => Ok(()),
    }
}
