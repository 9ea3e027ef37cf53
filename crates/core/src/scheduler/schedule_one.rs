//! One scheduling cycle for one pod: filter nodes (from a rotating start, stopping once enough
//! are feasible), score the feasible ones, pick the best (ties at random).
//! Mirrors pkg/scheduler/schedule_one.go (`schedulePod`, `findNodesThatPassFilters`,
//! `numFeasibleNodesToFind`, `prioritizeNodes`, `selectHost`).

use super::decision::{NodeScores, NodeVerdict};
use super::framework::registry::SCORE_PLUGINS;
use super::plugins::DEFAULT_PROFILE;
use crate::scheduler::framework::cache::Cache;
use crate::scheduler::framework::cycle_state::CycleState;
use crate::scheduler::framework::fit_error::FitError;
use crate::scheduler::framework::node_fit::NodeFit;
use crate::scheduler::framework::status::Status;
use crate::scheduler::framework::types::NodeInfo;
use crate::sim::random::Purpose;
use crate::store::Store;
use std::sync::Arc;

const MIN_FEASIBLE_NODES_TO_FIND: usize = 100;
const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND: usize = 5;

/// Upstream `numFeasibleNodesToFind` with `percentageOfNodesToScore` unset (adaptive):
/// every node below 100; else max(50 − n/125, 5)% of them, but at least 100.
pub fn num_feasible_nodes_to_find(num_all_nodes: usize) -> usize {
    if num_all_nodes < MIN_FEASIBLE_NODES_TO_FIND {
        return num_all_nodes;
    }
    let percentage = 50usize.saturating_sub(num_all_nodes / 125).max(MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND);
    (num_all_nodes * percentage / 100).max(MIN_FEASIBLE_NODES_TO_FIND)
}

/// Every filter plugin of the profile in order; the first rejection wins.
/// `fit` is `node`'s `NodeFit`; the plugins read `node` only for what `fit` does not hold.
#[inline]
pub fn run_filters(state: &CycleState, node: &NodeInfo, fit: &NodeFit) -> Result<(), Status> {
    DEFAULT_PROFILE.run_filters(state, node, fit)
}

/// Buffers reused across cycles, so a decision allocates little.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    feasible: Vec<usize>,
    raw: Vec<[i64; SCORE_PLUGINS]>,
    column: Vec<i64>,
    /// A verdict list from an evicted decision, for the next one.
    verdicts: Vec<NodeVerdict>,
}

impl Scratch {
    /// Keeps a decision's verdict list (the larger one seen) to fill again.
    pub fn recycle(&mut self, verdicts: Vec<NodeVerdict>) {
        if verdicts.capacity() > self.verdicts.capacity() {
            self.verdicts = verdicts;
        }
    }
}

/// A cycle's result before any write: the chosen node and the tied best, or the fit error.
#[derive(Debug)]
pub struct ScheduleResult {
    /// Indexes (in node order) of the feasible nodes with the highest total score.
    pub best: Vec<usize>,
    pub verdicts: Vec<NodeVerdict>,
    /// The rejected nodes' statuses, which `verdicts` refer to.
    pub rejections: Vec<Status>,
}

/// Filters and scores; `next_start` is upstream's `nextStartNodeIndex`.
pub fn schedule_pod(
    store: &Store,
    cache: &Cache,
    state: &CycleState,
    scratch: &mut Scratch,
    next_start: &mut usize,
) -> Result<ScheduleResult, (FitError, Vec<NodeVerdict>)> {
    let n = cache.node_count();
    if let Some(status) = &state.pre_filter_rejection {
        return Err(pre_filter_failure(n, status));
    }
    if let Some(result) = evaluate_nominated_node(cache, state) {
        return Ok(result);
    }
    let to_find = num_feasible_nodes_to_find(n);
    scratch.feasible.clear();
    let mut verdicts = std::mem::take(&mut scratch.verdicts);
    verdicts.clear();
    let mut rejections = Vec::new();
    let mut processed = 0;
    for i in 0..n {
        let index = (*next_start + i) % n;
        processed += 1;
        match run_filters(state, cache.node_at(index), cache.fit_at(index)) {
            Ok(()) => scratch.feasible.push(index),
            Err(status) => {
                let rejected = Some(shared_rejection(&mut rejections, status));
                verdicts.push(NodeVerdict { node: index as u32, rejected, scores: None });
            }
        }
        if scratch.feasible.len() >= to_find {
            break;
        }
    }
    if n > 0 {
        *next_start = (*next_start + processed) % n;
    }
    if scratch.feasible.is_empty() {
        let statuses = one_status_per_node(&mut verdicts, &rejections);
        let error = FitError { num_all_nodes: n, statuses, ..Default::default() };
        return Err((error, verdicts));
    }
    if scratch.feasible.len() == 1 {
        let index = scratch.feasible[0];
        verdicts.push(NodeVerdict { node: index as u32, rejected: None, scores: None });
        return Ok(ScheduleResult { best: vec![index], verdicts, rejections });
    }
    let best = prioritize_nodes(store, cache, state, scratch, &mut verdicts);
    Ok(ScheduleResult { best, verdicts, rejections })
}

/// Where a rejection sits in the cycle's list: most nodes are refused for the same reason, so an
/// equal status among the last few is shared rather than kept once per node.
fn shared_rejection(rejections: &mut Vec<Status>, status: Status) -> u32 {
    const RECENT: usize = 4;
    let recent = rejections.len().saturating_sub(RECENT);
    if let Some(at) = rejections[recent..].iter().rposition(|r| *r == status) {
        return (recent + at) as u32;
    }
    rejections.push(status);
    (rejections.len() - 1) as u32
}

/// The fit error's statuses, one per rejected node in visiting order (preemption and the
/// FailedScheduling histogram count them), the verdicts pointing at their own.
fn one_status_per_node(verdicts: &mut [NodeVerdict], shared: &[Status]) -> Vec<Status> {
    let mut statuses = Vec::with_capacity(verdicts.len());
    for (i, verdict) in verdicts.iter_mut().enumerate() {
        let at = verdict.rejected.map_or(0, |r| r as usize);
        statuses.push(shared[at].clone());
        verdict.rejected = Some(i as u32);
    }
    statuses
}

/// A PreFilter refusal: every node carries its status (so preemption sees nothing to gain) and
/// the message is the plugin's alone.
fn pre_filter_failure(n: usize, status: &Status) -> (FitError, Vec<NodeVerdict>) {
    let verdicts = (0..n).map(|i| NodeVerdict { node: i as u32, rejected: Some(i as u32), scores: None }).collect();
    let error = FitError {
        num_all_nodes: n,
        statuses: vec![status.clone(); n],
        pre_filter_message: Some(status.message()),
        ..Default::default()
    };
    (error, verdicts)
}

/// Upstream `evaluateNominatedNode`: a pod nominated by preemption tries that node alone first.
fn evaluate_nominated_node(cache: &Cache, state: &CycleState) -> Option<ScheduleResult> {
    let nominated = state.pod.status.nominated_node_name.as_deref().filter(|n| !n.is_empty())?;
    let (node, fit) = cache.node_and_fit(nominated)?;
    run_filters(state, node, fit).ok()?;
    let index = (0..cache.node_count()).find(|&i| &*cache.node_at(i).name == nominated)?;
    let verdicts = vec![NodeVerdict { node: index as u32, rejected: None, scores: None }];
    Some(ScheduleResult { best: vec![index], verdicts, rejections: Vec::new() })
}

/// Scores every feasible node with every score plugin of the profile, normalises, weights, and
/// returns the indexes of the nodes sharing the highest total.
fn prioritize_nodes(
    store: &Store,
    cache: &Cache,
    state: &CycleState,
    scratch: &mut Scratch,
    verdicts: &mut Vec<NodeVerdict>,
) -> Vec<usize> {
    let profile = &DEFAULT_PROFILE;
    let weights = score_weights(state);
    let context = profile.pre_score(store, cache, state, &scratch.feasible);
    let applies: [bool; SCORE_PLUGINS] =
        std::array::from_fn(|i| weights[i] != 0 && (profile.score[i].applies)(&context));
    scratch.raw.clear();
    for &index in &scratch.feasible {
        let (node, fit) = (cache.node_at(index), cache.fit_at(index));
        let row: [i64; SCORE_PLUGINS] =
            std::array::from_fn(|i| if applies[i] { (profile.score[i].score)(&context, node, fit) } else { 0 });
        scratch.raw.push(row);
    }
    for (column, plugin) in profile.score.iter().enumerate() {
        if let (true, Some(normalize)) = (applies[column], plugin.normalize) {
            normalize_column(scratch, column, normalize);
        }
    }
    let mut best = Vec::new();
    let mut best_total = i64::MIN;
    for (&index, scores) in scratch.feasible.iter().zip(&scratch.raw) {
        let total: i64 = scores.iter().zip(weights).map(|(s, weight)| s * weight).sum();
        if total > best_total {
            best_total = total;
            best.clear();
        }
        if total == best_total {
            best.push(index);
        }
        // Normalised scores are 0–100 by construction.
        let plugin_scores = scores.map(|s| s.clamp(0, 100) as u8);
        verdicts.push(NodeVerdict {
            node: index as u32,
            rejected: None,
            scores: Some(NodeScores { plugin_scores, total: i32::try_from(total).unwrap_or(i32::MAX) }),
        });
    }
    best
}

/// The weights this cycle's profile scores with: the registry's, unless its file changed them.
pub fn score_weights(state: &CycleState) -> [i64; SCORE_PLUGINS] {
    state.score_weights.unwrap_or_else(|| DEFAULT_PROFILE.score.each_ref().map(|p| p.weight))
}

fn normalize_column(scratch: &mut Scratch, column: usize, normalize: impl Fn(&mut [i64])) {
    scratch.column.clear();
    scratch.column.extend(scratch.raw.iter().map(|r| r[column]));
    normalize(&mut scratch.column);
    for (row, value) in scratch.raw.iter_mut().zip(&scratch.column) {
        row[column] = *value;
    }
}

/// Upstream `selectHost`: the highest score, ties broken uniformly at random (the distribution
/// of its reservoir sampling, drawn once from the store's seeded generator).
pub fn select_host(store: &mut Store, cache: &Cache, best: &[usize]) -> Option<Arc<str>> {
    let pick = match best.len() {
        0 => return None,
        1 => 0,
        n => store.random_below(Purpose::SchedulerTie, n as u64) as usize,
    };
    Some(cache.node_at(best[pick]).name.clone())
}
