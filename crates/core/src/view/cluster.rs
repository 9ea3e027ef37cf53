//! The cluster picture: nodes with their zone, readiness and requested-vs-allocatable
//! resources, and each node's pods with kubectl's STATUS and READY, as plain data the UI only
//! lays out.

use crate::api::node::Node;
use crate::api::pod::Pod;
use crate::kubectl::printers::pod_status;
use crate::scheduler::framework::types::{PodRequests, Resource};
use crate::sim::Sim;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeCard {
    pub name: String,
    pub ready: bool,
    pub schedulable: bool,
    /// The machine is off (`lab node power-off`): its kubelet posts nothing.
    pub powered_off: bool,
    pub zone: Option<String>,
    pub cpu_requested_millis: i64,
    pub cpu_allocatable_millis: i64,
    pub memory_requested_bytes: i64,
    pub memory_allocatable_bytes: i64,
    pub pods: Vec<PodChip>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PodChip {
    pub namespace: String,
    pub name: String,
    /// The node it is bound to; `None` while pending.
    pub node: Option<String>,
    /// kubectl's STATUS column (`Running`, `ContainerCreating`, `CrashLoopBackOff`…).
    pub status: String,
    pub ready_containers: usize,
    pub total_containers: usize,
    pub health: Health,
}

/// How a pod is doing, for its colour and its shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Health {
    Ready,
    Starting,
    Failing,
    Terminating,
    Done,
}

impl Health {
    pub fn class(self) -> &'static str {
        match self {
            Health::Ready => "ready",
            Health::Starting => "starting",
            Health::Failing => "failing",
            Health::Terminating => "terminating",
            Health::Done => "done",
        }
    }

    /// A shape, so the state never depends on colour alone.
    pub fn symbol(self) -> &'static str {
        match self {
            Health::Ready => "●",
            Health::Starting => "◐",
            Health::Failing => "✕",
            Health::Terminating => "⊘",
            Health::Done => "○",
        }
    }
}

/// The whole picture: every node in name order, then the pods that have no node yet.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClusterPicture {
    pub nodes: Vec<NodeCard>,
    pub unscheduled: Vec<PodChip>,
}

pub fn picture(sim: &Sim) -> ClusterPicture {
    let store = sim.store();
    let kubelet = &sim.controllers().kubelet;
    let mut nodes: Vec<NodeCard> = store
        .list::<Node>(None)
        .map(|node| node_card(node, kubelet.heartbeat_lost_at(&node.metadata.name).is_some()))
        .collect();
    let mut unscheduled = Vec::new();
    for pod in store.list::<Pod>(None) {
        let chip = pod_chip(pod);
        let card = pod.spec.node_name.as_deref().and_then(|name| nodes.iter_mut().find(|n| n.name == name));
        // The control plane's own pods (kube-system) count in a node's requests but get no
        // chip: the picture is the learner's workloads; `kubectl get pods -n kube-system`
        // shows the rest.
        let system = pod.metadata.namespace.starts_with("kube-");
        match card {
            Some(card) => {
                if !matches!(chip.health, Health::Done) {
                    let requests = PodRequests::of(pod).requests;
                    card.cpu_requested_millis += requests.milli_cpu;
                    card.memory_requested_bytes += requests.memory;
                }
                if !system {
                    card.pods.push(chip);
                }
            }
            None if !system => unscheduled.push(chip),
            None => {}
        }
    }
    nodes.sort_by(|a, b| a.name.cmp(&b.name));
    ClusterPicture { nodes, unscheduled }
}

fn node_card(node: &Node, powered_off: bool) -> NodeCard {
    let allocatable = Resource::from_list(&node.status.allocatable);
    NodeCard {
        name: node.metadata.name.clone(),
        ready: node.condition("Ready").is_some_and(|c| c.status == "True"),
        schedulable: node.spec.unschedulable != Some(true),
        powered_off,
        zone: node.metadata.labels.get("topology.kubernetes.io/zone").map(str::to_string),
        cpu_requested_millis: 0,
        cpu_allocatable_millis: allocatable.milli_cpu,
        memory_requested_bytes: 0,
        memory_allocatable_bytes: allocatable.memory,
        pods: Vec::new(),
    }
}

fn pod_chip(pod: &Pod) -> PodChip {
    let status = pod_status(pod);
    let ready_containers = pod.status.container_statuses.iter().filter(|s| s.ready).count();
    let total_containers = pod.spec.containers.len();
    let health = health(&status, pod.phase(), ready_containers == total_containers && total_containers > 0);
    PodChip {
        namespace: pod.metadata.namespace.clone(),
        name: pod.metadata.name.clone(),
        node: pod.spec.node_name.clone(),
        status,
        ready_containers,
        total_containers,
        health,
    }
}

fn health(status: &str, phase: &str, all_ready: bool) -> Health {
    match status {
        "Terminating" | "Unknown" => Health::Terminating,
        "Completed" | "Succeeded" => Health::Done,
        "Running" if all_ready => Health::Ready,
        "Running" | "Pending" | "ContainerCreating" | "PodInitializing" => Health::Starting,
        s if s.starts_with("Init:") && !s.contains("Err") && !s.contains("BackOff") => Health::Starting,
        _ if phase == "Succeeded" => Health::Done,
        _ => Health::Failing,
    }
}

/// `requested / allocatable` as a whole percentage, capped at 100.
pub fn percent(requested: i64, allocatable: i64) -> i64 {
    if allocatable <= 0 { 0 } else { (requested.max(0) * 100 / allocatable).min(100) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kubectl::fixture::lab;

    #[test]
    fn pods_land_on_their_nodes_and_turn_ready() {
        let sim = lab("kubectl create deployment web --image=hello:v1 --replicas=3\nsleep 1m\n");
        let picture = picture(&sim);
        assert_eq!(picture.nodes.len(), 3);
        assert_eq!(picture.nodes[0].zone.as_deref(), Some("zone-a"));
        let pods: Vec<&PodChip> = picture.nodes.iter().flat_map(|n| &n.pods).collect();
        assert_eq!(pods.len(), 3);
        assert!(pods.iter().all(|p| p.health == Health::Ready && p.status == "Running"), "{pods:?}");
        assert!(picture.unscheduled.is_empty());
        assert!(picture.nodes.iter().all(|n| n.cpu_requested_millis == 0), "hello:v1 requests nothing");
    }

    #[test]
    fn the_control_planes_pods_count_in_requests_but_draw_no_chips() {
        let picture = picture(&Sim::default());
        let names: Vec<&str> = picture.nodes.iter().map(|n| n.name.as_str()).collect();
        assert_eq!(names, ["control-plane", "node-1", "node-2", "node-3"]);
        assert!(picture.nodes.iter().all(|n| n.pods.is_empty()), "{picture:?}");
        // etcd 100m, the API server 250m, the controller manager 200m, the scheduler 100m and
        // CoreDNS's two pods 100m each.
        assert_eq!(picture.nodes[0].cpu_requested_millis, 850);
    }

    #[test]
    fn a_powered_off_node_turns_not_ready() {
        let sim = lab("lab node power-off node-2\nsleep 6m\n");
        let picture = picture(&sim);
        let node = picture.nodes.iter().find(|n| n.name == "node-2").unwrap();
        assert!(!node.ready && node.powered_off);
        assert!(picture.nodes[0].cpu_allocatable_millis > 0);
    }

    #[test]
    fn percentages_are_capped() {
        assert_eq!(percent(500, 4000), 12);
        assert_eq!(percent(5000, 4000), 100);
        assert_eq!(percent(1, 0), 0);
    }
}
