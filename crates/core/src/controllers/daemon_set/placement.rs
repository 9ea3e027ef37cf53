//! Which nodes a DaemonSet's pod belongs on, and the pod it makes for one: upstream's
//! `NodeShouldRunDaemonPod` and `predicates` (pkg/controller/daemon/daemon_controller.go) and
//! daemon/util's `AddOrUpdateDaemonPodTolerations`, `CreatePodTemplate` and
//! `ReplaceDaemonSetPodNodeNameNodeAffinity`.

use crate::api::affinity::{
    Affinity, NodeAffinity, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, Toleration,
};
use crate::api::pod::{PodSpec, PodTemplateSpec};
use crate::api::shared::Shared;
use crate::api::{DaemonSet, Node, Pod};
use crate::controllers::history::CONTROLLER_REVISION_HASH;
use crate::scheduler::plugins::node_affinity::matches_required;
use crate::scheduler::plugins::taint_toleration::{find_untolerated_taint, tolerations_tolerate_taint};

/// The label carrying the DaemonSet's template generation on each pod
/// (`extensions.DaemonSetTemplateGenerationKey`).
pub const POD_TEMPLATE_GENERATION: &str = "pod-template-generation";

/// What `NodeShouldRunDaemonPod` answers for a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// A pod should be made here.
    pub should_run: bool,
    /// A pod already here may stay (a NoSchedule taint added later does not evict it).
    pub should_continue_running: bool,
}

/// `NodeShouldRunDaemonPod`: the template's nodeName, then node selector and required node
/// affinity, then the node's taints against the pod's tolerations (with the ones the
/// controller adds); only an untolerated NoExecute taint makes a running pod go.
pub fn node_should_run(node: &Node, ds: &DaemonSet) -> Verdict {
    let no = Verdict { should_run: false, should_continue_running: false };
    let spec = &ds.spec.template.spec;
    if spec.node_name.as_deref().is_some_and(|n| !n.is_empty() && n != node.metadata.name) {
        return no;
    }
    let pod = new_pod(ds, &node.metadata.name);
    if !matches_required(&pod, &node.metadata.name, &node.metadata.labels) {
        return no;
    }
    let taints = &node.spec.taints;
    if find_untolerated_taint(taints, &pod.spec.tolerations).is_none() {
        return Verdict { should_run: true, should_continue_running: true };
    }
    let evicting = taints.iter().filter(|t| t.effect == "NoExecute");
    let untolerated_no_execute = evicting.clone().any(|t| !tolerations_tolerate_taint(&pod.spec.tolerations, t));
    Verdict { should_run: false, should_continue_running: !untolerated_no_execute }
}

/// `NewPod`: the template as a pod on `node`, with the controller's tolerations.
fn new_pod(ds: &DaemonSet, node: &str) -> Pod {
    let mut spec = ds.spec.template.spec.clone();
    spec.node_name = Some(node.to_string());
    add_daemon_pod_tolerations(&mut spec);
    Pod { spec, ..Default::default() }
}

/// `AddOrUpdateDaemonPodTolerations`: a daemon pod stays on a node that is not ready or
/// unreachable, and lands on one under pressure or cordoned (and, on the host's network, one
/// whose network is not ready yet).
pub fn add_daemon_pod_tolerations(spec: &mut PodSpec) {
    let mut wanted = vec![
        ("node.kubernetes.io/not-ready", "NoExecute"),
        ("node.kubernetes.io/unreachable", "NoExecute"),
        ("node.kubernetes.io/disk-pressure", "NoSchedule"),
        ("node.kubernetes.io/memory-pressure", "NoSchedule"),
        ("node.kubernetes.io/pid-pressure", "NoSchedule"),
        ("node.kubernetes.io/unschedulable", "NoSchedule"),
    ];
    if spec.host_network == Some(true) {
        wanted.push(("node.kubernetes.io/network-unavailable", "NoSchedule"));
    }
    for (key, effect) in wanted {
        let toleration = Toleration {
            key: Some(key.to_string()),
            operator: Some("Exists".to_string()),
            effect: Some(effect.to_string()),
            ..Default::default()
        };
        add_or_update_toleration(spec, toleration);
    }
}

/// `AddOrUpdateTolerationInPodSpec`: one with the same key, operator, value and effect is
/// replaced; otherwise the toleration is appended.
fn add_or_update_toleration(spec: &mut PodSpec, toleration: Toleration) {
    let same = |t: &Toleration| {
        t.key == toleration.key
            && t.effect == toleration.effect
            && t.operator.as_deref().unwrap_or("Equal") == toleration.operator.as_deref().unwrap_or("Equal")
            && t.value.as_deref().unwrap_or("") == toleration.value.as_deref().unwrap_or("")
    };
    let tolerations = spec.tolerations.make_mut();
    match tolerations.iter_mut().find(|t| same(t)) {
        Some(existing) => *existing = toleration,
        None => tolerations.push(toleration),
    }
}

/// `CreatePodTemplate`: the template with the generation and revision hash labels and the
/// controller's tolerations.
pub fn pod_template(ds: &DaemonSet, generation: Option<i64>, hash: &str) -> PodTemplateSpec {
    let mut template = ds.spec.template.clone();
    add_daemon_pod_tolerations(&mut template.spec);
    if let Some(generation) = generation {
        template.metadata.labels.insert(POD_TEMPLATE_GENERATION, generation.to_string());
    }
    if !hash.is_empty() {
        template.metadata.labels.insert(CONTROLLER_REVISION_HASH, hash);
    }
    template
}

/// `ReplaceDaemonSetPodNodeNameNodeAffinity`: the pod's required node affinity becomes one term
/// naming the node (`matchFields metadata.name In [node]`), so the scheduler binds it there.
pub fn pin_to_node(spec: &mut PodSpec, node: &str) {
    let selector = NodeSelector {
        node_selector_terms: vec![NodeSelectorTerm {
            match_fields: vec![NodeSelectorRequirement {
                key: "metadata.name".to_string(),
                operator: "In".to_string(),
                values: vec![node.to_string()],
            }],
            ..Default::default()
        }],
    };
    let affinity = spec.affinity.get_or_insert_with(|| Shared::new(Affinity::default())).make_mut();
    let node_affinity = affinity.node_affinity.get_or_insert_with(NodeAffinity::default);
    node_affinity.required_during_scheduling_ignored_during_execution = Some(selector);
}

/// `GetTargetNodeName`: the node a pod is bound to, or the one its node affinity pins it to.
pub fn target_node(pod: &Pod) -> Option<&str> {
    if let Some(node) = pod.node_name() {
        return Some(node);
    }
    let required = pod.spec.affinity.as_ref()?.node_affinity.as_ref()?;
    let terms = &required.required_during_scheduling_ignored_during_execution.as_ref()?.node_selector_terms;
    let field = terms.first()?.match_fields.first()?;
    (field.key == "metadata.name" && field.operator == "In" && field.values.len() == 1)
        .then(|| field.values[0].as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::node::Taint;

    fn ds(yaml_spec: serde_json::Value) -> DaemonSet {
        serde_json::from_value(serde_json::json!({
            "metadata": {"name": "agent", "namespace": "default"},
            "spec": {"selector": {"matchLabels": {"app": "agent"}},
                "template": {"metadata": {"labels": {"app": "agent"}}, "spec": yaml_spec}}
        }))
        .unwrap()
    }

    fn node(name: &str, labels: &[(&str, &str)], taints: &[(&str, &str)]) -> Node {
        let mut node = Node::default();
        node.metadata.name = name.to_string();
        node.metadata.labels = labels.iter().copied().collect();
        node.spec.taints = taints
            .iter()
            .map(|(k, e)| Taint { key: k.to_string(), effect: e.to_string(), ..Default::default() })
            .collect();
        node
    }

    #[test]
    fn a_no_schedule_taint_keeps_the_pod_a_no_execute_taint_evicts_it() {
        let ds = ds(serde_json::json!({"containers": [{"name": "a", "image": "busybox"}]}));
        let plain = node("n1", &[], &[]);
        let no_schedule = node("n2", &[], &[("dedicated", "NoSchedule")]);
        let no_execute = node("n3", &[], &[("dedicated", "NoExecute")]);
        let cordoned = node("n4", &[], &[("node.kubernetes.io/unschedulable", "NoSchedule")]);
        let verdicts: Vec<(bool, bool)> = [plain, no_schedule, no_execute, cordoned]
            .iter()
            .map(|n| node_should_run(n, &ds))
            .map(|v| (v.should_run, v.should_continue_running))
            .collect();
        assert_eq!(verdicts, [(true, true), (false, true), (false, false), (true, true)]);
    }

    #[test]
    fn the_node_selector_narrows_the_nodes() {
        let ds = ds(serde_json::json!({"nodeSelector": {"disk": "ssd"}, "containers": [{"name": "a"}]}));
        assert!(node_should_run(&node("n1", &[("disk", "ssd")], &[]), &ds).should_run);
        assert_eq!(
            node_should_run(&node("n2", &[], &[]), &ds),
            Verdict { should_run: false, should_continue_running: false }
        );
    }

    #[test]
    fn the_pod_is_pinned_and_tolerates_what_upstream_adds() {
        let ds = ds(serde_json::json!({"hostNetwork": true, "tolerations": [{"operator": "Exists"}],
            "containers": [{"name": "a"}]}));
        let mut template = pod_template(&ds, Some(2), "abc");
        pin_to_node(&mut template.spec, "worker-1");
        assert_eq!(template.metadata.labels.get(POD_TEMPLATE_GENERATION), Some("2"));
        assert_eq!(template.metadata.labels.get(CONTROLLER_REVISION_HASH), Some("abc"));
        let keys: Vec<&str> = template.spec.tolerations.iter().map(|t| t.key.as_deref().unwrap_or("")).collect();
        assert_eq!(keys.len(), 8, "{keys:?}");
        assert_eq!(keys.last(), Some(&"node.kubernetes.io/network-unavailable"));
        let pod = Pod { spec: template.spec, ..Default::default() };
        assert_eq!(target_node(&pod), Some("worker-1"));
    }
}
