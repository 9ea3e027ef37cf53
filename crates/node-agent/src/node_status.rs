//! The Node this kubelet registers and keeps up to date (pkg/kubelet/kubelet_node_status.go:
//! `registerWithAPIServer`, `setNodeStatus`, `updateNodeStatus`): labels, capacity and
//! allocatable, addresses, system info and the four conditions, in the simulation's words
//! (`cluster::healthy_conditions`). Status is posted when it changes and at least every five
//! minutes (`nodeStatusReportFrequency`).

use crate::client::{ApiClient, ApiError, decode};
use crate::gpus::Inventory;
use crate::host::{MachineInfo, hugepages_resource};
use kubelab_core::api::container::ResourceList;
use kubelab_core::api::node::{NodeAddress, NodeCondition, NodeStatus, NodeSystemInfo};
use kubelab_core::api::quantity::{Format, Quantity};
use kubelab_core::api::string_map::StringMap;
use kubelab_core::api::{Node, ObjectMeta};
use kubelab_core::sim::time::{Duration, SimTime};
use serde_json::json;

/// `maxPods`, the kubelet's default.
pub const MAX_PODS: i64 = 110;
/// `evictionHard` `memory.available<100Mi`, which allocatable keeps back.
const EVICTION_MEMORY: i64 = 100 << 20;
/// `evictionHard` `nodefs.available<10%`.
const EVICTION_NODEFS_PERCENT: i64 = 10;
/// `nodeStatusReportFrequency`: an unchanged status is posted this often.
pub const REPORT_FREQUENCY: Duration = Duration::from_secs(300);
/// `nodeStatusUpdateFrequency`: how often the kubelet computes its status.
pub const UPDATE_FREQUENCY: Duration = Duration::from_secs(10);

/// What the Node is built from.
#[derive(Clone, Debug)]
pub struct NodeFacts {
    pub name: String,
    pub address: String,
    /// `daemonEndpoints.kubeletEndpoint.Port`.
    pub kubelet_port: u16,
    pub machine: MachineInfo,
    pub pod_cidr: String,
    /// `wasmtime://48.0.8`.
    pub runtime_version: String,
    pub gpus: Option<Inventory>,
}

/// The Node the kubelet registers.
pub fn node(facts: &NodeFacts, now: SimTime) -> Node {
    let mut node = Node { metadata: ObjectMeta::named("", &facts.name), ..Default::default() };
    node.metadata.labels = labels(facts);
    node.spec.pod_cidr = Some(facts.pod_cidr.clone());
    node.spec.pod_cidrs = vec![facts.pod_cidr.clone()];
    node.status = status(facts, now, &[]);
    node
}

/// `kubernetes.io/{arch,hostname,os}`, their `beta.` forms, and GPU Feature Discovery's.
pub fn labels(facts: &NodeFacts) -> StringMap {
    let mut labels = StringMap::new();
    let arch = facts.machine.architecture.as_str();
    labels.insert("beta.kubernetes.io/arch", arch);
    labels.insert("beta.kubernetes.io/os", "linux");
    labels.insert("kubernetes.io/arch", arch);
    labels.insert("kubernetes.io/hostname", facts.name.as_str());
    labels.insert("kubernetes.io/os", "linux");
    if let Some(gpus) = &facts.gpus {
        for (k, v) in gpus.labels().iter() {
            labels.insert(k, v);
        }
    }
    labels
}

/// The status now; conditions keep their transition times from `previous`.
pub fn status(facts: &NodeFacts, now: SimTime, previous: &[NodeCondition]) -> NodeStatus {
    let (capacity, allocatable) = resources(facts);
    let mut conditions = kubelab_core::cluster::healthy_conditions(now);
    for condition in &mut conditions {
        if let Some(before) = previous.iter().find(|p| p.type_ == condition.type_ && p.status == condition.status) {
            condition.last_transition_time = before.last_transition_time;
        }
    }
    let machine = &facts.machine;
    NodeStatus {
        capacity,
        allocatable,
        conditions,
        addresses: vec![
            NodeAddress { type_: "InternalIP".into(), address: facts.address.clone() },
            NodeAddress { type_: "Hostname".into(), address: facts.name.clone() },
        ],
        node_info: Some(NodeSystemInfo {
            machine_id: machine.machine_id.clone(),
            kernel_version: machine.kernel_version.clone(),
            os_image: machine.os_image.clone(),
            container_runtime_version: facts.runtime_version.clone(),
            kubelet_version: kubelab_core::version::KUBERNETES_VERSION.into(),
            operating_system: "linux".into(),
            architecture: machine.architecture.clone(),
        }),
        ..Default::default()
    }
}

/// Capacity from the machine and the device plugin; allocatable less the eviction thresholds
/// and pre-allocated huge pages (`GetNodeAllocatableReservation`, no reservations set).
pub fn resources(facts: &NodeFacts) -> (ResourceList, ResourceList) {
    let machine = &facts.machine;
    let memory = machine.memory_bytes as i64;
    let storage = machine.root_fs_bytes as i64;
    let mut capacity = ResourceList::new();
    let mut allocatable = ResourceList::new();
    let mut both = |name: &str, total: i64, usable: i64, format: Format| {
        capacity.insert(name.to_string(), Quantity::from_int(total, format));
        allocatable.insert(name.to_string(), Quantity::from_int(usable.max(0), format));
    };
    let cpus = machine.cpus as i64;
    both("cpu", cpus, cpus, Format::DecimalSI);
    let hugepages: i64 = machine.hugepages.iter().map(|(kib, count)| (kib * 1024 * count) as i64).sum();
    both("memory", memory, memory - EVICTION_MEMORY - hugepages, Format::BinarySI);
    both("pods", MAX_PODS, MAX_PODS, Format::DecimalSI);
    if storage > 0 {
        both("ephemeral-storage", storage, storage - storage * EVICTION_NODEFS_PERCENT / 100, Format::BinarySI);
    }
    for (kib, count) in &machine.hugepages {
        let bytes = (kib * 1024 * count) as i64;
        both(&hugepages_resource(*kib), bytes, bytes, Format::BinarySI);
    }
    for (name, count) in facts.gpus.as_ref().map(Inventory::capacity).unwrap_or_default() {
        both(&name, count, count, Format::DecimalSI);
    }
    (capacity, allocatable)
}

/// `registerWithAPIServer`: creates the Node; one that exists (the agent restarted) gets this
/// kubelet's labels and podCIDR if it has none, then this status. The Node as stored.
pub async fn register(client: &ApiClient, node: &Node, kubelet_port: u16) -> Result<Node, ApiError> {
    let mut body = kubelab_core::api::codec::to_json_value(node);
    body["status"] = status_value(&node.status, kubelet_port);
    match client.post("/api/v1/nodes", &body).await {
        Ok(created) => return decode(created).map_err(transport),
        Err(e) if !e.is_conflict() => return Err(e),
        Err(_) => {}
    }
    let path = format!("/api/v1/nodes/{}", node.metadata.name);
    let existing: Node = client.get_as(&path).await?;
    let mut patch = json!({"metadata": {"labels": &node.metadata.labels}});
    if existing.spec.pod_cidr.is_none() {
        patch["spec"] = json!({"podCIDR": node.spec.pod_cidr, "podCIDRs": node.spec.pod_cidrs});
    }
    client.merge_patch(&path, &patch).await?;
    let mut status = node.status.clone();
    for condition in &mut status.conditions {
        if let Some(before) = existing.condition(&condition.type_).filter(|c| c.status == condition.status) {
            condition.last_transition_time = before.last_transition_time;
        }
    }
    post_status(client, &node.metadata.name, &status, kubelet_port).await
}

/// The status as sent: with `daemonEndpoints.kubeletEndpoint.Port`, where the API server
/// reaches this kubelet.
pub fn status_value(status: &NodeStatus, kubelet_port: u16) -> serde_json::Value {
    let mut value = serde_json::to_value(status).unwrap_or_default();
    value["daemonEndpoints"] = json!({"kubeletEndpoint": {"Port": kubelet_port}});
    value
}

/// PATCH nodes/NAME/status with the whole status (a merge patch replaces its lists).
pub async fn post_status(
    client: &ApiClient,
    name: &str,
    status: &NodeStatus,
    kubelet_port: u16,
) -> Result<Node, ApiError> {
    let patch = json!({"status": status_value(status, kubelet_port)});
    let answer = client.merge_patch(&format!("/api/v1/nodes/{name}/status"), &patch).await?;
    decode(answer).map_err(transport)
}

fn transport(message: String) -> ApiError {
    ApiError { code: 0, reason: String::new(), message }
}

/// When to post: on a change (heartbeat times aside) or once `REPORT_FREQUENCY` has passed.
#[derive(Clone, Debug, Default)]
pub struct Reporter {
    last: Option<(NodeStatus, SimTime)>,
}

impl Reporter {
    pub fn posted(&mut self, status: &NodeStatus, at: SimTime) {
        self.last = Some((without_heartbeats(status), at));
    }

    pub fn due(&self, status: &NodeStatus, now: SimTime) -> bool {
        match &self.last {
            None => true,
            Some((last, at)) => *last != without_heartbeats(status) || now.since(*at) >= REPORT_FREQUENCY,
        }
    }
}

fn without_heartbeats(status: &NodeStatus) -> NodeStatus {
    let mut status = status.clone();
    for condition in &mut status.conditions {
        condition.last_heartbeat_time = None;
    }
    status
}

#[cfg(test)]
mod tests {
    use super::*;
    use kubelab_core::cluster::{NodeTemplate, node_from_template};

    fn facts(gpus: Option<Inventory>) -> NodeFacts {
        NodeFacts {
            name: "edge-1".into(),
            address: "192.168.1.20".into(),
            kubelet_port: 10250,
            machine: MachineInfo {
                hostname: "edge-1".into(),
                cpus: 4,
                memory_bytes: 16 << 30,
                root_fs_bytes: 100 << 30,
                hugepages: vec![(2048, 0), (1 << 20, 0)],
                os_image: "Debian GNU/Linux 12 (bookworm)".into(),
                kernel_version: "6.8.0".into(),
                architecture: "amd64".into(),
                machine_id: "abc".into(),
            },
            pod_cidr: "10.244.4.0/24".into(),
            runtime_version: "wasmtime://48.0.8".into(),
            gpus,
        }
    }

    #[test]
    fn the_node_reports_what_a_simulated_kubelet_reports() {
        let now = SimTime(60_000);
        let mine = node(&facts(None), now);
        let simulated = node_from_template(&NodeTemplate::named("edge-1"), 0, now);
        assert_eq!(mine.status.conditions, simulated.status.conditions);
        for key in ["kubernetes.io/arch", "kubernetes.io/hostname", "kubernetes.io/os"] {
            assert_eq!(mine.metadata.labels.get(key), simulated.metadata.labels.get(key), "{key}");
        }
        assert_eq!(mine.metadata.labels.get("beta.kubernetes.io/os"), Some("linux"));
        let info = mine.status.node_info.as_ref().unwrap();
        let theirs = simulated.status.node_info.as_ref().unwrap();
        assert_eq!(
            (&info.kubelet_version, &info.operating_system),
            (&theirs.kubelet_version, &theirs.operating_system)
        );
        assert_eq!(info.container_runtime_version, "wasmtime://48.0.8");
        assert_eq!(mine.status.capacity["memory"].to_string(), "16Gi");
        assert_eq!(
            mine.status.allocatable["memory"].to_string(),
            (Quantity::from_int((16 << 30) - (100 << 20), Format::BinarySI)).to_string()
        );
        assert_eq!(mine.status.capacity["pods"].to_string(), "110");
        assert_eq!(mine.status.capacity["hugepages-2Mi"].to_string(), "0");
        assert_eq!(mine.status.addresses[0].address, "192.168.1.20");
        assert_eq!(mine.spec.pod_cidrs, ["10.244.4.0/24"]);
        let sent = status_value(&mine.status, 10250);
        assert_eq!(sent["daemonEndpoints"], json!({"kubeletEndpoint": {"Port": 10250}}));
        assert_eq!(sent["conditions"][3]["reason"], "KubeletReady");
    }

    #[test]
    fn a_status_is_posted_on_change_or_every_five_minutes() {
        let f = facts(None);
        let mut reporter = Reporter::default();
        let first = status(&f, SimTime(0), &[]);
        assert!(reporter.due(&first, SimTime(0)));
        reporter.posted(&first, SimTime(0));
        let later = status(&f, SimTime(10_000), &first.conditions);
        assert_eq!(later.conditions[3].last_transition_time, first.conditions[3].last_transition_time);
        assert!(!reporter.due(&later, SimTime(10_000)), "only the heartbeat moved");
        assert!(reporter.due(&later, SimTime(300_000)));
        let mut more = facts(None);
        more.machine.cpus = 8;
        assert!(reporter.due(&status(&more, SimTime(20_000), &[]), SimTime(20_000)));
    }
}
