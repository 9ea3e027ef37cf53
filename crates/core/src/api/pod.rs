//! Pod, PodSpec, PodTemplateSpec and PodStatus (core/v1).
//!
//! The large, template-derived parts of a spec (containers, volumes, tolerations, affinity)
//! are `Shared`, so a ReplicaSet's pods point at one copy (see `shared.rs`).

use super::affinity::{Affinity, Toleration, TopologySpreadConstraint};
use super::container::{Container, ResourceList};
use super::meta::{ObjectMeta, Time};
use super::shared::Shared;
use super::string_map::StringMap;
use super::volume::Volume;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Pod {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: PodSpec,
    #[serde(default, skip_serializing_if = "PodStatus::is_empty")]
    pub status: PodStatus,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PodTemplateSpec {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: PodSpec,
}

fn shared_vec_is_empty<T>(v: &Shared<Vec<T>>) -> bool {
    v.is_empty()
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PodSpec {
    #[serde(default, skip_serializing_if = "shared_vec_is_empty")]
    pub volumes: Shared<Vec<Volume>>,
    #[serde(default, skip_serializing_if = "shared_vec_is_empty")]
    pub init_containers: Shared<Vec<Container>>,
    #[serde(default)]
    pub containers: Shared<Vec<Container>>,
    /// Added to a running pod by `kubectl debug` (the ephemeralcontainers subresource).
    #[serde(default, skip_serializing_if = "shared_vec_is_empty")]
    pub ephemeral_containers: Shared<Vec<EphemeralContainer>>,
    pub restart_policy: Option<String>,
    pub termination_grace_period_seconds: Option<i64>,
    pub active_deadline_seconds: Option<i64>,
    pub dns_policy: Option<String>,
    #[serde(default, skip_serializing_if = "StringMap::is_empty")]
    pub node_selector: StringMap,
    pub service_account_name: Option<String>,
    /// Deprecated alias of serviceAccountName, still defaulted and shown by the API server.
    pub service_account: Option<String>,
    pub automount_service_account_token: Option<bool>,
    pub node_name: Option<String>,
    pub host_network: Option<bool>,
    #[serde(rename = "hostPID")]
    pub host_pid: Option<bool>,
    #[serde(rename = "hostIPC")]
    pub host_ipc: Option<bool>,
    /// `false` runs the pod in a user namespace (its root is not the node's root).
    pub host_users: Option<bool>,
    pub share_process_namespace: Option<bool>,
    pub security_context: Option<Shared<PodSecurityContext>>,
    #[serde(default, skip_serializing_if = "shared_vec_is_empty")]
    pub image_pull_secrets: Shared<Vec<LocalObjectReference>>,
    pub hostname: Option<String>,
    pub subdomain: Option<String>,
    pub affinity: Option<Shared<Affinity>>,
    pub scheduler_name: Option<String>,
    #[serde(default, skip_serializing_if = "shared_vec_is_empty")]
    pub tolerations: Shared<Vec<Toleration>>,
    pub priority_class_name: Option<String>,
    pub priority: Option<i32>,
    pub preemption_policy: Option<String>,
    #[serde(default, skip_serializing_if = "shared_vec_is_empty")]
    pub topology_spread_constraints: Shared<Vec<TopologySpreadConstraint>>,
    pub enable_service_links: Option<bool>,
    pub runtime_class_name: Option<String>,
    pub overhead: Option<Shared<ResourceList>>,
    #[serde(default, skip_serializing_if = "shared_vec_is_empty")]
    pub readiness_gates: Shared<Vec<PodReadinessGate>>,
    pub os: Option<Shared<PodOs>>,
    /// The DRA claims the pod's containers may use, each a ResourceClaim or a template.
    #[serde(default, skip_serializing_if = "shared_vec_is_empty")]
    pub resource_claims: Shared<Vec<PodResourceClaim>>,
}

/// `pod.spec.resourceClaims[]`: a name the containers refer to, and the claim behind it
/// (exactly one of the two fields).
#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PodResourceClaim {
    #[serde(default)]
    pub name: String,
    pub resource_claim_name: Option<String>,
    pub resource_claim_template_name: Option<String>,
}

/// `pod.status.resourceClaimStatuses[]`: the claim the resourceclaim controller made for a
/// template entry.
#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PodResourceClaimStatus {
    #[serde(default)]
    pub name: String,
    pub resource_claim_name: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LocalObjectReference {
    #[serde(default)]
    pub name: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PodReadinessGate {
    pub condition_type: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PodOs {
    pub name: String,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PodSecurityContext {
    pub run_as_user: Option<i64>,
    pub run_as_group: Option<i64>,
    pub run_as_non_root: Option<bool>,
    pub fs_group: Option<i64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub supplemental_groups: Vec<i64>,
    pub seccomp_profile: Option<super::container::SeccompProfile>,
    #[serde(rename = "seLinuxOptions")]
    pub se_linux_options: Option<super::container::SeLinuxOptions>,
    pub app_armor_profile: Option<super::container::AppArmorProfile>,
    pub windows_options: Option<super::container::WindowsSecurityContextOptions>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sysctls: Vec<Sysctl>,
}

/// `pod.spec.securityContext.sysctls[]`: a namespaced kernel parameter set for the pod.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Sysctl {
    pub name: String,
    pub value: String,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PodStatus {
    pub phase: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<PodCondition>,
    pub message: Option<String>,
    pub reason: Option<String>,
    pub nominated_node_name: Option<String>,
    #[serde(rename = "hostIP")]
    pub host_ip: Option<String>,
    #[serde(rename = "podIP")]
    pub pod_ip: Option<String>,
    #[serde(default, rename = "podIPs", skip_serializing_if = "Vec::is_empty")]
    pub pod_ips: Vec<PodIp>,
    pub start_time: Option<Time>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub init_container_statuses: Vec<ContainerStatus>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub container_statuses: Vec<ContainerStatus>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ephemeral_container_statuses: Vec<ContainerStatus>,
    pub qos_class: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resource_claim_statuses: Vec<PodResourceClaimStatus>,
}

/// A container added to a running pod for troubleshooting (core/v1 EphemeralContainer): no
/// ports, probes or resources; `targetContainerName` shares that container's process namespace.
#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EphemeralContainer {
    pub name: String,
    pub image: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub command: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    pub image_pull_policy: Option<String>,
    pub termination_message_path: Option<String>,
    pub termination_message_policy: Option<String>,
    pub stdin: Option<bool>,
    pub tty: Option<bool>,
    pub target_container_name: Option<String>,
}

impl PodStatus {
    pub fn is_empty(&self) -> bool {
        *self == PodStatus::default()
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PodIp {
    pub ip: String,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PodCondition {
    #[serde(rename = "type")]
    pub type_: String,
    pub status: String,
    pub last_probe_time: Option<Time>,
    pub last_transition_time: Option<Time>,
    pub reason: Option<String>,
    pub message: Option<String>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ContainerStatus {
    pub name: String,
    #[serde(default)]
    pub state: ContainerState,
    #[serde(default)]
    pub last_state: ContainerState,
    #[serde(default)]
    pub ready: bool,
    #[serde(default)]
    pub restart_count: i32,
    #[serde(default)]
    pub image: String,
    #[serde(default, rename = "imageID")]
    pub image_id: String,
    #[serde(rename = "containerID")]
    pub container_id: Option<String>,
    pub started: Option<bool>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ContainerState {
    pub waiting: Option<ContainerStateWaiting>,
    pub running: Option<ContainerStateRunning>,
    pub terminated: Option<ContainerStateTerminated>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ContainerStateWaiting {
    pub reason: Option<String>,
    pub message: Option<String>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ContainerStateRunning {
    pub started_at: Option<Time>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ContainerStateTerminated {
    pub exit_code: i32,
    pub signal: Option<i32>,
    pub reason: Option<String>,
    pub message: Option<String>,
    pub started_at: Option<Time>,
    pub finished_at: Option<Time>,
    #[serde(rename = "containerID")]
    pub container_id: Option<String>,
}

impl Pod {
    /// The pod's phase, `Pending` when not yet set.
    pub fn phase(&self) -> &str {
        self.status.phase.as_deref().unwrap_or("Pending")
    }

    pub fn node_name(&self) -> Option<&str> {
        self.spec.node_name.as_deref().filter(|n| !n.is_empty())
    }

    /// Upstream `podutil.IsPodReady`: the Ready condition is True.
    pub fn is_ready(&self) -> bool {
        self.status.conditions.iter().any(|c| c.type_ == "Ready" && c.status == "True")
    }

    /// A container of the spec, init containers included.
    pub fn container(&self, name: &str) -> Option<&Container> {
        self.spec.containers.iter().chain(self.spec.init_containers.iter()).find(|c| c.name == name)
    }

    /// The container's status as its kubelet last reported it, init containers included.
    pub fn container_status(&self, name: &str) -> Option<&ContainerStatus> {
        self.status.container_statuses.iter().chain(&self.status.init_container_statuses).find(|s| s.name == name)
    }
}
