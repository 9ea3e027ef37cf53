//! PersistentVolume (core/v1): a piece of storage in the cluster — provisioned for a claim by
//! its class's provisioner or made by an administrator — bound to at most one claim.

use super::affinity::NodeSelector;
use super::container::ResourceList;
use super::endpoint_slice::ObjectReference;
use super::meta::{ObjectMeta, Time};
use super::quantity::Quantity;
use super::string_map::StringMap;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PersistentVolume {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: PersistentVolumeSpec,
    #[serde(default)]
    pub status: PersistentVolumeStatus,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PersistentVolumeSpec {
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub capacity: ResourceList,
    // The volume sources a lab's volumes use (core/v1 `PersistentVolumeSource`, inlined).
    pub host_path: Option<HostPathVolumeSource>,
    pub local: Option<LocalVolumeSource>,
    pub nfs: Option<NfsVolumeSource>,
    pub csi: Option<CsiPersistentVolumeSource>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub access_modes: Vec<String>,
    pub claim_ref: Option<ObjectReference>,
    /// `Retain`, `Delete` or `Recycle`; `Retain` when unset.
    pub persistent_volume_reclaim_policy: Option<String>,
    pub storage_class_name: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mount_options: Vec<String>,
    pub volume_mode: Option<String>,
    pub node_affinity: Option<VolumeNodeAffinity>,
    pub volume_attributes_class_name: Option<String>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HostPathVolumeSource {
    pub path: String,
    #[serde(rename = "type")]
    pub type_: Option<String>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LocalVolumeSource {
    pub path: String,
    pub fs_type: Option<String>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NfsVolumeSource {
    pub server: String,
    pub path: String,
    pub read_only: Option<bool>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CsiPersistentVolumeSource {
    pub driver: String,
    pub volume_handle: String,
    pub read_only: Option<bool>,
    pub fs_type: Option<String>,
    #[serde(default, skip_serializing_if = "StringMap::is_empty")]
    pub volume_attributes: StringMap,
    pub controller_publish_secret_ref: Option<SecretReference>,
    pub node_stage_secret_ref: Option<SecretReference>,
    pub node_publish_secret_ref: Option<SecretReference>,
    pub controller_expand_secret_ref: Option<SecretReference>,
    pub node_expand_secret_ref: Option<SecretReference>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SecretReference {
    pub name: Option<String>,
    pub namespace: Option<String>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VolumeNodeAffinity {
    pub required: Option<NodeSelector>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PersistentVolumeStatus {
    /// `Pending`, `Available`, `Bound`, `Released` or `Failed`.
    pub phase: Option<String>,
    pub message: Option<String>,
    pub reason: Option<String>,
    pub last_phase_transition_time: Option<Time>,
}

/// Volume phases (core/v1 `PersistentVolumePhase`).
pub const VOLUME_PENDING: &str = "Pending";
pub const VOLUME_AVAILABLE: &str = "Available";
pub const VOLUME_BOUND: &str = "Bound";
pub const VOLUME_RELEASED: &str = "Released";
pub const VOLUME_FAILED: &str = "Failed";

/// Reclaim policies (core/v1 `PersistentVolumeReclaimPolicy`).
pub const RECLAIM_RETAIN: &str = "Retain";
pub const RECLAIM_DELETE: &str = "Delete";
pub const RECLAIM_RECYCLE: &str = "Recycle";

/// What a provisioner writes on the volumes it makes (`pv.kubernetes.io/provisioned-by`).
pub const ANN_DYNAMICALLY_PROVISIONED: &str = "pv.kubernetes.io/provisioned-by";
/// The finalizer that keeps a volume while a claim is bound to it.
pub const PV_PROTECTION_FINALIZER: &str = "kubernetes.io/pv-protection";

impl PersistentVolume {
    pub fn capacity(&self) -> Option<&Quantity> {
        self.spec.capacity.get("storage")
    }

    pub fn class(&self) -> &str {
        self.spec.storage_class_name.as_deref().unwrap_or("")
    }

    pub fn phase(&self) -> &str {
        self.status.phase.as_deref().unwrap_or("")
    }

    pub fn reclaim_policy(&self) -> &str {
        self.spec.persistent_volume_reclaim_policy.as_deref().unwrap_or(RECLAIM_RETAIN)
    }

    /// The node a volume's node affinity pins it to, when it names one by hostname (as the
    /// local-path provisioner's volumes do).
    pub fn pinned_node(&self) -> Option<&str> {
        let terms = &self.spec.node_affinity.as_ref()?.required.as_ref()?.node_selector_terms;
        let requirement = terms.first()?.match_expressions.first()?;
        (requirement.key == "kubernetes.io/hostname" && requirement.operator == "In")
            .then(|| requirement.values.first().map(String::as_str))
            .flatten()
    }
}
