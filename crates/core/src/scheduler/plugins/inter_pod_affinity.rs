//! InterPodAffinity: required pod affinity and anti-affinity of the incoming pod, and the required
//! anti-affinity of pods already placed, decide where a pod may go; preferred terms score.
//! Mirrors plugins/interpodaffinity (filtering.go, scoring.go).

use crate::api::affinity::{PodAffinity, PodAffinityTerm};
use crate::api::labels::Selector;
use crate::api::string_map::StringMap;
use crate::api::{Namespace, Pod};
use crate::scheduler::framework::cache::Cache;
use crate::scheduler::framework::cluster_event::on_any_event;
use crate::scheduler::framework::cycle_state::CycleState;
use crate::scheduler::framework::node_fit::NodeFit;
use crate::scheduler::framework::registry::PreFilterPlugin;
use crate::scheduler::framework::registry::{FilterPlugin, PreScorePlugin, ScoreContext, ScorePlugin};
use crate::scheduler::framework::status::Status;
use crate::scheduler::framework::types::NodeInfo;
use crate::scheduler::framework::types::{
    has_any_affinity, has_required_anti_affinity, pod_affinity, pod_anti_affinity,
};
use crate::store::Store;
use std::collections::BTreeMap;

pub const NAME: &str = "InterPodAffinity";
pub const ERR_REASON_EXISTING_ANTI_AFFINITY: &str = "node(s) didn't satisfy existing pods anti-affinity rules";
pub const ERR_REASON_AFFINITY: &str = "node(s) didn't match pod affinity rules";
pub const ERR_REASON_ANTI_AFFINITY: &str = "node(s) didn't match pod anti-affinity rules";
/// Upstream `hardPodAffinityWeight` default: an existing pod's required affinity counts this much.
const HARD_POD_AFFINITY_WEIGHT: i64 = 1;

/// (topology key, value) → how many matching terms/pods sit in that domain.
type TopologyCounts = BTreeMap<(String, String), i64>;

/// A parsed term: its label selector, the namespaces it looks in, its topology key and weight.
#[derive(Clone, Debug)]
pub struct AffinityTerm {
    selector: Selector,
    namespaces: Vec<String>,
    all_namespaces: bool,
    pub topology_key: String,
    pub weight: i64,
}

impl AffinityTerm {
    /// Upstream `newAffinityTerm` with the namespace selector resolved against the namespaces.
    pub fn new(store: &Store, pod_namespace: &str, term: &PodAffinityTerm, weight: i64) -> AffinityTerm {
        let selector = match &term.label_selector {
            Some(s) => s.to_selector().unwrap_or_else(|_| Selector::nothing()),
            None => Selector::nothing(),
        };
        let mut namespaces = term.namespaces.clone();
        let mut all_namespaces = false;
        match &term.namespace_selector {
            None if namespaces.is_empty() => namespaces.push(pod_namespace.to_string()),
            None => {}
            Some(ns_selector) => match ns_selector.to_selector() {
                Ok(s) if s.is_empty() => all_namespaces = true,
                Ok(s) => namespaces.extend(
                    store
                        .list::<Namespace>(None)
                        .filter(|ns| s.matches(&ns.metadata.labels))
                        .map(|ns| ns.metadata.name.clone()),
                ),
                Err(_) => {}
            },
        }
        AffinityTerm { selector, namespaces, all_namespaces, topology_key: term.topology_key.clone(), weight }
    }

    pub fn matches(&self, namespace: &str, labels: &StringMap) -> bool {
        (self.all_namespaces || self.namespaces.iter().any(|n| n == namespace)) && self.selector.matches(labels)
    }
}

fn required(store: &Store, pod: &Pod, which: Option<&PodAffinity>) -> Vec<AffinityTerm> {
    let terms = which.map_or(&[][..], |a| &a.required_during_scheduling_ignored_during_execution[..]);
    terms.iter().map(|t| AffinityTerm::new(store, &pod.metadata.namespace, t, 1)).collect()
}

fn preferred(store: &Store, pod: &Pod, which: Option<&PodAffinity>, sign: i64) -> Vec<AffinityTerm> {
    let terms = which.map_or(&[][..], |a| &a.preferred_during_scheduling_ignored_during_execution[..]);
    let ns = &pod.metadata.namespace;
    terms.iter().map(|t| AffinityTerm::new(store, ns, &t.pod_affinity_term, sign * i64::from(t.weight))).collect()
}

fn add_count(counts: &mut TopologyCounts, node: &NodeInfo, key: &str, value: i64) {
    if let Some(v) = node.labels.get(key) {
        *counts.entry((key.to_string(), v.to_string())).or_insert(0) += value;
    }
}

/// PreFilter's result for one scheduling attempt.
#[derive(Clone, Debug, Default)]
pub struct PreFilterState {
    affinity_terms: Vec<AffinityTerm>,
    anti_affinity_terms: Vec<AffinityTerm>,
    existing_anti_affinity_counts: TopologyCounts,
    affinity_counts: TopologyCounts,
    anti_affinity_counts: TopologyCounts,
    pod_matches_own_affinity: bool,
}

/// Counts, over every placed pod, the domains the filter needs; `None` when nothing applies.
pub fn pre_filter(store: &Store, cache: &Cache, pod: &Pod) -> Option<PreFilterState> {
    let affinity_terms = required(store, pod, pod_affinity(pod));
    let anti_affinity_terms = required(store, pod, pod_anti_affinity(pod));
    let own_terms = !affinity_terms.is_empty() || !anti_affinity_terms.is_empty();
    if !own_terms && cache.pods_with_required_anti_affinity() == 0 {
        return None;
    }
    let mut state = PreFilterState { affinity_terms, anti_affinity_terms, ..Default::default() };
    let (namespace, labels) = (&pod.metadata.namespace, &pod.metadata.labels);
    state.pod_matches_own_affinity = state.affinity_terms.iter().all(|t| t.matches(namespace, labels));
    for node in cache.nodes() {
        if !own_terms && node.pods_with_required_anti_affinity == 0 {
            continue;
        }
        for (ns, name) in &node.pods {
            let Some(existing) = store.try_get::<Pod>(ns, name) else { continue };
            count_existing(store, &mut state, node, existing, own_terms, (namespace, labels));
        }
    }
    Some(state)
}

fn count_existing(
    store: &Store,
    state: &mut PreFilterState,
    node: &NodeInfo,
    existing: &Pod,
    own_terms: bool,
    incoming: (&str, &StringMap),
) {
    if has_required_anti_affinity(existing) {
        for term in required(store, existing, pod_anti_affinity(existing)) {
            if term.matches(incoming.0, incoming.1) {
                add_count(&mut state.existing_anti_affinity_counts, node, &term.topology_key, 1);
            }
        }
    }
    if !own_terms {
        return;
    }
    let (ns, labels) = (&existing.metadata.namespace, &existing.metadata.labels);
    if !state.affinity_terms.is_empty() && state.affinity_terms.iter().all(|t| t.matches(ns, labels)) {
        for term in &state.affinity_terms {
            add_count(&mut state.affinity_counts, node, &term.topology_key, 1);
        }
    }
    for term in &state.anti_affinity_terms {
        if term.matches(ns, labels) {
            add_count(&mut state.anti_affinity_counts, node, &term.topology_key, 1);
        }
    }
}

fn domain_count(counts: &TopologyCounts, key: &str, value: &str) -> i64 {
    counts.get(&(key.to_string(), value.to_string())).copied().unwrap_or(0)
}

pub fn filter(state: Option<&PreFilterState>, node: &NodeInfo) -> Result<(), Status> {
    let Some(state) = state else { return Ok(()) };
    if !satisfies_pod_affinity(state, node) {
        return Err(Status::unresolvable(NAME, ERR_REASON_AFFINITY));
    }
    let anti = state.anti_affinity_terms.iter().any(|t| {
        node.labels
            .get(&t.topology_key)
            .is_some_and(|v| domain_count(&state.anti_affinity_counts, &t.topology_key, v) > 0)
    });
    if anti {
        return Err(Status::unschedulable(NAME, ERR_REASON_ANTI_AFFINITY));
    }
    let existing = state
        .existing_anti_affinity_counts
        .iter()
        .any(|((key, value), count)| *count > 0 && node.labels.get(key) == Some(value.as_str()));
    if existing {
        return Err(Status::unschedulable(NAME, ERR_REASON_EXISTING_ANTI_AFFINITY));
    }
    Ok(())
}

/// Upstream `satisfyPodAffinity`, including the first pod of a group that selects itself.
fn satisfies_pod_affinity(state: &PreFilterState, node: &NodeInfo) -> bool {
    let mut pods_exist = true;
    for term in &state.affinity_terms {
        let Some(value) = node.labels.get(&term.topology_key) else { return false };
        if domain_count(&state.affinity_counts, &term.topology_key, value) <= 0 {
            pods_exist = false;
        }
    }
    pods_exist || (state.affinity_counts.is_empty() && state.pod_matches_own_affinity)
}

/// PreScore's result: topology key → value → accumulated weight.
#[derive(Clone, Debug, Default)]
pub struct ScoreState {
    topology_score: BTreeMap<String, BTreeMap<String, i64>>,
}

/// Upstream PreScore: `None` (Skip) when neither the pod nor any placed pod has terms to weigh.
pub fn pre_score(store: &Store, cache: &Cache, pod: &Pod) -> Option<ScoreState> {
    let mut incoming = preferred(store, pod, pod_affinity(pod), 1);
    incoming.extend(preferred(store, pod, pod_anti_affinity(pod), -1));
    if incoming.is_empty() && cache.pods_with_affinity() == 0 {
        return None;
    }
    let mut state = ScoreState::default();
    for node in cache.nodes() {
        if node.labels.is_empty() || (incoming.is_empty() && node.pods_with_affinity == 0) {
            continue;
        }
        for (ns, name) in &node.pods {
            let Some(existing) = store.try_get::<Pod>(ns, name) else { continue };
            state.process_existing_pod(store, &incoming, existing, node, pod);
        }
    }
    if state.topology_score.is_empty() { None } else { Some(state) }
}

impl ScoreState {
    fn add(&mut self, node: &NodeInfo, term: &AffinityTerm, weight: i64) {
        if let Some(value) = node.labels.get(&term.topology_key) {
            let by_value = self.topology_score.entry(term.topology_key.clone()).or_default();
            *by_value.entry(value.to_string()).or_insert(0) += weight;
        }
    }

    fn process_existing_pod(
        &mut self,
        store: &Store,
        incoming: &[AffinityTerm],
        existing: &Pod,
        node: &NodeInfo,
        pod: &Pod,
    ) {
        for term in incoming {
            if term.matches(&existing.metadata.namespace, &existing.metadata.labels) {
                self.add(node, term, term.weight);
            }
        }
        if !has_any_affinity(existing) {
            return;
        }
        let (ns, labels) = (&pod.metadata.namespace, &pod.metadata.labels);
        let mut terms = required(store, existing, pod_affinity(existing));
        terms.iter_mut().for_each(|t| t.weight = HARD_POD_AFFINITY_WEIGHT);
        terms.extend(preferred(store, existing, pod_affinity(existing), 1));
        terms.extend(preferred(store, existing, pod_anti_affinity(existing), -1));
        for term in &terms {
            if term.matches(ns, labels) {
                self.add(node, term, term.weight);
            }
        }
    }
}

pub fn score(state: &ScoreState, node: &NodeInfo) -> i64 {
    state.topology_score.iter().filter_map(|(key, by_value)| node.labels.get(key).and_then(|v| by_value.get(v))).sum()
}

/// Upstream NormalizeScore: min–max scaled to 0–100 (all 0 when every node scores the same).
pub fn normalize(scores: &mut [i64]) {
    let (Some(&min), Some(&max)) = (scores.iter().min(), scores.iter().max()) else { return };
    let spread = max - min;
    for s in scores.iter_mut() {
        *s = if spread > 0 { (100.0 * ((*s - min) as f64 / spread as f64)) as i64 } else { 0 };
    }
}

pub const PRE_FILTER: PreFilterPlugin = PreFilterPlugin { name: NAME, pre_filter: pre_filter_pod };
/// Any change may satisfy an affinity term or end an anti-affinity conflict.
pub const FILTER: FilterPlugin = FilterPlugin { name: NAME, filter: filter_node, requeue_on: on_any_event };
pub const PRE_SCORE: PreScorePlugin = PreScorePlugin { name: NAME, pre_score: pre_score_nodes };
/// Weight 2; scores only when some affinity term (the pod's or an existing pod's) applies.
pub const SCORE: ScorePlugin =
    ScorePlugin { name: NAME, weight: 2, applies: has_terms, score: score_node, normalize: Some(normalize) };

fn pre_filter_pod(state: &mut CycleState, store: &Store, cache: &Cache) {
    if let Some(found) = pre_filter(store, cache, state.pod) {
        state.states.write(found);
    }
}

fn filter_node(state: &CycleState, node: &NodeInfo, _: &NodeFit) -> Result<(), Status> {
    filter(state.states.read::<PreFilterState>(), node)
}

fn pre_score_nodes(context: &mut ScoreContext, store: &Store, cache: &Cache, _: &[usize]) {
    if let Some(found) = pre_score(store, cache, context.state.pod) {
        context.states.write(found);
    }
}

fn has_terms(context: &ScoreContext) -> bool {
    context.states.read::<ScoreState>().is_some()
}

fn score_node(context: &ScoreContext, node: &NodeInfo, _: &NodeFit) -> i64 {
    context.states.read::<ScoreState>().map_or(0, |state| score(state, node))
}
