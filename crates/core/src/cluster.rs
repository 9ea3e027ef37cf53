//! The lab's machines: the default three-node cluster, the `--cluster FILE` format, and how a
//! node description becomes a Node object (capacity, allocatable, labels, taints, conditions).

use crate::api::meta::Time;
use crate::api::node::{NodeAddress, NodeCondition, NodeSystemInfo, Taint};
use crate::api::quantity::{Format, Quantity};
use crate::api::string_map::StringMap;
use crate::api::{Node, ObjectMeta};
use crate::gpu::{GpuInventory, GpuMachine, MigStrategy};
use crate::sim::time::SimTime;
use serde::{Deserialize, Serialize};

/// One machine as a lab describes it. Anything left out takes the default node's value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeTemplate {
    pub name: String,
    #[serde(default = "default_cpu")]
    pub cpu: Quantity,
    #[serde(default = "default_memory")]
    pub memory: Quantity,
    #[serde(default = "default_pods")]
    pub pods: i64,
    #[serde(default)]
    pub labels: StringMap,
    #[serde(default)]
    pub taints: Vec<Taint>,
    /// Its GPUs, `MODEL[xN]` (`A100-SXM4-40GBx2`); none when left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu: Option<String>,
    /// The device plugin's MIG strategy on it (`none`, `single` — the GPU Operator's default —
    /// or `mixed`).
    #[serde(default, rename = "migStrategy", skip_serializing_if = "Option::is_none")]
    pub mig_strategy: Option<MigStrategy>,
}

fn default_cpu() -> Quantity {
    Quantity::from_int(4, Format::DecimalSI)
}

fn default_memory() -> Quantity {
    Quantity::from_int(16 << 30, Format::BinarySI)
}

fn default_pods() -> i64 {
    110
}

impl NodeTemplate {
    pub fn named(name: &str) -> NodeTemplate {
        NodeTemplate {
            name: name.to_string(),
            cpu: default_cpu(),
            memory: default_memory(),
            pods: default_pods(),
            labels: StringMap::new(),
            taints: Vec::new(),
            gpu: None,
            mig_strategy: None,
        }
    }

    /// Its GPUs, if it has any, with the reason when the inventory is not one the lab knows.
    pub fn gpu_machine(&self) -> Result<Option<GpuMachine>, String> {
        let Some(text) = &self.gpu else { return Ok(None) };
        let inventory = GpuInventory::parse(text).map_err(|e| format!("node {:?}: gpu: {e}", self.name))?;
        let mut machine = GpuMachine::new(&self.name, &inventory, self.mig_strategy.unwrap_or_default());
        machine.cpus = u32::try_from(self.cpu.value()).unwrap_or(0);
        Ok(Some(machine))
    }
}

/// A cluster file: `nodes: [{name, cpu, memory, pods, labels, taints, gpu, migStrategy}]`, the
/// workers; `controlPlane: false` leaves out the control-plane node and kube-system's pods.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClusterSpec {
    /// A tainted control-plane node running the control plane as static pods, CoreDNS, and
    /// kube-proxy and kindnet on every node, as `kind create cluster` makes (`kubeadm/`). On
    /// by default; benchmarks and focused unit tests turn it off.
    #[serde(default = "yes", rename = "controlPlane", skip_serializing_if = "is_true")]
    pub control_plane: bool,
    /// The workers; left out, the default cluster's three.
    #[serde(default = "default_nodes")]
    pub nodes: Vec<NodeTemplate>,
    /// The add-ons installed once the nodes have joined (`addons/`), with a control plane only:
    /// metrics-server unless the file says otherwise (`addons: []` is kind's bare cluster).
    #[serde(default = "default_addons", skip_serializing_if = "is_default_addons")]
    pub addons: Vec<String>,
}

fn yes() -> bool {
    true
}

/// What a new lab has beyond kind's own pods: metrics-server, which `kubectl top` and the HPA
/// read, as most managed clusters install it.
pub fn default_addons() -> Vec<String> {
    vec!["metrics-server".to_string()]
}

fn is_default_addons(addons: &Vec<String>) -> bool {
    *addons == default_addons()
}

fn is_true(value: &bool) -> bool {
    *value
}

const ZONES: [&str; 3] = ["zone-a", "zone-b", "zone-c"];

/// Three workers, `node-1`…`node-3`, 4 CPU / 16Gi / 110 pods, one per zone.
fn default_nodes() -> Vec<NodeTemplate> {
    (1..=3)
        .map(|i| {
            let mut node = NodeTemplate::named(&format!("node-{i}"));
            node.labels.insert("topology.kubernetes.io/zone", ZONES[i - 1]);
            node
        })
        .collect()
}

impl Default for ClusterSpec {
    /// The control-plane node, the three default workers and metrics-server.
    fn default() -> Self {
        ClusterSpec { control_plane: true, nodes: default_nodes(), addons: default_addons() }
    }
}

impl ClusterSpec {
    /// The default cluster's three workers alone, for unit tests that look at one mechanism.
    pub fn default_workers() -> ClusterSpec {
        ClusterSpec::workers_only(ClusterSpec::default().nodes)
    }

    /// Only these workers: no control-plane node, no kube-system pods (benchmarks, unit tests).
    pub fn workers_only(nodes: Vec<NodeTemplate>) -> ClusterSpec {
        ClusterSpec { control_plane: false, nodes, addons: default_addons() }
    }

    /// Parses a cluster file, with errors that name the problem.
    pub fn from_yaml(text: &str) -> Result<ClusterSpec, String> {
        let spec: ClusterSpec = serde_yaml::from_str(text).map_err(|e| format!("invalid cluster file: {e}"))?;
        for node in &spec.nodes {
            node.gpu_machine().map_err(|e| format!("invalid cluster file: {e}"))?;
        }
        Ok(spec)
    }
}

/// Builds the Node object a kubelet would register for this machine.
/// `index` picks its InternalIP (10.0.0.{10+index}).
pub fn node_from_template(template: &NodeTemplate, index: usize, now: SimTime) -> Node {
    let mut labels = StringMap::new();
    labels.insert("kubernetes.io/arch", "amd64");
    labels.insert("kubernetes.io/hostname", template.name.as_str());
    labels.insert("kubernetes.io/os", "linux");
    for (k, v) in template.labels.iter() {
        labels.insert(k, v);
    }
    let mut node =
        Node { metadata: ObjectMeta { labels, ..ObjectMeta::named("", &template.name) }, ..Default::default() };
    node.spec.taints = template.taints.clone();
    let resources = [
        ("cpu".to_string(), template.cpu),
        ("ephemeral-storage".to_string(), Quantity::from_int(100 << 30, Format::BinarySI)),
        ("memory".to_string(), template.memory),
        ("pods".to_string(), Quantity::from_int(template.pods, Format::DecimalSI)),
    ];
    node.status.capacity = resources.iter().cloned().collect();
    node.status.allocatable = resources.into_iter().collect();
    node.status.conditions = healthy_conditions(now);
    node.status.addresses = vec![
        NodeAddress { type_: "InternalIP".into(), address: format!("10.0.0.{}", 10 + index % 240) },
        NodeAddress { type_: "Hostname".into(), address: template.name.clone() },
    ];
    node.status.node_info = Some(NodeSystemInfo {
        machine_id: format!("{:032x}", index + 1),
        kernel_version: "6.8.0-kubelab".into(),
        os_image: "Debian GNU/Linux 12 (bookworm)".into(),
        container_runtime_version: "containerd://1.7.24".into(),
        kubelet_version: crate::version::KUBERNETES_VERSION.into(),
        operating_system: "linux".into(),
        architecture: "amd64".into(),
    });
    node
}

/// The four conditions a healthy kubelet reports.
pub fn healthy_conditions(now: SimTime) -> Vec<NodeCondition> {
    let condition = |type_: &str, status: &str, reason: &str, message: &str| NodeCondition {
        type_: type_.into(),
        status: status.into(),
        last_heartbeat_time: Some(Time(now)),
        last_transition_time: Some(Time(now)),
        reason: Some(reason.into()),
        message: Some(message.into()),
    };
    vec![
        condition("MemoryPressure", "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
        condition("DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
        condition("PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
        condition("Ready", "True", "KubeletReady", "kubelet is posting ready status"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cluster_files_fill_in_defaults() {
        let spec = ClusterSpec::from_yaml(
            "nodes:\n- name: big\n  cpu: \"16\"\n  labels: {gpu: \"true\"}\n  taints: [{key: dedicated, value: ml, effect: NoSchedule}]\n- name: small\n  memory: 2Gi\n",
        )
        .unwrap();
        assert_eq!(spec.nodes[0].cpu.to_string(), "16");
        assert_eq!(spec.nodes[0].memory.to_string(), "16Gi");
        assert_eq!(spec.nodes[1].memory.to_string(), "2Gi");
        assert_eq!(spec.nodes[1].pods, 110);
        let node = node_from_template(&spec.nodes[0], 0, SimTime::ZERO);
        assert_eq!(node.metadata.labels.get("gpu"), Some("true"));
        assert_eq!(node.spec.taints[0].effect, "NoSchedule");
        assert!(ClusterSpec::from_yaml("nodes:\n- name: x\n  gpus: 1\n").unwrap_err().contains("unknown field `gpus`"));
    }

    #[test]
    fn gpu_machines_name_a_known_model() {
        let spec =
            ClusterSpec::from_yaml("nodes:\n- name: a\n  gpu: A100-SXM4-40GBx2\n  migStrategy: mixed\n").unwrap();
        let machine = spec.nodes[0].gpu_machine().unwrap().unwrap();
        assert_eq!((machine.gpus.len(), machine.strategy), (2, MigStrategy::Mixed));
        let error = ClusterSpec::from_yaml("nodes:\n- name: a\n  gpu: V100x2\n").unwrap_err();
        assert!(
            error.starts_with(
                "invalid cluster file: node \"a\": gpu: unknown GPU model \"V100\"; known: A100-SXM4-40GB,"
            ),
            "{error}"
        );
    }
}
