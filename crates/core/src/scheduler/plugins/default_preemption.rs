//! DefaultPreemption (PostFilter): when no node fits, find a node where deleting lower-priority
//! pods makes room, with the fewest and least important victims; otherwise explain why not.
//! Mirrors plugins/defaultpreemption (SelectVictimsOnNode, PodEligibleToPreemptOthers) and
//! framework/preemption (Preempt, findCandidates, pickOneNodeForPreemption).

use crate::api::Pod;
use crate::scheduler::framework::cache::Cache;
use crate::scheduler::framework::cycle_state::CycleState;
use crate::scheduler::framework::fit_error::FitError;
use crate::scheduler::framework::node_fit::NodeFit;
use crate::scheduler::framework::status::{Code, Status};
use crate::scheduler::framework::types::{NodeInfo, PodKey};

use crate::store::Store;
use std::sync::Arc;

pub const NAME: &str = "DefaultPreemption";
pub const NO_VICTIMS: &str = "No preemption victims found for incoming pod";
pub const NOT_HELPFUL: &str = "Preemption is not helpful for scheduling";

/// A node where preemption would make the pod fit, and the pods to delete there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub node: Arc<str>,
    pub victims: Vec<PodKey>,
    highest_priority: i32,
    priority_sum: i64,
}

/// The PostFilter verdict: nominate a node, or the message (already `preemption: …`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PostFilter {
    Nominate(Candidate),
    Fail(String),
}

/// Upstream `Evaluator.Preempt` for the pod whose filtering produced `fit_error`.
pub fn preempt(
    store: &Store,
    cache: &Cache,
    state: &CycleState,
    fit_error: &FitError,
    rejected: &[usize],
) -> PostFilter {
    if let Err(message) = eligible_to_preempt_others(store, cache, state, fit_error, rejected) {
        return PostFilter::Fail(format!("preemption: {message}"));
    }
    let mut failures = Vec::new();
    let mut candidates = Vec::new();
    for (&index, status) in rejected.iter().zip(&fit_error.statuses) {
        if status.code != Code::Unschedulable {
            continue;
        }
        let node = cache.node_at(index);
        match select_victims_on_node(store, cache, state, node) {
            Ok(candidate) => candidates.push(candidate),
            Err(status) => failures.push(status),
        }
    }
    match pick_one_node_for_preemption(candidates) {
        Some(candidate) => PostFilter::Nominate(candidate),
        None => {
            let error = FitError {
                num_all_nodes: fit_error.num_all_nodes,
                statuses: failures,
                absent_reason: Some(NOT_HELPFUL),
                pre_filter_message: None,
                post_filter_message: None,
            };
            PostFilter::Fail(format!("preemption: {}", error.message()))
        }
    }
}

/// Upstream `PodEligibleToPreemptOthers`.
fn eligible_to_preempt_others(
    store: &Store,
    cache: &Cache,
    state: &CycleState,
    fit_error: &FitError,
    rejected: &[usize],
) -> Result<(), &'static str> {
    let pod = state.pod;
    if pod.spec.preemption_policy.as_deref() == Some("Never") {
        return Err("not eligible due to preemptionPolicy=Never.");
    }
    let Some(nominated) = pod.status.nominated_node_name.as_deref().filter(|n| !n.is_empty()) else { return Ok(()) };
    let unresolvable = rejected
        .iter()
        .zip(&fit_error.statuses)
        .any(|(&i, s)| &*cache.node_at(i).name == nominated && s.code == Code::UnschedulableAndUnresolvable);
    if unresolvable {
        return Ok(());
    }
    let Some(node) = cache.node(nominated) else { return Ok(()) };
    let terminating_victim = node.pods.iter().any(|key| {
        cache.pod(key).is_some_and(|r| r.terminating && r.priority < state.priority)
            && store.try_get::<Pod>(&key.0, &key.1).is_some()
    });
    if terminating_victim {
        return Err("not eligible due to a terminating pod on the nominated node.");
    }
    Ok(())
}

/// Upstream `SelectVictimsOnNode`: remove every lower-priority pod; if the pod then fits, add
/// back the most important ones while it still fits. What could not be added back are victims.
pub fn select_victims_on_node(
    store: &Store,
    cache: &Cache,
    state: &CycleState,
    node: &NodeInfo,
) -> Result<Candidate, Status> {
    let mut potential: Vec<(i32, crate::sim::time::SimTime, PodKey)> = node
        .pods
        .iter()
        .filter_map(|key| {
            let record = cache.pod(key)?;
            (record.priority < state.priority).then(|| (record.priority, start_time(store, key), key.clone()))
        })
        .collect();
    if potential.is_empty() {
        return Err(Status::unresolvable(NAME, NO_VICTIMS));
    }
    let mut simulated = node.clone();
    for (_, _, key) in &potential {
        remove_from(&mut simulated, cache, key);
    }
    super::DEFAULT_PROFILE.run_filters(state, &simulated, &NodeFit::of(&simulated))?;
    // Most important first: higher priority, then the earlier started.
    potential.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut victims = Vec::new();
    for (priority, _, key) in potential {
        add_to(&mut simulated, cache, &key);
        if super::DEFAULT_PROFILE.run_filters(state, &simulated, &NodeFit::of(&simulated)).is_err() {
            remove_from(&mut simulated, cache, &key);
            victims.push((priority, key));
        }
    }
    let highest_priority = victims.iter().map(|(p, _)| *p).max().unwrap_or(i32::MIN);
    // Upstream offsets each priority by MaxInt32+1 so the sum favours fewer victims.
    let priority_sum = victims.iter().map(|(p, _)| i64::from(*p) + i64::from(i32::MAX) + 1).sum();
    let victims = victims.into_iter().map(|(_, key)| key).collect();
    Ok(Candidate { node: node.name.clone(), victims, highest_priority, priority_sum })
}

fn start_time(store: &Store, key: &PodKey) -> crate::sim::time::SimTime {
    let pod = store.try_get::<Pod>(&key.0, &key.1);
    let time = pod.and_then(|p| p.status.start_time.or(p.metadata.creation_timestamp));
    time.map_or(crate::sim::time::SimTime::ZERO, |t| t.0)
}

fn remove_from(node: &mut NodeInfo, cache: &Cache, key: &PodKey) {
    if let Some(record) = cache.pod(key)
        && node.pods.remove(key)
    {
        node.requested.sub(&record.requests.requests);
    }
}

fn add_to(node: &mut NodeInfo, cache: &Cache, key: &PodKey) {
    if let Some(record) = cache.pod(key)
        && node.pods.insert(key.clone())
    {
        node.requested.add(&record.requests.requests);
    }
}

/// Upstream `pickOneNodeForPreemption` (without PDBs): lowest highest-priority victim, then
/// lowest sum of priorities, then fewest victims, then the first in node order.
fn pick_one_node_for_preemption(candidates: Vec<Candidate>) -> Option<Candidate> {
    candidates.into_iter().min_by(|a, b| {
        a.highest_priority
            .cmp(&b.highest_priority)
            .then(a.priority_sum.cmp(&b.priority_sum))
            .then(a.victims.len().cmp(&b.victims.len()))
    })
}
