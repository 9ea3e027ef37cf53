//! The scheduler as a learner meets it: where pods land, and the exact words when they cannot.

use super::*;
use crate::api::affinity::{Affinity, PodAffinity, PodAffinityTerm, TopologySpreadConstraint};
use crate::api::container::Container;
use crate::api::label_selector::LabelSelector;
use crate::api::node::Taint;
use crate::api::quantity::Quantity;
use crate::api::shared::Shared;
use crate::api::{Event, Node, ObjectMeta};
use crate::cluster::{ClusterSpec, NodeTemplate, node_from_template};
use crate::sim::Sim;
use crate::sim::time::Duration;

fn pod(name: &str, cpu: &str, memory: &str) -> Pod {
    let mut container = Container { name: "app".into(), image: Some("nginx:1.27".into()), ..Default::default() };
    if !cpu.is_empty() {
        container.resources.requests.insert("cpu".into(), Quantity::parse(cpu).unwrap());
    }
    if !memory.is_empty() {
        container.resources.requests.insert("memory".into(), Quantity::parse(memory).unwrap());
    }
    let mut pod = Pod { metadata: ObjectMeta::named("default", name), ..Default::default() };
    pod.metadata.labels.insert("app", "web");
    pod.spec.containers = Shared::new(vec![container]);
    pod
}

fn on_node(mut p: Pod, node: &str) -> Pod {
    p.spec.node_name = Some(node.into());
    p
}

fn cluster() -> Sim {
    Sim::new(1, &ClusterSpec::default_workers())
}

fn node_of(sim: &Sim, name: &str) -> Option<String> {
    sim.store().get::<Pod>("default", name).unwrap().node_name().map(str::to_string)
}

fn events(sim: &Sim, pod: &str, reason: &str) -> Vec<(String, i32)> {
    sim.store()
        .list::<Event>(Some("default"))
        .filter(|e| e.involved_object.name.as_deref() == Some(pod) && e.reason.as_deref() == Some(reason))
        .map(|e| (e.message.clone().unwrap_or_default(), e.count.unwrap_or(0)))
        .collect()
}

fn failed_message(sim: &Sim, pod: &str) -> String {
    events(sim, pod, "FailedScheduling").pop().map(|(m, _)| m).unwrap_or_default()
}

fn edit_node(sim: &mut Sim, name: &str, edit: impl FnOnce(&mut Node)) {
    let mut node = sim.store().get::<Node>("", name).unwrap().clone();
    edit(&mut node);
    sim.store_mut().update(node).unwrap();
}

/// Each node already runs a 3-CPU pod of priority 0.
fn fill_nodes(sim: &mut Sim) {
    for i in 1..=3 {
        sim.store_mut().create(on_node(pod(&format!("big-{i}"), "3", ""), &format!("node-{i}"))).unwrap();
    }
}

#[test]
fn a_pod_is_bound_with_a_scheduled_event() {
    let mut sim = cluster();
    let mut scheduler = Scheduler::default();
    sim.store_mut().create(pod("hello", "100m", "128Mi")).unwrap();
    scheduler.sync(sim.store_mut());
    let node = node_of(&sim, "hello").expect("bound");
    let scheduled = events(&sim, "hello", "Scheduled");
    assert_eq!(scheduled, vec![(format!("Successfully assigned default/hello to {node}"), 1)]);
    let condition = sim.store().get::<Pod>("default", "hello").unwrap().status.conditions[0].clone();
    assert_eq!((condition.type_.as_str(), condition.status.as_str()), ("PodScheduled", "True"));
    let decision = scheduler.decision("default", "hello").unwrap();
    assert_eq!(decision.outcome, Outcome::Bound { node });
    assert_eq!(decision.nodes.len(), 3);
    let scores = decision.nodes[0].scores.as_ref().unwrap();
    assert_eq!(scores.by_plugin(&decision.score_weights).next(), Some(("TaintToleration", 3, 100)));
}

#[test]
fn insufficient_cpu_everywhere_with_no_victims() {
    let mut sim = cluster();
    fill_nodes(&mut sim);
    sim.store_mut().create(pod("hungry", "2", "")).unwrap();
    Scheduler::default().sync(sim.store_mut());
    assert_eq!(node_of(&sim, "hungry"), None);
    assert_eq!(
        failed_message(&sim, "hungry"),
        "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: \
         3 No preemption victims found for incoming pod."
    );
    let pod = sim.store().get::<Pod>("default", "hungry").unwrap();
    let condition = pod.status.conditions.iter().find(|c| c.type_ == "PodScheduled").unwrap();
    assert_eq!((condition.status.as_str(), condition.reason.as_deref()), ("False", Some("Unschedulable")));
}

#[test]
fn a_request_larger_than_any_node_is_unresolvable() {
    let mut sim = cluster();
    sim.store_mut().create(pod("huge", "5", "")).unwrap();
    Scheduler::default().sync(sim.store_mut());
    assert_eq!(
        failed_message(&sim, "huge"),
        "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: \
         3 Preemption is not helpful for scheduling."
    );
}

#[test]
fn mixed_reasons_are_counted_and_sorted() {
    let mut sim = cluster();
    fill_nodes(&mut sim);
    edit_node(&mut sim, "node-1", |n| {
        n.spec.taints.push(Taint {
            key: "node-role.kubernetes.io/control-plane".into(),
            value: None,
            effect: "NoSchedule".into(),
            time_added: None,
        })
    });
    sim.store_mut().create(pod("hungry", "2", "")).unwrap();
    Scheduler::default().sync(sim.store_mut());
    assert_eq!(
        failed_message(&sim, "hungry"),
        "0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, \
         2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, \
         2 No preemption victims found for incoming pod."
    );
}

#[test]
fn extended_resources_and_pod_count_are_checked() {
    let mut sim = cluster();
    let mut gpu = pod("trainer", "", "");
    Shared::make_mut(&mut gpu.spec.containers)[0]
        .resources
        .requests
        .insert("nvidia.com/gpu".into(), Quantity::parse("1").unwrap());
    assert_eq!(
        Scheduler::check_node(sim.store(), &gpu, "node-1"),
        Err(vec!["Insufficient nvidia.com/gpu".to_string()])
    );
    let mut tiny = NodeTemplate::named("tiny");
    tiny.pods = 1;
    let now = sim.now();
    sim.store_mut().create(node_from_template(&tiny, 9, now)).unwrap();
    sim.store_mut().create(on_node(pod("first", "", ""), "tiny")).unwrap();
    assert_eq!(Scheduler::check_node(sim.store(), &pod("p", "", ""), "tiny"), Err(vec!["Too many pods".to_string()]));
}

#[test]
fn the_least_allocated_node_wins() {
    let mut sim = cluster();
    sim.store_mut().create(on_node(pod("a", "2", "4Gi"), "node-1")).unwrap();
    sim.store_mut().create(on_node(pod("b", "1", "2Gi"), "node-2")).unwrap();
    sim.store_mut().create(pod("next", "500m", "1Gi")).unwrap();
    Scheduler::default().sync(sim.store_mut());
    assert_eq!(node_of(&sim, "next").as_deref(), Some("node-3"));
}

#[test]
fn replicas_behind_a_service_spread_across_nodes() {
    let mut sim = cluster();
    let mut service = crate::api::Service { metadata: ObjectMeta::named("default", "web"), ..Default::default() };
    service.spec.selector.insert("app", "web");
    service.spec.ports.push(crate::api::service::ServicePort { port: 80, ..Default::default() });
    sim.store_mut().create(service).unwrap();
    for i in 0..6 {
        sim.store_mut().create(pod(&format!("web-{i}"), "", "")).unwrap();
    }
    Scheduler::default().sync(sim.store_mut());
    let mut per_node = BTreeMap::new();
    for i in 0..6 {
        *per_node.entry(node_of(&sim, &format!("web-{i}")).unwrap()).or_insert(0) += 1;
    }
    assert_eq!(per_node.values().copied().collect::<Vec<_>>(), [2, 2, 2]);
}

#[test]
fn cordoned_nodes_are_skipped() {
    let mut sim = cluster();
    for name in ["node-1", "node-2"] {
        edit_node(&mut sim, name, |n| n.spec.unschedulable = Some(true));
    }
    sim.store_mut().create(pod("web", "", "")).unwrap();
    Scheduler::default().sync(sim.store_mut());
    assert_eq!(node_of(&sim, "web").as_deref(), Some("node-3"));
    let refused = Scheduler::check_node(sim.store(), &pod("other", "", ""), "node-1");
    assert_eq!(refused, Err(vec!["node(s) were unschedulable".to_string()]));
}

#[test]
fn node_selector_picks_the_zone() {
    let mut sim = cluster();
    let mut in_b = pod("in-b", "", "");
    in_b.spec.node_selector.insert("topology.kubernetes.io/zone", "zone-b");
    let mut nowhere = pod("nowhere", "", "");
    nowhere.spec.node_selector.insert("disktype", "ssd");
    sim.store_mut().create(in_b).unwrap();
    sim.store_mut().create(nowhere).unwrap();
    Scheduler::default().sync(sim.store_mut());
    assert_eq!(node_of(&sim, "in-b").as_deref(), Some("node-2"));
    assert_eq!(
        failed_message(&sim, "nowhere"),
        "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. preemption: \
         0/3 nodes are available: 3 Preemption is not helpful for scheduling."
    );
}

fn selector_app_web() -> LabelSelector {
    let mut selector = LabelSelector::default();
    selector.match_labels.insert("app", "web");
    selector
}

#[test]
fn required_anti_affinity_places_one_per_node() {
    let mut sim = cluster();
    for i in 0..4 {
        let mut p = pod(&format!("web-{i}"), "", "");
        let term = PodAffinityTerm {
            label_selector: Some(selector_app_web()),
            topology_key: "kubernetes.io/hostname".into(),
            ..Default::default()
        };
        let anti =
            PodAffinity { required_during_scheduling_ignored_during_execution: vec![term], ..Default::default() };
        p.spec.affinity = Some(Shared::new(Affinity { pod_anti_affinity: Some(anti), ..Default::default() }));
        sim.store_mut().create(p).unwrap();
    }
    Scheduler::default().sync(sim.store_mut());
    let nodes: BTreeSet<String> = (0..3).filter_map(|i| node_of(&sim, &format!("web-{i}"))).collect();
    assert_eq!(nodes.len(), 3, "one per node");
    assert_eq!(node_of(&sim, "web-3"), None);
    assert_eq!(
        failed_message(&sim, "web-3"),
        "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules. preemption: \
         0/3 nodes are available: 3 No preemption victims found for incoming pod."
    );
}

fn spread_over(key: &str) -> Shared<Vec<TopologySpreadConstraint>> {
    Shared::new(vec![TopologySpreadConstraint {
        max_skew: 1,
        topology_key: key.into(),
        when_unsatisfiable: "DoNotSchedule".into(),
        label_selector: Some(selector_app_web()),
        ..Default::default()
    }])
}

#[test]
fn topology_spread_keeps_zones_within_max_skew() {
    let mut sim = cluster();
    sim.store_mut().create(on_node(pod("old-1", "", ""), "node-1")).unwrap();
    sim.store_mut().create(on_node(pod("old-2", "", ""), "node-1")).unwrap();
    let mut spread = pod("spread", "", "");
    spread.spec.topology_spread_constraints = spread_over("topology.kubernetes.io/zone");
    let skewed = Scheduler::check_node(sim.store(), &spread, "node-1");
    assert_eq!(skewed, Err(vec!["node(s) didn't match pod topology spread constraints".to_string()]));
    assert_eq!(Scheduler::check_node(sim.store(), &spread, "node-2"), Ok(()));
    for i in 0..4 {
        let mut p = pod(&format!("s-{i}"), "", "");
        p.spec.topology_spread_constraints = spread_over("topology.kubernetes.io/zone");
        sim.store_mut().create(p).unwrap();
    }
    Scheduler::default().sync(sim.store_mut());
    let in_zone_a = (0..4).filter(|i| node_of(&sim, &format!("s-{i}")).as_deref() == Some("node-1")).count();
    assert_eq!(in_zone_a, 0, "zones b and c catch up to a's two pods first");
    let mut rack = pod("rack", "", "");
    rack.spec.topology_spread_constraints = spread_over("rack");
    let missing = Scheduler::check_node(sim.store(), &rack, "node-1");
    assert_eq!(
        missing,
        Err(vec!["node(s) didn't match pod topology spread constraints (missing required label)".into()])
    );
}

#[test]
fn a_higher_priority_pod_preempts_a_lower_one() {
    let mut sim = cluster();
    fill_nodes(&mut sim);
    let high = crate::api::PriorityClass { metadata: ObjectMeta::named("", "high"), value: 1000, ..Default::default() };
    sim.store_mut().create(high).unwrap();
    let mut important = pod("important", "2", "");
    important.spec.priority_class_name = Some("high".into());
    sim.store_mut().create(important).unwrap();
    let mut scheduler = Scheduler::default();
    scheduler.sync(sim.store_mut());
    let Some(Decision { outcome: Outcome::Nominated { node, victims }, .. }) =
        scheduler.decision("default", "important").cloned()
    else {
        panic!("expected a nomination: {:?}", scheduler.decision("default", "important"));
    };
    assert_eq!(victims.len(), 1);
    let victim = victims[0].trim_start_matches("default/").to_string();
    assert_eq!(node_of(&sim, &victim).as_deref(), Some(node.as_str()));
    let stored = sim.store().get::<Pod>("default", "important").unwrap();
    assert_eq!(stored.status.nominated_node_name.as_deref(), Some(node.as_str()));
    let uid = stored.metadata.uid;
    assert_eq!(events(&sim, &victim, "Preempted"), vec![(format!("Preempted by pod {uid} on node {node}"), 1)]);
    assert!(sim.store().get::<Pod>("default", &victim).unwrap().metadata.deletion_timestamp.is_some());
    // The victim's grace period ends; the pod gets the room it was nominated for.
    let force = DeleteOptions { grace_period_seconds: Some(0), ..Default::default() };
    sim.store_mut().delete::<Pod>("default", &victim, &force).unwrap();
    let later = sim.store().now().plus(Duration::from_secs(2));
    sim.store_mut().set_now(later);
    scheduler.sync(sim.store_mut());
    assert_eq!(node_of(&sim, "important"), Some(node));
}

#[test]
fn a_pending_pod_is_bound_once_a_node_is_added() {
    let mut sim = cluster();
    let mut scheduler = Scheduler::default();
    sim.store_mut().create(pod("big", "6", "")).unwrap();
    scheduler.sync(sim.store_mut());
    assert_eq!(node_of(&sim, "big"), None);
    let start = sim.store().now();
    assert_eq!(scheduler.next_wake(), Some(crate::sim::time::SimTime(330_000)), "the first 30s flush after 5 minutes");
    let mut large = NodeTemplate::named("node-4");
    large.cpu = Quantity::parse("8").unwrap();
    sim.store_mut().create(node_from_template(&large, 3, start)).unwrap();
    scheduler.sync(sim.store_mut());
    assert_eq!(node_of(&sim, "big"), None, "still backing off");
    assert_eq!(scheduler.next_wake(), Some(start.plus(Duration::from_secs(1))));
    sim.store_mut().set_now(start.plus(Duration::from_secs(1)));
    scheduler.sync(sim.store_mut());
    assert_eq!(node_of(&sim, "big").as_deref(), Some("node-4"));
}

#[test]
fn each_failed_retry_bumps_the_event_count() {
    let mut sim = cluster();
    let mut scheduler = Scheduler::default();
    sim.store_mut().create(pod("big", "6", "")).unwrap();
    scheduler.sync(sim.store_mut());
    let flush = scheduler.next_wake().unwrap();
    sim.store_mut().set_now(flush);
    scheduler.sync(sim.store_mut());
    assert_eq!(events(&sim, "big", "FailedScheduling").len(), 1);
    assert_eq!(events(&sim, "big", "FailedScheduling")[0].1, 2);
}

/// A small deterministic generator for the randomized test (the store's is for the scheduler).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

#[test]
fn never_overcommits_requests_random_clusters() {
    for seed in 1..=20u64 {
        let mut rng = Lcg(seed);
        let mut store = Store::new(seed);
        let nodes = 1 + rng.below(8) as usize;
        for i in 0..nodes {
            let mut t = NodeTemplate::named(&format!("n-{i}"));
            t.cpu = Quantity::from_milli(500 + 500 * rng.below(8) as i64, crate::api::quantity::Format::DecimalSI);
            t.memory = Quantity::parse(&format!("{}Gi", 1 + rng.below(8))).unwrap();
            t.pods = 1 + rng.below(20) as i64;
            store.create(node_from_template(&t, i, store.now())).unwrap();
        }
        let mut scheduler = Scheduler::default();
        for i in 0..60 {
            let cpu = format!("{}m", 50 * (1 + rng.below(20)));
            let memory = format!("{}Mi", 64 * (1 + rng.below(16)));
            store.create(pod(&format!("p-{i}"), &cpu, &memory)).unwrap();
            if rng.below(4) == 0 {
                scheduler.sync(&mut store);
            }
        }
        scheduler.sync(&mut store);
        let mut cache = Cache::default();
        cache.relist(&store);
        for node in cache.nodes() {
            let fits = node.requested.milli_cpu <= node.allocatable.milli_cpu
                && node.requested.memory <= node.allocatable.memory
                && node.pod_count() as i64 <= node.allocatable.allowed_pod_number;
            assert!(
                fits,
                "seed {seed}: node {} overcommitted: {:?} of {:?}",
                node.name, node.requested, node.allocatable
            );
        }
    }
}
