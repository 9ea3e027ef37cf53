//! NodeUnschedulable: a cordoned node (`spec.unschedulable`) takes no new pods unless they
//! tolerate `node.kubernetes.io/unschedulable:NoSchedule`. Mirrors plugins/nodeunschedulable.

use crate::api::node::Taint;
use crate::scheduler::framework::cluster_event::on_node_events;
use crate::scheduler::framework::cycle_state::CycleState;
use crate::scheduler::framework::node_fit::NodeFit;
use crate::scheduler::framework::registry::FilterPlugin;
use crate::scheduler::framework::status::Status;
use crate::scheduler::framework::types::NodeInfo;
use crate::scheduler::plugins::taint_toleration::tolerations_tolerate_taint;

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

pub const FILTER: FilterPlugin = FilterPlugin { name: NAME, filter: filter_node, requeue_on: on_node_events };

fn filter_node(state: &CycleState, _: &NodeInfo, fit: &NodeFit) -> Result<(), Status> {
    filter(state, fit)
}
