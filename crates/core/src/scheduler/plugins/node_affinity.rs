//! NodeAffinity: `spec.nodeSelector` and required node affinity must match the node's labels;
//! preferred terms add their weights to its score. Mirrors plugins/nodeaffinity and
//! component-helpers' nodeaffinity (`GetRequiredNodeAffinity`, `NodeSelectorRequirementsAsSelector`).

use crate::api::Pod;
use crate::api::affinity::{NodeSelector, NodeSelectorRequirement, NodeSelectorTerm};
use crate::api::string_map::StringMap;
use crate::scheduler::framework::cache::Cache;
use crate::scheduler::framework::cluster_event::on_node_events;
use crate::scheduler::framework::cycle_state::CycleState;
use crate::scheduler::framework::node_fit::NodeFit;
use crate::scheduler::framework::registry::PreFilterPlugin;
use crate::scheduler::framework::registry::{FilterPlugin, PreScorePlugin, ScoreContext, ScorePlugin};
use crate::scheduler::framework::status::Status;
use crate::scheduler::framework::types::NodeInfo;
use crate::store::Store;

pub const NAME: &str = "NodeAffinity";
pub const ERR_REASON_POD: &str = "node(s) didn't match Pod's node affinity/selector";

/// Whether the pod constrains nodes at all (nodeSelector or required node affinity).
pub fn has_required(pod: &Pod) -> bool {
    !pod.spec.node_selector.is_empty() || required_terms(pod).is_some()
}

fn required_terms(pod: &Pod) -> Option<&NodeSelector> {
    pod.spec.affinity.as_ref()?.node_affinity.as_ref()?.required_during_scheduling_ignored_during_execution.as_ref()
}

/// Upstream `RequiredNodeAffinity.Match`: nodeSelector entries, then any one required term.
pub fn matches_required(pod: &Pod, node_name: &str, labels: &StringMap) -> bool {
    if !labels.contains_all(&pod.spec.node_selector) {
        return false;
    }
    match required_terms(pod) {
        None => true,
        Some(selector) => selector.node_selector_terms.iter().any(|term| term_matches(term, node_name, labels)),
    }
}

/// A term matches when it has at least one requirement and all of them hold; `matchFields`
/// knows only `metadata.name`.
pub fn term_matches(term: &NodeSelectorTerm, node_name: &str, labels: &StringMap) -> bool {
    if term.match_expressions.is_empty() && term.match_fields.is_empty() {
        return false;
    }
    let expressions = term.match_expressions.iter().all(|r| requirement_matches(r, labels.get(&r.key)));
    let fields = term.match_fields.iter().all(|r| r.key == "metadata.name" && requirement_matches(r, Some(node_name)));
    expressions && fields
}

fn requirement_matches(r: &NodeSelectorRequirement, value: Option<&str>) -> bool {
    let integer = |s: &str| s.parse::<i64>().ok();
    let bound = || if r.values.len() == 1 { integer(&r.values[0]) } else { None };
    match r.operator.as_str() {
        "In" => value.is_some_and(|v| r.values.iter().any(|x| x == v)),
        "NotIn" => value.is_none_or(|v| !r.values.iter().any(|x| x == v)),
        "Exists" => value.is_some(),
        "DoesNotExist" => value.is_none(),
        "Gt" => matches!((value.and_then(integer), bound()), (Some(v), Some(b)) if v > b),
        "Lt" => matches!((value.and_then(integer), bound()), (Some(v), Some(b)) if v < b),
        _ => false,
    }
}

/// PreFilter's finding: the pod has required node affinity (or a nodeSelector) to check.
struct RequiredAffinity;

/// PreScore's finding: the pod has preferred node affinity to score.
struct PreferredAffinity;

pub fn filter(state: &CycleState, node: &NodeInfo) -> Result<(), Status> {
    let required = state.states.read::<RequiredAffinity>().is_some();
    if !required || matches_required(state.pod, &node.name, &node.labels) {
        Ok(())
    } else {
        Err(Status::unresolvable(NAME, ERR_REASON_POD))
    }
}

/// Whether scoring has anything to do (PreScore's Skip otherwise).
pub fn has_preferred(pod: &Pod) -> bool {
    let affinity = pod.spec.affinity.as_ref().and_then(|a| a.node_affinity.as_ref());
    affinity.is_some_and(|a| !a.preferred_during_scheduling_ignored_during_execution.is_empty())
}

/// The sum of the weights of the preferred terms the node matches.
pub fn score(state: &CycleState, node: &NodeInfo) -> i64 {
    let Some(affinity) = state.pod.spec.affinity.as_ref().and_then(|a| a.node_affinity.as_ref()) else { return 0 };
    affinity
        .preferred_during_scheduling_ignored_during_execution
        .iter()
        .filter(|p| p.weight != 0 && term_matches(&p.preference, &node.name, &node.labels))
        .map(|p| i64::from(p.weight))
        .sum()
}

pub const PRE_FILTER: PreFilterPlugin = PreFilterPlugin { name: NAME, pre_filter };
/// Only a node's labels can come to match.
pub const FILTER: FilterPlugin = FilterPlugin { name: NAME, filter: filter_node, requeue_on: on_node_events };
pub const PRE_SCORE: PreScorePlugin = PreScorePlugin { name: NAME, pre_score };
/// Weight 2; scores only pods with preferred node affinity.
pub const SCORE: ScorePlugin =
    ScorePlugin { name: NAME, weight: 2, applies: has_preferences, score: score_node, normalize: Some(normalize) };

fn filter_node(state: &CycleState, node: &NodeInfo, _: &NodeFit) -> Result<(), Status> {
    filter(state, node)
}

fn pre_filter(state: &mut CycleState, _: &Store, _: &Cache) {
    if has_required(state.pod) {
        state.states.write(RequiredAffinity);
    }
}

fn pre_score(context: &mut ScoreContext, _: &Store, _: &Cache, _: &[usize]) {
    if has_preferred(context.state.pod) {
        context.states.write(PreferredAffinity);
    }
}

fn has_preferences(context: &ScoreContext) -> bool {
    context.states.read::<PreferredAffinity>().is_some()
}

fn score_node(context: &ScoreContext, node: &NodeInfo, _: &NodeFit) -> i64 {
    score(context.state, node)
}

fn normalize(scores: &mut [i64]) {
    super::helper::default_normalize_score(scores, false);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn requirement(key: &str, operator: &str, values: &[&str]) -> NodeSelectorRequirement {
        NodeSelectorRequirement {
            key: key.into(),
            operator: operator.into(),
            values: values.iter().map(|v| v.to_string()).collect(),
        }
    }

    #[test]
    fn operators_match_as_upstream() {
        let mut labels = StringMap::new();
        labels.insert("zone", "a");
        labels.insert("cores", "8");
        let term =
            |reqs: Vec<NodeSelectorRequirement>| NodeSelectorTerm { match_expressions: reqs, match_fields: vec![] };
        assert!(term_matches(&term(vec![requirement("zone", "In", &["a", "b"])]), "n", &labels));
        assert!(term_matches(&term(vec![requirement("disk", "NotIn", &["ssd"])]), "n", &labels));
        assert!(term_matches(&term(vec![requirement("cores", "Gt", &["4"])]), "n", &labels));
        assert!(!term_matches(&term(vec![requirement("cores", "Lt", &["4"])]), "n", &labels));
        assert!(!term_matches(&term(vec![requirement("zone", "DoesNotExist", &[])]), "n", &labels));
        assert!(!term_matches(&term(vec![]), "n", &labels), "an empty term matches nothing");
        let by_name = NodeSelectorTerm {
            match_expressions: vec![],
            match_fields: vec![requirement("metadata.name", "In", &["n"])],
        };
        assert!(term_matches(&by_name, "n", &labels));
    }
}
