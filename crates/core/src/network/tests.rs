//! The network end to end: a Service with four ready endpoints, connections from a pod.

use super::connection::{Client, Route, connect};
use crate::api::{Pod, Service};
use crate::kubectl::fixture::{lab, run};
use std::collections::BTreeMap;

const FOUR_BEHIND_A_SERVICE: &str = "kubectl apply -f hello.yaml\nkubectl apply -f hello-service.yaml\nkubectl scale deployment hello --replicas=4\nkubectl run client --image=busybox:1.37 -- sleep infinity\nsleep 20s\n";

#[test]
fn ten_thousand_connections_to_four_endpoints_spread_within_one_and_a_half_points() {
    let mut sim = lab(FOUR_BEHIND_A_SERVICE);
    let client = sim.store().get::<Pod>("default", "client").unwrap().clone();
    let ip = sim.store().get::<Service>("default", "hello").unwrap().spec.cluster_ip.clone().unwrap();
    let mut counts: BTreeMap<String, u32> = BTreeMap::new();
    for _ in 0..10_000 {
        let Route::Backend { ip, .. } = connect(&mut sim, Client::Pod(&client), &ip, 80) else { panic!("no route") };
        *counts.entry(ip).or_default() += 1;
    }
    assert_eq!(counts.len(), 4, "{counts:?}");
    for (endpoint, count) in &counts {
        let share = f64::from(*count) / 100.0;
        assert!((share - 25.0).abs() <= 1.5, "{endpoint}: {share}% of {counts:?} (seed {})", sim.seed());
    }
}

#[test]
fn an_endpoint_leaves_each_node_only_after_its_propagation_delay() {
    let mut sim = lab(FOUR_BEHIND_A_SERVICE);
    let client = sim.store().get::<Pod>("default", "client").unwrap().clone();
    let node = client.spec.node_name.clone().unwrap();
    let delay = sim.controllers().kube_proxy.delay(&node);
    assert!((500..=2_000).contains(&delay.as_millis()), "{delay:?}");
    let rules = |sim: &crate::sim::Sim| {
        let proxy = &sim.controllers().kube_proxy;
        let hello = proxy.rules_on(&node, sim.now()).find(|r| r.name == "hello").unwrap();
        hello.ports[0].backends.iter().filter(|b| b.ready).count()
    };
    assert_eq!(rules(&sim), 4);
    run(&mut sim, "kubectl scale deployment hello --replicas=3");
    assert_eq!(rules(&sim), 4, "the node has not heard yet");
    sim.advance(delay);
    assert_eq!(rules(&sim), 3);
}

#[test]
fn client_ip_affinity_keeps_a_client_on_one_endpoint() {
    let mut sim = lab(&format!(
        "{FOUR_BEHIND_A_SERVICE}kubectl patch service hello -p '{{\"spec\":{{\"sessionAffinity\":\"ClientIP\"}}}}'\nsleep 3s\n"
    ));
    let client = sim.store().get::<Pod>("default", "client").unwrap().clone();
    let ip = sim.store().get::<Service>("default", "hello").unwrap().spec.cluster_ip.clone().unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..50 {
        let Route::Backend { ip, .. } = connect(&mut sim, Client::Pod(&client), &ip, 80) else { panic!("no route") };
        seen.insert(ip);
    }
    assert_eq!(seen.len(), 1, "{seen:?}");
}

#[test]
fn a_node_port_answers_on_every_node_from_pods_and_from_outside() {
    let mut sim = lab(&format!(
        "{FOUR_BEHIND_A_SERVICE}kubectl expose deployment hello --name=hello-np --type=NodePort --port=80 --target-port=8080\nsleep 3s\n"
    ));
    let client = sim.store().get::<Pod>("default", "client").unwrap().clone();
    let port = sim.store().get::<Service>("default", "hello-np").unwrap().spec.ports[0].node_port.unwrap();
    for node_ip in ["10.0.0.10", "10.0.0.11", "10.0.0.12"] {
        for from in [Client::Pod(&client), Client::Outside] {
            let route = connect(&mut sim, from, node_ip, port);
            assert!(matches!(route, Route::Backend { .. }), "{node_ip}:{port} from {from:?}: {route:?}");
        }
        assert_eq!(connect(&mut sim, Client::Outside, node_ip, 31999), Route::Refused);
    }
    let cluster_ip = sim.store().get::<Service>("default", "hello-np").unwrap().spec.cluster_ip.clone().unwrap();
    assert_eq!(connect(&mut sim, Client::Outside, &cluster_ip, 80), Route::TimedOut, "ClusterIPs stay inside");
}
