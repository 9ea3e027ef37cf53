//! NodeUnschedulable: a cordoned node (`spec.unschedulable`) takes no new pods unless they
//! tolerate `node.kubernetes.io/unschedulable:NoSchedule`. Mirrors plugins/nodeunschedulable.

use super::cycle_state::CycleState;
use super::node_fit::NodeFit;
use super::status::Status;
use super::taint_toleration::tolerations_tolerate_taint;
use crate::api::node::Taint;

pub const NAME: &str = "NodeUnschedulable";
pub const ERR_REASON_UNSCHEDULABLE: &str = "node(s) were unschedulable";

pub fn filter(state: &CycleState, node: &NodeFit) -> Result<(), Status> {
    if !node.unschedulable {
        return Ok(());
    }
    let taint = Taint {
        key: "node.kubernetes.io/unschedulable".into(),
        value: None,
        effect: "NoSchedule".into(),
        time_added: None,
    };
    if tolerations_tolerate_taint(&state.pod.spec.tolerations, &taint) {
        return Ok(());
    }
    Err(Status::unresolvable(NAME, ERR_REASON_UNSCHEDULABLE))
}
