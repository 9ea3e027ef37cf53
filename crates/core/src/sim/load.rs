//! The engine benchmark's scenario, shared by the native bench and the wasm32 build so both
//! measure the same work: N nodes, D Deployments × R replicas applied at once, then virtual
//! time advanced until every pod runs; and a quiet cluster left alone for an hour.

use super::Sim;
use super::time::Duration;
use crate::api::codec::decode_typed;
use crate::api::{Deployment, Pod};
use crate::cluster::{ClusterSpec, NodeTemplate};

/// What a load run did, for the benchmark to print next to its wall-clock time.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadReport {
    pub nodes: usize,
    pub pods: usize,
    pub running: usize,
    /// Virtual time from the apply to the last pod Running.
    pub virtual_seconds: u64,
    pub trace_hash: u64,
}

/// A cluster of `nodes` machines (4 CPU, 16Gi, 110 pods) over three zones, without the
/// control plane's node and kube-system's pods (see `cluster_with_system_pods`).
pub fn cluster(nodes: usize) -> Sim {
    Sim::new(1, &ClusterSpec::workers_only(workers(nodes)))
}

/// The same workers joined to a control-plane node, each with its kube-proxy and kindnet pods,
/// as a real cluster has them.
pub fn cluster_with_system_pods(nodes: usize) -> Sim {
    Sim::new(1, &ClusterSpec { nodes: workers(nodes), ..ClusterSpec::default() })
}

fn workers(nodes: usize) -> Vec<NodeTemplate> {
    let zones = ["zone-a", "zone-b", "zone-c"];
    (0..nodes)
        .map(|i| {
            let mut t = NodeTemplate::named(&format!("node-{i:05}"));
            t.labels.insert("topology.kubernetes.io/zone", zones[i % zones.len()]);
            t
        })
        .collect()
}

/// Creates `deployments` Deployments of `replicas` pods each (100m / 128Mi, no probes).
pub fn apply_deployments(sim: &mut Sim, deployments: usize, replicas: usize) {
    for i in 0..deployments {
        let json = format!(
            r#"{{"apiVersion":"apps/v1","kind":"Deployment","metadata":{{"name":"app-{i:04}","namespace":"default"}},"spec":{{"replicas":{replicas},
            "selector":{{"matchLabels":{{"app":"app-{i:04}"}}}},
            "template":{{"metadata":{{"labels":{{"app":"app-{i:04}"}}}},"spec":{{"containers":[{{"name":"app",
            "image":"nginx:1.27","resources":{{"requests":{{"cpu":"100m","memory":"128Mi"}}}}}}]}}}}}}}}"#
        );
        // Through the API's own decoder: one set of typed deserializers in the wasm bundle.
        let value = serde_json::from_str(&json).expect("valid JSON");
        let deployment: Deployment = decode_typed(value).expect("valid deployment");
        sim.store_mut().create(deployment).expect("deployment accepted");
    }
    sim.settle();
}

/// Advances virtual time a second at a time until every pod is Running (or an hour passes).
pub fn run_until_running(sim: &mut Sim, expected: usize) -> LoadReport {
    let start = sim.now();
    let mut running = 0;
    for _ in 0..3600 {
        running = sim.store().list::<Pod>(Some("default")).filter(|p| p.phase() == "Running").count();
        if running >= expected {
            break;
        }
        sim.advance(Duration::from_secs(1));
    }
    LoadReport {
        nodes: sim.store().count::<crate::api::Node>(),
        pods: sim.store().count::<Pod>(),
        running,
        virtual_seconds: sim.now().since(start).as_secs(),
        trace_hash: sim.trace().hash(),
    }
}

/// A quiet cluster left alone: how many timers fired while an hour of virtual time passed.
pub fn idle_hour(sim: &mut Sim) -> u64 {
    let before = sim.timers_fired();
    sim.advance(Duration::from_secs(3600));
    sim.timers_fired() - before
}

/// The traffic benchmark's scenario: `pods` replicas of one Deployment behind a Service on a
/// `cluster(nodes)`, every pod Running and every node's rules programmed.
pub fn serve(sim: &mut Sim, pods: usize) {
    let json = format!(
        r#"{{"apiVersion":"apps/v1","kind":"Deployment","metadata":{{"name":"web","namespace":"default"}},"spec":{{"replicas":{pods},
        "selector":{{"matchLabels":{{"app":"web"}}}},
        "template":{{"metadata":{{"labels":{{"app":"web"}}}},"spec":{{"containers":[{{"name":"web",
        "image":"nginx:1.27","resources":{{"requests":{{"cpu":"10m","memory":"16Mi"}}}}}}]}}}}}}}}"#
    );
    let deployment: Deployment = decode_typed(serde_json::from_str(&json).expect("valid JSON")).expect("valid");
    sim.store_mut().create(deployment).expect("deployment accepted");
    let service = r#"{"apiVersion":"v1","kind":"Service","metadata":{"name":"web","namespace":"default"},
        "spec":{"selector":{"app":"web"},"ports":[{"port":80}]}}"#;
    let service: crate::api::Service = decode_typed(serde_json::from_str(service).expect("valid JSON")).expect("valid");
    sim.store_mut().create(service).expect("service accepted");
    sim.settle();
    run_until_running(sim, pods);
    sim.advance(Duration::from_secs(5));
}

/// Runs the traffic generator at `rps` for `seconds` of virtual time; (requests, successes).
pub fn traffic(sim: &mut Sim, rps: u32, seconds: u64) -> (u64, u64) {
    let target = crate::network::traffic::Target {
        namespace: "default".into(),
        service: "web".into(),
        port: None,
        path: "/".into(),
        host: None,
    };
    sim.start_traffic(target, rps);
    sim.advance(Duration::from_secs(seconds));
    let totals = sim.stop_traffic().map(|g| g.totals()).unwrap_or_default();
    let ok = u64::from(totals.ok_total());
    (ok + u64::from(totals.failed_total()), ok)
}
