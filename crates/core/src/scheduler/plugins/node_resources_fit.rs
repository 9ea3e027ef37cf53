//! NodeResourcesFit: the pod's requests must fit in what the node's allocatable leaves after the
//! requests of the pods already there (requests, never usage); scores favour the least allocated
//! node. Mirrors plugins/noderesources/fit.go (`fitsRequest`) and least_allocated.go.

use crate::scheduler::framework::cluster_event::{ClusterEvent, on_node_events};
use crate::scheduler::framework::cycle_state::CycleState;
use crate::scheduler::framework::node_fit::NodeFit;
use crate::scheduler::framework::registry::{FilterPlugin, ScoreContext, ScorePlugin, always};
use crate::scheduler::framework::status::{Code, Status};
use crate::scheduler::framework::types::{NodeInfo, Resource};
use std::borrow::Cow;

pub const NAME: &str = "NodeResourcesFit";

/// One resource the node is short of (upstream `InsufficientResource`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InsufficientResource {
    pub reason: Cow<'static, str>,
    /// The request exceeds the node's whole allocatable: no preemption can help.
    pub unresolvable: bool,
}

fn insufficient(resource: &str) -> Cow<'static, str> {
    match resource {
        "cpu" => Cow::Borrowed("Insufficient cpu"),
        "memory" => Cow::Borrowed("Insufficient memory"),
        "ephemeral-storage" => Cow::Borrowed("Insufficient ephemeral-storage"),
        other => match crate::gpu::device_plugin::insufficient_reason(other) {
            Some(reason) => Cow::Borrowed(reason),
            None => Cow::Owned(format!("Insufficient {other}")),
        },
    }
}

/// Upstream `fitsRequest`: pods, cpu, memory, ephemeral-storage, then extended resources.
/// `extra` is what nominated pods of higher or equal priority have reserved on the node; `fit`
/// is `node`'s `NodeFit` (extended resources are read from `node`).
pub fn fits_request(
    request: &Resource,
    node: &NodeInfo,
    fit: &NodeFit,
    extra: Option<&(Resource, usize)>,
) -> Vec<InsufficientResource> {
    let mut out = Vec::new();
    let (extra_requested, extra_pods) = match extra {
        Some((resource, pods)) => (Some(resource), *pods),
        None => (None, 0),
    };
    if (fit.pod_count as usize + extra_pods + 1) as i64 > fit.allowed_pod_number {
        out.push(InsufficientResource { reason: Cow::Borrowed("Too many pods"), unresolvable: false });
    }
    if request.is_zero() {
        return out;
    }
    let used = |own: i64, get: fn(&Resource) -> i64| own + extra_requested.map_or(0, get);
    let checks = [
        ("cpu", request.milli_cpu, fit.allocatable_milli_cpu, used(fit.requested_milli_cpu, |r| r.milli_cpu)),
        ("memory", request.memory, fit.allocatable_memory, used(fit.requested_memory, |r| r.memory)),
        (
            "ephemeral-storage",
            request.ephemeral_storage,
            fit.allocatable_ephemeral_storage,
            used(fit.requested_ephemeral_storage, |r| r.ephemeral_storage),
        ),
    ];
    for (name, wanted, allocatable, requested) in checks {
        if wanted > 0 && wanted > allocatable - requested {
            out.push(InsufficientResource { reason: insufficient(name), unresolvable: wanted > allocatable });
        }
    }
    for (name, wanted) in &request.scalar_resources {
        if *wanted == 0 {
            continue;
        }
        let allocatable = node.allocatable.scalar(name);
        let requested = node.requested.scalar(name) + extra_requested.map_or(0, |r| r.scalar(name));
        if *wanted > allocatable - requested {
            out.push(InsufficientResource { reason: insufficient(name), unresolvable: *wanted > allocatable });
        }
    }
    out
}

pub fn filter(state: &CycleState, node: &NodeInfo, fit: &NodeFit) -> Result<(), Status> {
    let short = fits_request(&state.requests.requests, node, fit, state.nominated_on(&node.name));
    if short.is_empty() {
        return Ok(());
    }
    let code =
        if short.iter().any(|s| s.unresolvable) { Code::UnschedulableAndUnresolvable } else { Code::Unschedulable };
    Err(Status { code, plugin: NAME, reasons: short.into_iter().map(|s| s.reason).collect() })
}

/// Upstream `leastRequestedScore`: the free share of the capacity, 0–100.
fn least_requested_score(requested: i64, capacity: i64) -> i64 {
    if capacity == 0 || requested > capacity {
        return 0;
    }
    (capacity - requested) * 100 / capacity
}

/// LeastAllocated over cpu and memory (weight 1 each), with the non-zero requests.
pub fn score(state: &CycleState, node: &NodeFit) -> i64 {
    let pairs = [
        (node.non_zero_milli_cpu + state.requests.non_zero_milli_cpu, node.allocatable_milli_cpu),
        (node.non_zero_memory + state.requests.non_zero_memory, node.allocatable_memory),
    ];
    let (mut total, mut weights) = (0, 0);
    for (requested, allocatable) in pairs {
        if allocatable == 0 {
            continue;
        }
        total += least_requested_score(requested, allocatable);
        weights += 1;
    }
    if weights == 0 { 0 } else { total / weights }
}

/// A node's change, or a pod leaving one, may free room.
pub const FILTER: FilterPlugin = FilterPlugin { name: NAME, filter, requeue_on: node_or_pod_delete };

fn node_or_pod_delete(event: ClusterEvent) -> bool {
    on_node_events(event) || event == ClusterEvent::AssignedPodDelete
}
/// Weight 1; LeastAllocated.
pub const SCORE: ScorePlugin =
    ScorePlugin { name: NAME, weight: 1, applies: always, score: score_node, normalize: None };

fn score_node(context: &ScoreContext, _: &NodeInfo, fit: &NodeFit) -> i64 {
    score(context.state, fit)
}
