//! PodTopologySpread: `DoNotSchedule` constraints refuse a node when placing the pod there would
//! make its domain exceed `maxSkew` over the least-loaded domain; `ScheduleAnyway` constraints and
//! the system defaults (spread replicas of a Service/ReplicaSet over hosts and zones) score.
//! Mirrors plugins/podtopologyspread (filtering.go, scoring.go, common.go).

use crate::api::labels::{Operator, Requirement, Selector};
use crate::api::{Pod, ReplicaSet, Service};
use crate::scheduler::framework::cache::Cache;
use crate::scheduler::framework::cluster_event::on_any_event;
use crate::scheduler::framework::cycle_state::CycleState;
use crate::scheduler::framework::node_fit::NodeFit;
use crate::scheduler::framework::registry::PreFilterPlugin;
use crate::scheduler::framework::registry::{FilterPlugin, PreScorePlugin, ScoreContext, ScorePlugin};
use crate::scheduler::framework::status::Status;
use crate::scheduler::framework::types::NodeInfo;
use crate::scheduler::plugins::node_affinity;
use crate::scheduler::plugins::taint_toleration::find_untolerated_taint;
use crate::store::Store;
use std::collections::BTreeMap;

pub const NAME: &str = "PodTopologySpread";
pub const ERR_REASON_CONSTRAINTS_NOT_MATCH: &str = "node(s) didn't match pod topology spread constraints";
pub const ERR_REASON_NODE_LABEL_NOT_MATCH: &str =
    "node(s) didn't match pod topology spread constraints (missing required label)";
const LABEL_HOSTNAME: &str = "kubernetes.io/hostname";
const LABEL_ZONE: &str = "topology.kubernetes.io/zone";

/// One constraint, parsed (upstream `topologySpreadConstraint`).
#[derive(Clone, Debug)]
pub struct Constraint {
    pub max_skew: i64,
    pub topology_key: String,
    pub selector: Selector,
    pub min_domains: i64,
    honor_node_affinity: bool,
    honor_taints: bool,
}

fn pod_constraints(pod: &Pod, action: &str) -> Vec<Constraint> {
    pod.spec
        .topology_spread_constraints
        .iter()
        .filter(|c| c.when_unsatisfiable == action)
        .map(|c| {
            let selector = match &c.label_selector {
                Some(s) => s.to_selector().unwrap_or_else(|_| Selector::nothing()),
                None => Selector::nothing(),
            };
            Constraint {
                max_skew: i64::from(c.max_skew),
                topology_key: c.topology_key.clone(),
                selector: with_match_label_keys(selector, pod, &c.match_label_keys),
                min_domains: i64::from(c.min_domains.unwrap_or(1)),
                honor_node_affinity: c.node_affinity_policy.as_deref() != Some("Ignore"),
                honor_taints: c.node_taints_policy.as_deref() == Some("Honor"),
            }
        })
        .collect()
}

/// `matchLabelKeys`: the pod's own values for those keys narrow the selector.
fn with_match_label_keys(selector: Selector, pod: &Pod, keys: &[String]) -> Selector {
    if keys.is_empty() || selector.is_nothing() {
        return selector;
    }
    let mut requirements = selector.requirements().to_vec();
    for key in keys {
        if let Some(value) = pod.metadata.labels.get(key)
            && let Ok(r) = Requirement::new(key.as_str(), Operator::In, vec![value.to_string()])
        {
            requirements.push(r);
        }
    }
    Selector::from_requirements(requirements)
}

/// Upstream `DefaultSelector`: the selectors of the Services selecting the pod and of its
/// controlling ReplicaSet.
fn default_selector(store: &Store, pod: &Pod) -> Selector {
    let ns = pod.metadata.namespace.as_str();
    let mut set = crate::api::string_map::StringMap::new();
    for service in store.list::<Service>(Some(ns)) {
        let selector = &service.spec.selector;
        if !selector.is_empty() && pod.metadata.labels.contains_all(selector) {
            selector.iter().for_each(|(k, v)| {
                set.insert(k, v);
            });
        }
    }
    let mut requirements = Selector::from_set(&set).requirements().to_vec();
    if let Some(owner) = pod.metadata.controller_ref().filter(|o| o.kind == "ReplicaSet")
        && let Some(rs) = store.try_get::<ReplicaSet>(ns, &owner.name)
        && let Some(Ok(selector)) = rs.spec.selector.as_ref().map(|s| s.to_selector())
    {
        requirements.extend(selector.requirements().iter().cloned());
    }
    Selector::from_requirements(requirements)
}

/// Upstream `systemDefaultConstraints`: hostname maxSkew 3, zone maxSkew 5, ScheduleAnyway.
fn system_default_constraints(store: &Store, pod: &Pod) -> Vec<Constraint> {
    let selector = default_selector(store, pod);
    if selector.is_empty() {
        return Vec::new();
    }
    [(LABEL_HOSTNAME, 3), (LABEL_ZONE, 5)]
        .into_iter()
        .map(|(key, max_skew)| Constraint {
            max_skew,
            topology_key: key.to_string(),
            selector: selector.clone(),
            min_domains: 1,
            honor_node_affinity: true,
            honor_taints: false,
        })
        .collect()
}

fn node_included(c: &Constraint, pod: &Pod, node: &NodeInfo) -> bool {
    if c.honor_node_affinity && !node_affinity::matches_required(pod, &node.name, &node.labels) {
        return false;
    }
    !c.honor_taints || find_untolerated_taint(&node.taints, &pod.spec.tolerations).is_none()
}

fn has_all_keys(constraints: &[Constraint], node: &NodeInfo) -> bool {
    constraints.iter().all(|c| node.labels.contains_key(&c.topology_key))
}

/// Matching pods summed per topology value over the nodes that count for the constraint
/// (upstream `countPodsMatchSelector` per node: same namespace, not terminating, labels selected).
fn count_by_domain(
    cache: &Cache,
    c: &Constraint,
    pod: &Pod,
    filter: impl Fn(&NodeInfo) -> bool,
) -> BTreeMap<String, i64> {
    let mut by_domain = BTreeMap::new();
    for (node_name, count) in cache.label_groups().each_node(&pod.metadata.namespace, &c.selector) {
        let Some(node) = cache.node(node_name) else { continue };
        if !filter(node) || !node_included(c, pod, node) {
            continue;
        }
        if let Some(value) = node.labels.get(&c.topology_key) {
            add_to_domain(&mut by_domain, value, count);
        }
    }
    by_domain
}

/// Adds `n` matching pods to a domain. Called once per node for a handful of domains, so the
/// value is copied only the first time it is seen.
fn add_to_domain(counts: &mut BTreeMap<String, i64>, value: &str, n: i64) {
    match counts.get_mut(value) {
        Some(count) => *count += n,
        None => {
            counts.insert(value.to_string(), n);
        }
    }
}

/// PreFilter's result: per constraint, matching pods per domain and the global minimum.
#[derive(Clone, Debug)]
pub struct PreFilterState {
    constraints: Vec<Constraint>,
    counts: Vec<BTreeMap<String, i64>>,
    min_match: Vec<i64>,
}

pub fn pre_filter(cache: &Cache, pod: &Pod) -> Option<PreFilterState> {
    let constraints = pod_constraints(pod, "DoNotSchedule");
    if constraints.is_empty() {
        return None;
    }
    // Every eligible domain counts, even with no matching pods (upstream seeds them with 0).
    let mut counts = vec![BTreeMap::new(); constraints.len()];
    for node in cache.nodes().filter(|n| has_all_keys(&constraints, n)) {
        for (i, c) in constraints.iter().enumerate() {
            if node_included(c, pod, node)
                && let Some(value) = node.labels.get(&c.topology_key)
            {
                add_to_domain(&mut counts[i], value, 0);
            }
        }
    }
    for (i, c) in constraints.iter().enumerate() {
        for (domain, n) in count_by_domain(cache, c, pod, |node| has_all_keys(&constraints, node)) {
            *counts[i].entry(domain).or_insert(0) += n;
        }
    }
    let min_match = constraints
        .iter()
        .zip(&counts)
        .map(|(c, by_domain)| {
            if (by_domain.len() as i64) < c.min_domains {
                0
            } else {
                by_domain.values().copied().min().unwrap_or(i64::from(i32::MAX))
            }
        })
        .collect();
    Some(PreFilterState { constraints, counts, min_match })
}

pub fn filter(state: Option<&PreFilterState>, pod: &Pod, node: &NodeInfo) -> Result<(), Status> {
    let Some(state) = state else { return Ok(()) };
    for (i, c) in state.constraints.iter().enumerate() {
        let Some(value) = node.labels.get(&c.topology_key) else {
            return Err(Status::unresolvable(NAME, ERR_REASON_NODE_LABEL_NOT_MATCH));
        };
        let self_match = i64::from(c.selector.matches(&pod.metadata.labels));
        let matching = state.counts[i].get(value).copied().unwrap_or(0);
        if matching + self_match - state.min_match[i] > c.max_skew {
            return Err(Status::unschedulable(NAME, ERR_REASON_CONSTRAINTS_NOT_MATCH));
        }
    }
    Ok(())
}

/// PreScore's result for the soft constraints (or the system defaults).
#[derive(Clone, Debug)]
pub struct ScoreState {
    constraints: Vec<Constraint>,
    require_all_topologies: bool,
    counts: Vec<BTreeMap<String, i64>>,
    /// For hostname constraints, matching pods per node, counted once per pod scheduled.
    per_node: Vec<BTreeMap<std::sync::Arc<str>, i64>>,
    weights: Vec<f64>,
}

/// Marks a node that lacks a topology key: it scores 0 after normalising.
pub const IGNORED: i64 = i64::MIN;

/// `feasible` holds node indexes (`Cache::node_at`).
pub fn pre_score(store: &Store, cache: &Cache, pod: &Pod, feasible: &[usize]) -> Option<ScoreState> {
    let own = pod_constraints(pod, "ScheduleAnyway");
    let has_own = !pod.spec.topology_spread_constraints.is_empty();
    let constraints = if has_own { own } else { system_default_constraints(store, pod) };
    if constraints.is_empty() {
        return None;
    }
    let require_all_topologies = has_own;
    let mut counts = vec![BTreeMap::new(); constraints.len()];
    let mut ignored = 0usize;
    for node in feasible.iter().map(|&i| cache.node_at(i)) {
        if require_all_topologies && !has_all_keys(&constraints, node) {
            ignored += 1;
            continue;
        }
        for (i, c) in constraints.iter().enumerate().filter(|(_, c)| c.topology_key != LABEL_HOSTNAME) {
            if let Some(value) = node.labels.get(&c.topology_key) {
                add_to_domain(&mut counts[i], value, 0);
            }
        }
    }
    let weights = constraints
        .iter()
        .zip(&counts)
        .map(|(c, domains)| {
            let size = if c.topology_key == LABEL_HOSTNAME { feasible.len() - ignored } else { domains.len() };
            ((size + 2) as f64).ln()
        })
        .collect();
    for (i, c) in constraints.iter().enumerate().filter(|(_, c)| c.topology_key != LABEL_HOSTNAME) {
        for (domain, n) in count_by_domain(cache, c, pod, |_| true) {
            if let Some(count) = counts[i].get_mut(&domain) {
                *count += n;
            }
        }
    }
    let per_node = constraints
        .iter()
        .map(|c| {
            if c.topology_key == LABEL_HOSTNAME {
                cache.label_groups().per_node(&pod.metadata.namespace, &c.selector)
            } else {
                BTreeMap::new()
            }
        })
        .collect();
    Some(ScoreState { constraints, require_all_topologies, counts, per_node, weights })
}

pub fn score(state: &ScoreState, node: &NodeInfo) -> i64 {
    if state.require_all_topologies && !has_all_keys(&state.constraints, node) {
        return IGNORED;
    }
    let mut score = 0.0;
    for (i, c) in state.constraints.iter().enumerate() {
        let Some(value) = node.labels.get(&c.topology_key) else { continue };
        let count = if c.topology_key == LABEL_HOSTNAME {
            state.per_node[i].get(&node.name).copied().unwrap_or(0)
        } else {
            state.counts[i].get(value).copied().unwrap_or(0)
        };
        score += count as f64 * state.weights[i] + (c.max_skew - 1) as f64;
    }
    score.round() as i64
}

/// Upstream NormalizeScore: fewer matching pods scores higher; ignored nodes score 0.
pub fn normalize(scores: &mut [i64]) {
    let valid = || scores.iter().copied().filter(|s| *s != IGNORED);
    let min = valid().min().unwrap_or(0);
    let max = valid().max().unwrap_or(0);
    for s in scores.iter_mut() {
        *s = match *s {
            IGNORED => 0,
            _ if max == 0 => 100,
            value => 100 * (max + min - value) / max,
        };
    }
}

pub const PRE_FILTER: PreFilterPlugin = PreFilterPlugin { name: NAME, pre_filter: pre_filter_pod };
/// A node's labels or any pod's placement may change the skew.
pub const FILTER: FilterPlugin = FilterPlugin { name: NAME, filter: filter_node, requeue_on: on_any_event };
pub const PRE_SCORE: PreScorePlugin = PreScorePlugin { name: NAME, pre_score: pre_score_nodes };
/// Weight 2; scores only pods with spread constraints (or the system default's).
pub const SCORE: ScorePlugin =
    ScorePlugin { name: NAME, weight: 2, applies: spreads, score: score_node, normalize: Some(normalize) };

fn pre_filter_pod(state: &mut CycleState, _: &Store, cache: &Cache) {
    if let Some(found) = pre_filter(cache, state.pod) {
        state.states.write(found);
    }
}

fn filter_node(state: &CycleState, node: &NodeInfo, _: &NodeFit) -> Result<(), Status> {
    filter(state.states.read::<PreFilterState>(), state.pod, node)
}

fn pre_score_nodes(context: &mut ScoreContext, store: &Store, cache: &Cache, feasible: &[usize]) {
    if let Some(found) = pre_score(store, cache, context.state.pod, feasible) {
        context.states.write(found);
    }
}

fn spreads(context: &ScoreContext) -> bool {
    context.states.read::<ScoreState>().is_some()
}

fn score_node(context: &ScoreContext, node: &NodeInfo, _: &NodeFit) -> i64 {
    context.states.read::<ScoreState>().map_or(0, |state| score(state, node))
}
