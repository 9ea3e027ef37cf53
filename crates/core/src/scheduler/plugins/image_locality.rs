//! ImageLocality: favours nodes that already have the pod's images, weighted by how widely each
//! image has spread (so one node does not attract everything). Mirrors plugins/imagelocality.
//! Nodes here report no image list or sizes: a node "has" the images of the pods assigned to it,
//! and every image counts as `ASSUMED_IMAGE_SIZE_BYTES`.

use crate::scheduler::framework::cycle_state::CycleState;
use crate::scheduler::framework::node_fit::NodeFit;
use crate::scheduler::framework::registry::{ScoreContext, ScorePlugin, always};
use crate::scheduler::framework::types::NodeInfo;

pub const NAME: &str = "ImageLocality";

const MB: i64 = 1024 * 1024;
/// Upstream thresholds: below 23MB an image is not worth preferring; 1000MB per container caps it.
const MIN_THRESHOLD: i64 = 23 * MB;
const MAX_CONTAINER_THRESHOLD: i64 = 1000 * MB;
/// The size every image is taken to have (the simulator has no registry).
pub const ASSUMED_IMAGE_SIZE_BYTES: i64 = 100 * MB;

pub fn score(state: &CycleState, node: &NodeInfo, fit: &NodeFit, total_nodes: usize) -> i64 {
    if !fit.has_images() || total_nodes == 0 {
        return 0;
    }
    let mut sum = 0i64;
    for (id, nodes_with_image) in &state.images {
        if id.is_some_and(|id| fit.has_image(id, node)) {
            let spread = f64::from(*nodes_with_image) / total_nodes as f64;
            sum += (ASSUMED_IMAGE_SIZE_BYTES as f64 * spread) as i64;
        }
    }
    calculate_priority(sum, state.images.len() as i64)
}

/// Upstream `calculatePriority`: the sum clamped to [23MB, 1000MB × containers], scaled to 0–100.
fn calculate_priority(sum: i64, containers: i64) -> i64 {
    let max_threshold = MAX_CONTAINER_THRESHOLD * containers.max(1);
    let clamped = sum.clamp(MIN_THRESHOLD, max_threshold);
    100 * (clamped - MIN_THRESHOLD) / (max_threshold - MIN_THRESHOLD)
}

/// Weight 1.
pub const SCORE: ScorePlugin =
    ScorePlugin { name: NAME, weight: 1, applies: always, score: score_node, normalize: None };

fn score_node(context: &ScoreContext, node: &NodeInfo, fit: &NodeFit) -> i64 {
    score(context.state, node, fit, context.total_nodes)
}
