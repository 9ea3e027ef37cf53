//! NodeResourcesFit: the pod's requests must fit in what the node's allocatable leaves after the
//! requests of the pods already there (requests, never usage); scores favour the least allocated
//! node unless the profile's scoring strategy says otherwise (`resource_allocation`). Mirrors
//! plugins/noderesources/fit.go (`fitsRequest`) and least_allocated.go.

use super::resource_allocation::{self, least_requested_score};
use crate::scheduler::framework::cluster_event::{ClusterEvent, on_node_events};
use crate::scheduler::framework::cycle_state::CycleState;
use crate::scheduler::framework::node_fit::NodeFit;
use crate::scheduler::framework::registry::{FilterPlugin, ScoreContext, ScorePlugin, always};
use crate::scheduler::framework::status::{Code, Reasons, Status};
use crate::scheduler::framework::types::{NodeInfo, Resource};
use std::borrow::Cow;

pub const NAME: &str = "NodeResourcesFit";

/// What a node is short of (upstream's `InsufficientResource` list): the reasons in upstream's
/// order, and whether some request exceeds the node's whole allocatable, so that no preemption
/// can help.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Shortfall {
    pub reasons: Reasons,
    pub unresolvable: bool,
}

impl Shortfall {
    fn add(&mut self, reason: Cow<'static, str>, unresolvable: bool) {
        self.reasons.push(reason);
        self.unresolvable |= unresolvable;
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
) -> Shortfall {
    let mut out = Shortfall::default();
    let (extra_requested, extra_pods) = match extra {
        Some((resource, pods)) => (Some(resource), *pods),
        None => (None, 0),
    };
    if (fit.pod_count as usize + extra_pods + 1) as i64 > fit.allowed_pod_number {
        out.add(Cow::Borrowed("Too many pods"), false);
    }
    if request.is_zero() {
        return out;
    }
    let used = |own: i64, get: fn(&Resource) -> i64| own + extra_requested.map_or(0, get);
    let checks = [
        (
            "Insufficient cpu",
            request.milli_cpu,
            fit.allocatable_milli_cpu,
            used(fit.requested_milli_cpu, |r| r.milli_cpu),
        ),
        ("Insufficient memory", request.memory, fit.allocatable_memory, used(fit.requested_memory, |r| r.memory)),
        (
            "Insufficient ephemeral-storage",
            request.ephemeral_storage,
            fit.allocatable_ephemeral_storage,
            used(fit.requested_ephemeral_storage, |r| r.ephemeral_storage),
        ),
    ];
    for (reason, wanted, allocatable, requested) in checks {
        if wanted > 0 && wanted > allocatable - requested {
            out.add(Cow::Borrowed(reason), wanted > allocatable);
        }
    }
    for (name, wanted) in request.scalar_resources.iter() {
        if wanted == 0 {
            continue;
        }
        let bit = name.known_bit();
        if bit != 0 && fit.devices & bit == 0 {
            // None of this device here: short of it whatever the node's pods hold.
            out.add(name.insufficient(), true);
            continue;
        }
        let (allocatable, own) = match (bit != 0).then(|| fit.device(bit)).flatten() {
            Some(amounts) => amounts,
            None => (node.allocatable.scalar_resources.of(name), node.requested.scalar_resources.of(name)),
        };
        let requested = own + extra_requested.map_or(0, |r| r.scalar_resources.of(name));
        if wanted > allocatable - requested {
            out.add(name.insufficient(), wanted > allocatable);
        }
    }
    out
}

pub fn filter(state: &CycleState, node: &NodeInfo, fit: &NodeFit) -> Result<(), Status> {
    let short = fits_request(&state.requests.requests, node, fit, state.nominated_on(&node.name));
    if short.reasons.is_empty() {
        return Ok(());
    }
    let code = if short.unresolvable { Code::UnschedulableAndUnresolvable } else { Code::Unschedulable };
    Err(Status { code, plugin: NAME, reasons: short.reasons })
}

/// Upstream's default strategy, LeastAllocated over cpu and memory (weight 1 each) with the
/// non-zero requests, on a path of its own: every cycle of an unconfigured profile runs it.
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
/// Weight 1; the profile's scoring strategy (LeastAllocated unless configured).
pub const SCORE: ScorePlugin =
    ScorePlugin { name: NAME, weight: 1, applies: always, score: score_node, normalize: None };

fn score_node(context: &ScoreContext, node: &NodeInfo, fit: &NodeFit) -> i64 {
    match &context.state.scoring {
        None => score(context.state, fit),
        Some(strategy) => resource_allocation::score(strategy, context.state, node, fit),
    }
}
