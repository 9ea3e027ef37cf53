//! TaintToleration: a node's NoSchedule/NoExecute taints must be tolerated; fewer untolerated
//! PreferNoSchedule taints score higher. Mirrors pkg/scheduler/framework/plugins/tainttoleration
//! and the matching rules of core/v1 `Toleration.ToleratesTaint`.

use crate::api::affinity::Toleration;
use crate::api::node::Taint;
use crate::scheduler::framework::cluster_event::on_node_events;
use crate::scheduler::framework::cycle_state::CycleState;
use crate::scheduler::framework::node_fit::NodeFit;
use crate::scheduler::framework::registry::{FilterPlugin, ScoreContext, ScorePlugin, always};
use crate::scheduler::framework::status::Status;
use crate::scheduler::framework::types::NodeInfo;

pub const NAME: &str = "TaintToleration";

/// Upstream `ToleratesTaint`: empty effect matches every effect, empty key (with Exists) every
/// key; operator "" means Equal, which compares values; Exists ignores them.
pub fn tolerates(toleration: &Toleration, taint: &Taint) -> bool {
    let effect = toleration.effect.as_deref().unwrap_or("");
    if !effect.is_empty() && effect != taint.effect {
        return false;
    }
    let key = toleration.key.as_deref().unwrap_or("");
    if !key.is_empty() && key != taint.key {
        return false;
    }
    match toleration.operator.as_deref().unwrap_or("") {
        "" | "Equal" => toleration.value.as_deref().unwrap_or("") == taint.value.as_deref().unwrap_or(""),
        "Exists" => true,
        _ => false,
    }
}

/// Upstream `TolerationsTolerateTaint`.
pub fn tolerations_tolerate_taint(tolerations: &[Toleration], taint: &Taint) -> bool {
    tolerations.iter().any(|t| tolerates(t, taint))
}

/// Upstream `FindMatchingUntoleratedTaint` with `DoNotScheduleTaintsFilterFunc`.
pub fn find_untolerated_taint<'a>(taints: &'a [Taint], tolerations: &[Toleration]) -> Option<&'a Taint> {
    taints
        .iter()
        .filter(|t| t.effect == "NoSchedule" || t.effect == "NoExecute")
        .find(|t| !tolerations_tolerate_taint(tolerations, t))
}

pub fn filter(state: &CycleState, node: &NodeInfo, fit: &NodeFit) -> Result<(), Status> {
    if !fit.tainted {
        return Ok(());
    }
    match find_untolerated_taint(&node.taints, &state.pod.spec.tolerations) {
        None => Ok(()),
        Some(taint) => {
            let value = taint.value.as_deref().unwrap_or("");
            Err(Status::unresolvable(NAME, format!("node(s) had untolerated taint {{{}: {value}}}", taint.key)))
        }
    }
}

/// How many PreferNoSchedule taints the pod does not tolerate (lower is better).
pub fn score(state: &CycleState, node: &NodeInfo, fit: &NodeFit) -> i64 {
    if !fit.tainted {
        return 0;
    }
    let prefer: Vec<&Toleration> = state
        .pod
        .spec
        .tolerations
        .iter()
        .filter(|t| matches!(t.effect.as_deref().unwrap_or(""), "" | "PreferNoSchedule"))
        .collect();
    let untolerated = node
        .taints
        .iter()
        .filter(|taint| taint.effect == "PreferNoSchedule")
        .filter(|taint| !prefer.iter().any(|t| tolerates(t, taint)))
        .count();
    untolerated as i64
}

pub const FILTER: FilterPlugin = FilterPlugin { name: NAME, filter, requeue_on: on_node_events };

/// Weight 3; fewer intolerable PreferNoSchedule taints score higher (normalized reversed).
pub const SCORE: ScorePlugin =
    ScorePlugin { name: NAME, weight: 3, applies: always, score: score_node, normalize: Some(normalize) };

fn score_node(context: &ScoreContext, node: &NodeInfo, fit: &NodeFit) -> i64 {
    score(context.state, node, fit)
}

fn normalize(scores: &mut [i64]) {
    super::helper::default_normalize_score(scores, true);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn taint(key: &str, value: Option<&str>, effect: &str) -> Taint {
        Taint { key: key.into(), value: value.map(str::to_string), effect: effect.into(), time_added: None }
    }

    fn toleration(key: &str, operator: &str, value: &str, effect: &str) -> Toleration {
        let some = |s: &str| (!s.is_empty()).then(|| s.to_string());
        Toleration {
            key: some(key),
            operator: some(operator),
            value: some(value),
            effect: some(effect),
            ..Default::default()
        }
    }

    #[test]
    fn toleration_matching_follows_core_v1() {
        let gpu = taint("gpu", Some("true"), "NoSchedule");
        assert!(tolerates(&toleration("gpu", "Equal", "true", "NoSchedule"), &gpu));
        assert!(tolerates(&toleration("gpu", "", "true", ""), &gpu), "empty operator is Equal, empty effect all");
        assert!(!tolerates(&toleration("gpu", "Equal", "false", ""), &gpu));
        assert!(tolerates(&toleration("gpu", "Exists", "", ""), &gpu));
        assert!(tolerates(&toleration("", "Exists", "", ""), &gpu), "empty key with Exists tolerates everything");
        assert!(!tolerates(&toleration("gpu", "Exists", "", "NoExecute"), &gpu));
    }

    #[test]
    fn only_no_schedule_and_no_execute_taints_block() {
        let taints = [taint("a", None, "PreferNoSchedule"), taint("b", Some("x"), "NoExecute")];
        assert_eq!(find_untolerated_taint(&taints, &[]).map(|t| t.key.as_str()), Some("b"));
        assert!(find_untolerated_taint(&taints, &[toleration("b", "Exists", "", "")]).is_none());
    }
}
