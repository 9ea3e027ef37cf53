//! NodeResourcesFit's score under a configured strategy: LeastAllocated spreads pods out,
//! MostAllocated packs them onto the fullest node that fits (GPU bin-packing), and
//! RequestedToCapacityRatio scores utilisation through a piecewise-linear shape. Upstream
//! resource_allocation.go, least_allocated.go, most_allocated.go, requested_to_capacity_ratio.go
//! and helper/shape_score.go.

use crate::scheduler::framework::cycle_state::CycleState;
use crate::scheduler::framework::node_fit::NodeFit;
use crate::scheduler::framework::scoring_strategy::{ScoringStrategy, ScoringStrategyType, UtilizationShapePoint};
use crate::scheduler::framework::types::{NodeInfo, is_scalar_resource_name};

const MAX_NODE_SCORE: i64 = 100;
/// The shape's scores are 0–10 (`MaxCustomPriorityScore`), scaled to the scheduler's 0–100.
const SHAPE_SCALE: i64 = MAX_NODE_SCORE / 10;

/// The node's score, 0–100, for `strategy`'s resources and weights.
pub fn score(strategy: &ScoringStrategy, state: &CycleState, node: &NodeInfo, fit: &NodeFit) -> i64 {
    let (mut node_score, mut weight_sum) = (0i64, 0i64);
    for resource in &strategy.resources {
        let (allocatable, requested) = allocatable_and_requested(&resource.name, state, node, fit);
        if allocatable == 0 {
            continue;
        }
        let resource_score = match strategy.kind {
            ScoringStrategyType::LeastAllocated => least_requested_score(requested, allocatable),
            ScoringStrategyType::MostAllocated => most_requested_score(requested, allocatable),
            ScoringStrategyType::RequestedToCapacityRatio => {
                let utilization =
                    if requested > allocatable { 100 } else { scaled_utilization(requested, allocatable) };
                let score = broken_linear(&strategy.shape, utilization);
                // Upstream counts a resource's weight only where it scored above 0.
                if score <= 0 {
                    continue;
                }
                score
            }
        };
        node_score += resource_score * resource.weight;
        weight_sum += resource.weight;
    }
    match (weight_sum, strategy.kind) {
        (0, _) => 0,
        // math.Round of the mean: half away from zero, and both are positive.
        (_, ScoringStrategyType::RequestedToCapacityRatio) => (2 * node_score + weight_sum) / (2 * weight_sum),
        _ => node_score / weight_sum,
    }
}

/// Upstream `calculateResourceAllocatableRequest`: cpu and memory count the non-zero requests
/// (a pod without requests as 100m and 200Mi); an extended resource the pod does not ask for is
/// not scored at all, so a CPU-only pod is not drawn to or away from GPU nodes by their GPUs.
fn allocatable_and_requested(name: &str, state: &CycleState, node: &NodeInfo, fit: &NodeFit) -> (i64, i64) {
    let pod = &state.requests;
    match name {
        "cpu" => (fit.allocatable_milli_cpu, fit.non_zero_milli_cpu + pod.non_zero_milli_cpu),
        "memory" => (fit.allocatable_memory, fit.non_zero_memory + pod.non_zero_memory),
        "ephemeral-storage" => {
            (fit.allocatable_ephemeral_storage, fit.requested_ephemeral_storage + pod.requests.ephemeral_storage)
        }
        scalar if is_scalar_resource_name(scalar) => match pod.requests.scalar(scalar) {
            0 => (0, 0),
            asked => (node.allocatable.scalar(scalar), node.requested.scalar(scalar) + asked),
        },
        _ => (0, 0),
    }
}

/// Upstream `leastRequestedScore`: the free share, 0–100.
pub fn least_requested_score(requested: i64, capacity: i64) -> i64 {
    if capacity == 0 || requested > capacity {
        return 0;
    }
    (capacity - requested) * MAX_NODE_SCORE / capacity
}

/// Upstream `mostRequestedScore`: the used share, 0–100 (more than all counts as all).
pub fn most_requested_score(requested: i64, capacity: i64) -> i64 {
    if capacity == 0 {
        return 0;
    }
    requested.min(capacity) * MAX_NODE_SCORE / capacity
}

/// Upstream `scaledUtilization`: requested × 100 / capacity, exact (no overflow).
fn scaled_utilization(requested: i64, capacity: i64) -> i64 {
    if capacity <= 0 || requested <= 0 {
        return 0;
    }
    if requested >= capacity {
        return 100;
    }
    (i128::from(requested) * 100 / i128::from(capacity)) as i64
}

/// Upstream `BuildBrokenLinearFunction`: the shape's score at `utilization`, interpolated
/// between its points and flat beyond its ends, on the 0–100 scale.
fn broken_linear(shape: &[UtilizationShapePoint], utilization: i64) -> i64 {
    let scaled = |p: &UtilizationShapePoint| (p.utilization, p.score * SHAPE_SCALE);
    for (i, point) in shape.iter().enumerate() {
        if utilization <= point.utilization {
            let (u1, s1) = scaled(point);
            if i == 0 {
                return s1;
            }
            let (u0, s0) = scaled(&shape[i - 1]);
            return s0 + (s1 - s0) * (utilization - u0) / (u1 - u0);
        }
    }
    shape.last().map_or(0, |p| p.score * SHAPE_SCALE)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(points: &[(i64, i64)]) -> Vec<UtilizationShapePoint> {
        points.iter().map(|&(utilization, score)| UtilizationShapePoint { utilization, score }).collect()
    }

    #[test]
    fn least_and_most_are_mirror_images_and_clamp_as_upstream() {
        assert_eq!((least_requested_score(3000, 4000), most_requested_score(3000, 4000)), (25, 75));
        // Over capacity (pods without requests count 100m each): least is 0, most is 100.
        assert_eq!((least_requested_score(5000, 4000), most_requested_score(5000, 4000)), (0, 100));
        assert_eq!((least_requested_score(1, 0), most_requested_score(1, 0)), (0, 0));
    }

    #[test]
    fn the_shape_interpolates_between_points_and_is_flat_past_its_ends() {
        // The bin-packing shape from the docs: 0% → 0, 100% → 10.
        let packing = shape(&[(0, 0), (100, 10)]);
        assert_eq!([0, 25, 50, 100].map(|u| broken_linear(&packing, u)), [0, 25, 50, 100]);
        let bumpy = shape(&[(20, 2), (60, 10)]);
        assert_eq!([0, 20, 40, 60, 90].map(|u| broken_linear(&bumpy, u)), [20, 20, 60, 100, 100]);
        assert_eq!(scaled_utilization(1, 3), 33);
        assert_eq!(scaled_utilization(i64::MAX / 2, i64::MAX), 49);
    }
}
