//! A machine outside the lab joins as a node: it registers, renews its Lease and posts its
//! pods' status as requests; the lab's controllers treat it as any node; the trace records its
//! requests as inputs, and replaying the trace rebuilds the lab byte for byte.

use super::Sim;
use super::node_input::{InputVerb, NodeInput};
use super::time::{Duration, SimTime};
use crate::api::Pod;
use crate::apiserver::Response;
use crate::cluster::ClusterSpec;
use crate::kubectl::MemoryFiles;
use crate::kubelet::node_server::{NodeAgent, NodeError};
use crate::script::{self, trace_replay};
use serde_json::{Value, json};

fn sh(sim: &mut Sim, line: &str) -> String {
    let steps = script::parse(line).expect("a script line");
    script::run(sim, &steps, &MemoryFiles::default(), false).text
}

fn input(node: &str, verb: InputVerb, resource: (&str, &str, &str), at: (&str, &str), body: Value) -> NodeInput {
    let (group, version, resource) = resource;
    NodeInput {
        node: node.into(),
        verb,
        group: group.into(),
        version: version.into(),
        resource: resource.into(),
        namespace: at.0.into(),
        name: at.1.into(),
        subresource: String::new(),
        body: Some(body),
    }
}

fn register(node: &str, now: &str) -> NodeInput {
    let body = json!({
        "apiVersion": "v1", "kind": "Node",
        "metadata": {"name": node, "labels": {"kubernetes.io/hostname": node}},
        "status": {
            "capacity": {"cpu": "8", "memory": "32Gi", "pods": "110"},
            "allocatable": {"cpu": "8", "memory": "32Gi", "pods": "110"},
            "conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady",
                "message": "kubelet is posting ready status", "lastHeartbeatTime": now, "lastTransitionTime": now}],
            "addresses": [{"type": "InternalIP", "address": "192.168.1.20"}],
        },
    });
    input(node, InputVerb::Create, ("", "v1", "nodes"), ("", ""), body)
}

fn lease(node: &str, verb: InputVerb, renewed: &str) -> NodeInput {
    let body = json!({
        "apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
        "metadata": {"name": node, "namespace": "kube-node-lease"},
        "spec": {"holderIdentity": node, "leaseDurationSeconds": 40, "renewTime": renewed},
    });
    let name = if verb == InputVerb::Create { "" } else { node };
    input(node, verb, ("coordination.k8s.io", "v1", "leases"), ("kube-node-lease", name), body)
}

fn running(node: &str, pod: &str, at: &str) -> NodeInput {
    let patch = json!({"status": {"phase": "Running", "podIP": "10.88.0.5", "startTime": at,
        "conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": at}],
        "containerStatuses": [{"name": "web", "image": "hello:v1", "imageID": "", "ready": true, "restartCount": 0,
            "started": true, "state": {"running": {"startedAt": at}}}]}});
    let mut status = input(node, InputVerb::Patch, ("", "v1", "pods"), ("default", pod), patch);
    status.subresource = "status".into();
    status
}

/// The lab's time `seconds` in, as a kubelet writes it (`metav1.Time`, or `MicroTime` with `micro`).
fn at(seconds: u64, micro: bool) -> String {
    let time = SimTime(seconds * 1000);
    if micro { time.to_rfc3339_micro() } else { time.to_rfc3339() }
}

fn refused(response: Response) -> String {
    match response {
        Response::Status(status) => status.0.message(),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// Everything a real machine and a learner did, in order; returns the trace.
fn joined_lab() -> Sim {
    let mut sim = Sim::new(7, &ClusterSpec::workers_only(Vec::new()));
    let registered = sim.node_input(&register("edge-1", &at(0, false)));
    assert!(matches!(registered, Response::Object(_)), "{registered:?}");
    sim.node_input(&lease("edge-1", InputVerb::Create, &at(0, true)));
    sh(&mut sim, "kubectl run web --image=hello:v1");
    sim.advance(Duration::from_secs(2));
    sim.node_input(&running("edge-1", "web", &at(2, false)));
    for second in [10, 20, 30] {
        sim.advance(Duration::from_secs(10));
        sim.node_input(&lease("edge-1", InputVerb::Update, &at(second, true)));
    }
    sim
}

#[test]
fn an_external_node_runs_nothing_here_and_its_reports_are_the_pods_status() {
    let mut sim = Sim::new(7, &ClusterSpec::workers_only(Vec::new()));
    sim.node_input(&register("edge-1", &at(0, false)));
    sh(&mut sim, "kubectl run web --image=hello:v1");
    sim.advance(Duration::from_secs(60));
    let pending = sh(&mut sim, "kubectl get pod web -o wide");
    assert!(pending.contains("web    0/1     Pending   0          60s   <none>   edge-1   <none>"), "{pending}");
    sim.node_input(&running("edge-1", "web", &at(60, false)));
    let running = sh(&mut sim, "kubectl get pod web -o wide");
    assert!(running.contains("web    1/1     Running   0          60s   10.88.0.5   edge-1   <none>"), "{running}");
}

#[test]
fn a_node_that_stops_renewing_its_lease_goes_not_ready_after_the_grace_period() {
    let mut sim = joined_lab();
    // Last renewal at 30 s: Unknown at the first 5 s monitor tick after 80 s.
    sim.advance(Duration::from_secs(49));
    assert!(sh(&mut sim, "kubectl get nodes").contains("edge-1   Ready "), "still within the grace period");
    sim.advance(Duration::from_secs(6));
    let nodes = sh(&mut sim, "kubectl get nodes");
    assert!(nodes.contains("edge-1   NotReady "), "{nodes}");
    let events = sh(&mut sim, "kubectl get events --field-selector reason=NodeNotReady");
    assert!(events.contains("Node edge-1 status is now: NodeNotReady"), "{events}");
    let taints = sh(&mut sim, "kubectl get node edge-1 -o jsonpath={.spec.taints[*].key}");
    assert!(taints.contains("node.kubernetes.io/unreachable"), "{taints}");
}

#[test]
fn node_restriction_keeps_one_machine_from_writing_anothers_objects() {
    let mut sim = joined_lab();
    sim.node_input(&register("edge-2", &at(40, false)));
    let mut other = lease("edge-1", InputVerb::Update, &at(40, true));
    other.node = "edge-2".into();
    assert_eq!(
        refused(sim.node_input(&other)),
        "leases.coordination.k8s.io \"edge-1\" is forbidden: can only access node lease with the same name as the requesting node"
    );
    let mut status = running("edge-2", "web", &at(40, false));
    status.node = "edge-2".into();
    assert_eq!(
        refused(sim.node_input(&status)),
        "pods \"web\" is forbidden: node \"edge-2\" can only update pod status for pods with spec.nodeName set to itself"
    );
    let mut impostor = register("edge-1", &at(40, false));
    impostor.node = "edge-3".into();
    assert_eq!(
        refused(sim.node_input(&impostor)),
        "nodes \"edge-1\" is forbidden: node \"edge-3\" is not allowed to modify node \"edge-1\""
    );
}

#[test]
fn the_trace_records_each_report_and_replaying_it_rebuilds_the_lab_byte_for_byte() {
    let mut sim = joined_lab();
    sim.advance(Duration::from_secs(60));
    let trace = sim.trace().as_jsonl().to_string();
    let inputs = trace.lines().filter(|l| l.contains("\"input\":")).count();
    assert_eq!(inputs, 6, "register, the lease, the pod's status and three renewals");
    assert!(trace.contains(r#""type":"MODIFIED","uid":"#) && trace.contains(r#""user":"system:node:edge-1"}"#));

    let mut again = Sim::new(7, &ClusterSpec::workers_only(Vec::new()));
    trace_replay::replay(&mut again, &trace, &MemoryFiles::default()).unwrap();
    again.advance(sim.now().since(again.now()));
    assert_eq!(again.trace().as_jsonl(), trace);
}

/// A machine's agent as a test stands it up: it printed two lines, and echoes what it runs.
#[derive(Debug)]
struct EchoAgent;

impl NodeAgent for EchoAgent {
    fn container_logs(&self, _: &Pod, container: &str, _: bool) -> Result<Vec<(SimTime, String)>, NodeError> {
        Ok(vec![(SimTime(2_000), format!("{container} listening on :8080")), (SimTime(3_000), "GET /".into())])
    }

    fn exec(&self, _: &Pod, _: &str, command: &[String]) -> Result<(String, i32), NodeError> {
        Ok((format!("{}\n", command.join(" ")), 0))
    }
}

#[test]
fn logs_and_exec_reach_an_external_pod_through_its_agent_or_fail_as_a_closed_kubelet_port_does() {
    let mut sim = joined_lab();
    assert_eq!(
        sh(&mut sim, "kubectl logs web"),
        "$ kubectl logs web\nError from server: Get \"https://192.168.1.20:10250/containerLogs/default/web/web\": \
         dial tcp 192.168.1.20:10250: connect: connection refused\n"
    );
    let exec = sh(&mut sim, "kubectl exec web -- hostname");
    assert!(
        exec.ends_with(
            "Error from server: error dialing backend: dial tcp 192.168.1.20:10250: connect: connection refused\n"
        ),
        "{exec}"
    );

    sim.connect_agent("edge-1", std::sync::Arc::new(EchoAgent));
    assert_eq!(
        sh(&mut sim, "kubectl logs web --timestamps"),
        "$ kubectl logs web --timestamps\n2025-01-01T00:00:02Z web listening on :8080\n2025-01-01T00:00:03Z GET /\n"
    );
    assert_eq!(sh(&mut sim, "kubectl exec web -- uname -a"), "$ kubectl exec web -- uname -a\nuname -a\n");
}

#[test]
fn a_machine_is_judged_by_when_it_was_heard_from_not_by_its_clock_and_the_lab_sets_how_long() {
    let mut sim = Sim::new(7, &ClusterSpec::workers_only(Vec::new()));
    sh(&mut sim, "lab settings --node-monitor-grace-period 10s --default-toleration-seconds 5");
    // The machine's clock is a year ahead of the lab's: its renewals still count when they come.
    let ahead = |seconds: u64| SimTime((365 * 86_400 + seconds) * 1000);
    sim.node_input(&register("edge-1", &ahead(0).to_rfc3339()));
    sim.node_input(&lease("edge-1", InputVerb::Create, &ahead(0).to_rfc3339_micro()));
    sh(&mut sim, "kubectl run web --image=hello:v1");
    sim.node_input(&running("edge-1", "web", &ahead(1).to_rfc3339()));
    sim.advance(Duration::from_secs(8));
    sim.node_input(&lease("edge-1", InputVerb::Update, &ahead(8).to_rfc3339_micro()));
    sim.advance(Duration::from_secs(9));
    assert!(sh(&mut sim, "kubectl get nodes").contains("edge-1   Ready "), "renewed 9 s ago, within 10 s");
    // Heard from at 8 s: Unknown at the first monitor tick after 18 s; the pod tolerates 5 s.
    sim.advance(Duration::from_secs(3));
    assert!(sh(&mut sim, "kubectl get nodes").contains("edge-1   NotReady "));
    sim.advance(Duration::from_secs(6));
    let events = sh(&mut sim, "kubectl get events --field-selector reason=TaintManagerEviction");
    assert!(events.contains("Marking for deletion Pod default/web"), "{events}");
}
