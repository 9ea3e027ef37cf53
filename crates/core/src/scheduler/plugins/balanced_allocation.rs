//! NodeResourcesBalancedAllocation: favours nodes whose cpu and memory would be used in equal
//! shares after placing the pod. Mirrors plugins/noderesources/balanced_allocation.go (v1.32).

use crate::scheduler::framework::cycle_state::CycleState;
use crate::scheduler::framework::node_fit::NodeFit;
use crate::scheduler::framework::registry::{ScoreContext, ScorePlugin, always};
use crate::scheduler::framework::types::NodeInfo;

pub const NAME: &str = "NodeResourcesBalancedAllocation";

/// `(1 - std(fractions)) * 100`, fractions capped at 1; with two resources std = |f1 - f2| / 2.
/// Uses the plain requests (upstream's `useRequested`), not the 100m/200Mi stand-ins.
pub fn score(state: &CycleState, node: &NodeFit) -> i64 {
    let request = &state.requests.requests;
    let pairs = [
        (node.requested_milli_cpu + request.milli_cpu, node.allocatable_milli_cpu),
        (node.requested_memory + request.memory, node.allocatable_memory),
    ];
    let mut fractions = [0.0f64; 2];
    let mut count = 0;
    for (requested, allocatable) in pairs {
        if allocatable == 0 {
            continue;
        }
        fractions[count] = (requested as f64 / allocatable as f64).min(1.0);
        count += 1;
    }
    let std = if count == 2 { ((fractions[0] - fractions[1]) / 2.0).abs() } else { 0.0 };
    ((1.0 - std) * 100.0) as i64
}

/// Weight 1.
pub const SCORE: ScorePlugin =
    ScorePlugin { name: NAME, weight: 1, applies: always, score: score_node, normalize: None };

fn score_node(context: &ScoreContext, _: &NodeInfo, fit: &NodeFit) -> i64 {
    score(context.state, fit)
}
