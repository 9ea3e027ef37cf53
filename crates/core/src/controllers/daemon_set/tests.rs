//! The DaemonSet controller in a lab of three workers: a pod per node, following nodes as they
//! come, are tainted or relabelled, and a rolling update one node at a time.

use crate::api::{ControllerRevision, DaemonSet, Event, Node, Pod};
use crate::cluster::{ClusterSpec, NodeTemplate};
use crate::controllers::history::CONTROLLER_REVISION_HASH;
use crate::sim::Sim;
use crate::sim::time::Duration;

const AGENT: &str = r#"{"metadata":{"name":"agent","namespace":"default"},"spec":{
  "selector":{"matchLabels":{"app":"agent"}},
  "template":{"metadata":{"labels":{"app":"agent"}},"spec":{"containers":[{"name":"agent","image":"busybox",
    "command":["sleep","3600"]}]}}}}"#;

fn lab() -> Sim {
    let nodes = (1..=3).map(|i| NodeTemplate::named(&format!("node-{i}"))).collect();
    let mut sim = Sim::new(5, &ClusterSpec::workers_only(nodes));
    sim.store_mut().create(serde_json::from_str::<DaemonSet>(AGENT).unwrap()).unwrap();
    sim.settle();
    sim.advance(Duration::from_secs(30));
    sim
}

/// Each live pod as `node image hash`.
fn pods(sim: &Sim) -> Vec<String> {
    let mut rows: Vec<String> = sim
        .store()
        .list::<Pod>(Some("default"))
        .filter(|p| p.metadata.deletion_timestamp.is_none())
        .map(|p| {
            let image = p.spec.containers[0].image.clone().unwrap_or_default();
            format!("{} {image} {}", p.node_name().unwrap_or("-"), p.phase())
        })
        .collect();
    rows.sort();
    rows
}

fn status(sim: &Sim) -> [i32; 5] {
    let s = &sim.store().get::<DaemonSet>("default", "agent").unwrap().status;
    [
        s.desired_number_scheduled,
        s.current_number_scheduled,
        s.number_ready,
        s.updated_number_scheduled,
        s.number_available,
    ]
}

fn edit_node(sim: &mut Sim, name: &str, change: impl FnOnce(&mut Node)) {
    let mut node = sim.store().get::<Node>("", name).unwrap().clone();
    change(&mut node);
    sim.store_mut().update(node).unwrap();
    sim.settle();
    sim.advance(Duration::from_secs(30));
}

#[test]
fn one_running_pod_per_node_with_a_revision_and_events() {
    let sim = lab();
    assert_eq!(pods(&sim), ["node-1 busybox Running", "node-2 busybox Running", "node-3 busybox Running"]);
    assert_eq!(status(&sim), [3, 3, 3, 3, 3]);
    let revisions: Vec<&ControllerRevision> = sim.store().list::<ControllerRevision>(Some("default")).collect();
    assert_eq!(revisions.len(), 1);
    let hash = revisions[0].metadata.labels.get(CONTROLLER_REVISION_HASH).unwrap();
    assert_eq!(revisions[0].metadata.name, format!("agent-{hash}"));
    let pod = sim.store().list::<Pod>(Some("default")).next().unwrap();
    assert_eq!(pod.metadata.labels.get(CONTROLLER_REVISION_HASH), Some(hash));
    assert_eq!(pod.metadata.labels.get("pod-template-generation"), Some("1"));
    let created =
        sim.store().list::<Event>(Some("default")).filter(|e| e.reason.as_deref() == Some("SuccessfulCreate"));
    assert_eq!(created.count(), 3);
}

#[test]
fn a_new_node_gets_a_pod_and_a_no_execute_taint_evicts_it() {
    let mut sim = lab();
    sim.add_node(&NodeTemplate::named("node-4")).unwrap();
    sim.settle();
    sim.advance(Duration::from_secs(30));
    assert_eq!(status(&sim)[..2], [4, 4]);
    let taint =
        |effect: &str| crate::api::node::Taint { key: "dedicated".into(), effect: effect.into(), ..Default::default() };
    edit_node(&mut sim, "node-1", |n| n.spec.taints.push(taint("NoSchedule")));
    assert_eq!(status(&sim)[..2], [3, 3], "the pod stays but is no longer desired");
    assert!(pods(&sim).iter().any(|p| p.starts_with("node-1 ")));
    edit_node(&mut sim, "node-2", |n| n.spec.taints.push(taint("NoExecute")));
    assert!(!pods(&sim).iter().any(|p| p.starts_with("node-2 ")), "{:?}", pods(&sim));
}

#[test]
fn a_node_selector_narrows_the_nodes() {
    let mut sim = lab();
    edit_node(&mut sim, "node-3", |n| {
        n.metadata.labels.insert("disk", "ssd");
    });
    let mut ds = sim.store().get::<DaemonSet>("default", "agent").unwrap().clone();
    ds.spec.template.spec.node_selector.insert("disk", "ssd");
    sim.store_mut().update(ds).unwrap();
    sim.settle();
    sim.advance(Duration::from_secs(120));
    assert_eq!(pods(&sim), ["node-3 busybox Running"]);
    assert_eq!(status(&sim), [1, 1, 1, 1, 1]);
}

#[test]
fn a_rolling_update_replaces_one_node_at_a_time() {
    let mut sim = lab();
    let mut ds = sim.store().get::<DaemonSet>("default", "agent").unwrap().clone();
    ds.spec.template.spec.containers.make_mut()[0].image = Some("busybox:1.36".into());
    sim.store_mut().update(ds).unwrap();
    sim.settle();
    // One old pod is terminating: its node gets the new one once it is gone.
    let mid = pods(&sim);
    assert_eq!(mid.len(), 2, "{mid:?}");
    sim.advance(Duration::from_secs(120));
    assert_eq!(
        pods(&sim),
        ["node-1 busybox:1.36 Running", "node-2 busybox:1.36 Running", "node-3 busybox:1.36 Running"]
    );
    assert_eq!(status(&sim), [3, 3, 3, 3, 3]);
    let ds = sim.store().get::<DaemonSet>("default", "agent").unwrap();
    assert_eq!(ds.metadata.annotations.get("deprecated.daemonset.template.generation"), Some("2"));
    let revisions: Vec<i64> = sim.store().list::<ControllerRevision>(Some("default")).map(|r| r.revision).collect();
    assert_eq!(revisions.len(), 2);
}
