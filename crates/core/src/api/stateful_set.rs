//! StatefulSet (apps/v1): pods with a stable name, network identity and storage per ordinal.

use super::intstr::IntOrString;
use super::label_selector::LabelSelector;
use super::meta::{ObjectMeta, Time};
use super::persistent_volume_claim::PersistentVolumeClaim;
use super::pod::PodTemplateSpec;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// The label naming a StatefulSet pod (`apps.StatefulSetPodNameLabel`).
pub const POD_NAME_LABEL: &str = "statefulset.kubernetes.io/pod-name";
/// The label carrying a StatefulSet pod's ordinal (`apps.PodIndexLabel`).
pub const POD_INDEX_LABEL: &str = "apps.kubernetes.io/pod-index";
/// The label naming the ControllerRevision a pod was made from (`apps.ControllerRevisionHashLabelKey`).
pub const REVISION_LABEL: &str = "controller-revision-hash";

pub const ORDERED_READY: &str = "OrderedReady";
pub const PARALLEL: &str = "Parallel";
pub const ROLLING_UPDATE: &str = "RollingUpdate";
pub const ON_DELETE: &str = "OnDelete";
pub const RETAIN: &str = "Retain";
pub const DELETE: &str = "Delete";

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StatefulSet {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: StatefulSetSpec,
    /// Always written: `replicas` and `availableReplicas` have no `omitempty` upstream.
    #[serde(default)]
    pub status: StatefulSetStatus,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StatefulSetSpec {
    pub replicas: Option<i32>,
    pub selector: Option<LabelSelector>,
    #[serde(default)]
    pub template: PodTemplateSpec,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub volume_claim_templates: Vec<PersistentVolumeClaim>,
    /// No `omitempty` upstream: written even when empty.
    #[serde(default)]
    pub service_name: String,
    pub pod_management_policy: Option<String>,
    #[serde(default, skip_serializing_if = "StatefulSetUpdateStrategy::is_empty")]
    pub update_strategy: StatefulSetUpdateStrategy,
    pub revision_history_limit: Option<i32>,
    pub min_ready_seconds: Option<i32>,
    pub persistent_volume_claim_retention_policy: Option<StatefulSetPersistentVolumeClaimRetentionPolicy>,
    pub ordinals: Option<StatefulSetOrdinals>,
}

impl StatefulSetSpec {
    /// The first ordinal (`getStartOrdinal`): `ordinals.start`, or 0.
    pub fn start_ordinal(&self) -> i32 {
        self.ordinals.as_ref().map_or(0, |o| o.start)
    }

    /// The partition of a rolling update: pods below it keep the current revision.
    pub fn partition(&self) -> i32 {
        self.update_strategy.rolling_update.as_ref().and_then(|r| r.partition).unwrap_or(0)
    }

    pub fn is_parallel(&self) -> bool {
        self.pod_management_policy.as_deref() == Some(PARALLEL)
    }

    /// `whenScaled` and `whenDeleted`, Retain where unset.
    pub fn retention(&self) -> (&str, &str) {
        let policy = self.persistent_volume_claim_retention_policy.as_ref();
        let scaled = policy.and_then(|p| p.when_scaled.as_deref()).unwrap_or(RETAIN);
        let deleted = policy.and_then(|p| p.when_deleted.as_deref()).unwrap_or(RETAIN);
        (scaled, deleted)
    }
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StatefulSetUpdateStrategy {
    #[serde(rename = "type")]
    pub type_: Option<String>,
    pub rolling_update: Option<RollingUpdateStatefulSetStrategy>,
}

impl StatefulSetUpdateStrategy {
    pub fn is_empty(&self) -> bool {
        *self == StatefulSetUpdateStrategy::default()
    }
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RollingUpdateStatefulSetStrategy {
    pub partition: Option<i32>,
    pub max_unavailable: Option<IntOrString>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StatefulSetPersistentVolumeClaimRetentionPolicy {
    pub when_deleted: Option<String>,
    pub when_scaled: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StatefulSetOrdinals {
    #[serde(default)]
    pub start: i32,
}

/// Upstream's Go struct: every field but `replicas` and `availableReplicas` is `omitempty`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StatefulSetStatus {
    #[serde(default, skip_serializing_if = "is_zero_i64")]
    pub observed_generation: i64,
    #[serde(default)]
    pub replicas: i32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub ready_replicas: i32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub current_replicas: i32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub updated_replicas: i32,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub current_revision: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub update_revision: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collision_count: Option<i32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<StatefulSetCondition>,
    #[serde(default)]
    pub available_replicas: i32,
}

fn is_zero(n: &i32) -> bool {
    *n == 0
}

fn is_zero_i64(n: &i64) -> bool {
    *n == 0
}

impl StatefulSetStatus {
    pub fn is_empty(&self) -> bool {
        *self == StatefulSetStatus::default()
    }
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StatefulSetCondition {
    #[serde(rename = "type")]
    pub type_: String,
    pub status: String,
    pub last_transition_time: Option<Time>,
    pub reason: Option<String>,
    pub message: Option<String>,
}
