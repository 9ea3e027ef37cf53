//! PersistentVolumeClaim (core/v1): a namespace's request for storage of a size, access modes
//! and class; the PV controller binds it to a PersistentVolume, one to one.

use super::container::ResourceList;
use super::label_selector::LabelSelector;
use super::meta::{ObjectMeta, Time};
use super::quantity::Quantity;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PersistentVolumeClaim {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: PersistentVolumeClaimSpec,
    #[serde(default)]
    pub status: PersistentVolumeClaimStatus,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PersistentVolumeClaimSpec {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub access_modes: Vec<String>,
    pub selector: Option<LabelSelector>,
    #[serde(default)]
    pub resources: VolumeResourceRequirements,
    /// The PersistentVolume this claim is bound to (set by the PV controller, or by hand to
    /// ask for one volume).
    pub volume_name: Option<String>,
    pub storage_class_name: Option<String>,
    /// `Filesystem` (the default) or `Block`.
    pub volume_mode: Option<String>,
    pub data_source: Option<TypedLocalObjectReference>,
    pub data_source_ref: Option<TypedObjectReference>,
    pub volume_attributes_class_name: Option<String>,
}

/// core/v1 `VolumeResourceRequirements`: a claim asks for `requests[storage]`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VolumeResourceRequirements {
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub limits: ResourceList,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub requests: ResourceList,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TypedLocalObjectReference {
    pub api_group: Option<String>,
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub name: String,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TypedObjectReference {
    pub api_group: Option<String>,
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub name: String,
    pub namespace: Option<String>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PersistentVolumeClaimStatus {
    /// `Pending`, `Bound` or `Lost`.
    pub phase: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub access_modes: Vec<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub capacity: ResourceList,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<PersistentVolumeClaimCondition>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub allocated_resources: ResourceList,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub allocated_resource_statuses: BTreeMap<String, String>,
    pub current_volume_attributes_class_name: Option<String>,
    pub modify_volume_status: Option<ModifyVolumeStatus>,
    pub health_status: Option<VolumeHealthStatus>,
}

/// core/v1 `PersistentVolumeClaimCondition` (with a probe time, unlike metav1's).
#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PersistentVolumeClaimCondition {
    #[serde(rename = "type", default)]
    pub type_: String,
    #[serde(default)]
    pub status: String,
    pub last_probe_time: Option<Time>,
    pub last_transition_time: Option<Time>,
    pub reason: Option<String>,
    pub message: Option<String>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ModifyVolumeStatus {
    pub target_volume_attributes_class_name: Option<String>,
    #[serde(default)]
    pub status: String,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VolumeHealthStatus {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub health_conditions: Vec<VolumeHealthCondition>,
    pub last_transition_time: Option<Time>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VolumeHealthCondition {
    #[serde(default)]
    pub status: String,
    #[serde(default)]
    pub reason: String,
    pub message: Option<String>,
}

/// Claim phases (core/v1 `PersistentVolumeClaimPhase`).
pub const CLAIM_PENDING: &str = "Pending";
pub const CLAIM_BOUND: &str = "Bound";
pub const CLAIM_LOST: &str = "Lost";

/// Access modes (core/v1 `PersistentVolumeAccessMode`), and their short forms in tables.
pub const ACCESS_MODES: &[(&str, &str)] =
    &[("ReadWriteOnce", "RWO"), ("ReadOnlyMany", "ROX"), ("ReadWriteMany", "RWX"), ("ReadWriteOncePod", "RWOP")];

/// Volume modes (core/v1 `PersistentVolumeMode`).
pub const VOLUME_MODE_FILESYSTEM: &str = "Filesystem";
pub const VOLUME_MODE_BLOCK: &str = "Block";

/// Annotations the PV controller and the scheduler write on claims (pkg/controller/volume/
/// persistentvolume/util and storage/volume/util).
pub const ANN_BIND_COMPLETED: &str = "pv.kubernetes.io/bind-completed";
pub const ANN_BOUND_BY_CONTROLLER: &str = "pv.kubernetes.io/bound-by-controller";
pub const ANN_SELECTED_NODE: &str = "volume.kubernetes.io/selected-node";
pub const ANN_STORAGE_PROVISIONER: &str = "volume.kubernetes.io/storage-provisioner";
pub const ANN_BETA_STORAGE_PROVISIONER: &str = "volume.beta.kubernetes.io/storage-provisioner";

/// The finalizer that keeps a claim while a pod uses it (pkg/volume/util `PVCProtectionFinalizer`).
pub const PVC_PROTECTION_FINALIZER: &str = "kubernetes.io/pvc-protection";

impl PersistentVolumeClaim {
    /// `spec.resources.requests[storage]`, if set.
    pub fn requested_storage(&self) -> Option<&Quantity> {
        self.spec.resources.requests.get("storage")
    }

    /// The claim's class as the controller reads it (`storagehelpers.GetPersistentVolumeClaimClass`):
    /// an unset class is the empty one.
    pub fn class(&self) -> &str {
        self.spec.storage_class_name.as_deref().unwrap_or("")
    }

    pub fn phase(&self) -> &str {
        self.status.phase.as_deref().unwrap_or("")
    }
}

/// `RWO,RWX`: access modes as `kubectl get` prints them (`GetAccessModesAsString`), in the
/// fixed order above whatever order they were given in.
pub fn access_modes_string(modes: &[String]) -> String {
    ACCESS_MODES
        .iter()
        .filter(|(long, _)| modes.iter().any(|m| m == long))
        .map(|(_, short)| *short)
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    #[test]
    fn access_modes_print_short_in_a_fixed_order() {
        let modes = ["ReadWriteMany".to_string(), "ReadWriteOnce".to_string()];
        assert_eq!(super::access_modes_string(&modes), "RWO,RWX");
    }
}
