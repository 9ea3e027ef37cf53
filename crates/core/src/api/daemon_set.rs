//! DaemonSet (apps/v1): one pod from a template on every node that qualifies; the DaemonSet
//! controller (`controllers/daemon_set/`) makes them and keeps the status.

use super::intstr::IntOrString;
use super::label_selector::LabelSelector;
use super::meta::{ObjectMeta, Time};
use super::pod::PodTemplateSpec;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DaemonSet {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: DaemonSetSpec,
    /// A Go struct with four counts never omitted: a new DaemonSet prints them as zeros.
    #[serde(default)]
    pub status: DaemonSetStatus,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DaemonSetSpec {
    pub selector: Option<LabelSelector>,
    #[serde(default)]
    pub template: PodTemplateSpec,
    #[serde(default, skip_serializing_if = "DaemonSetUpdateStrategy::is_empty")]
    pub update_strategy: DaemonSetUpdateStrategy,
    pub min_ready_seconds: Option<i32>,
    pub revision_history_limit: Option<i32>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DaemonSetUpdateStrategy {
    /// `RollingUpdate` (the default) or `OnDelete`.
    #[serde(rename = "type")]
    pub type_: Option<String>,
    pub rolling_update: Option<RollingUpdateDaemonSet>,
}

impl DaemonSetUpdateStrategy {
    pub fn is_empty(&self) -> bool {
        *self == DaemonSetUpdateStrategy::default()
    }

    pub fn is_on_delete(&self) -> bool {
        self.type_.as_deref() == Some(ON_DELETE)
    }
}

/// The strategy that replaces a pod only once the learner deletes it.
pub const ON_DELETE: &str = "OnDelete";
/// The default strategy: pods replaced node by node, within maxUnavailable and maxSurge.
pub const ROLLING_UPDATE: &str = "RollingUpdate";

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RollingUpdateDaemonSet {
    pub max_unavailable: Option<IntOrString>,
    pub max_surge: Option<IntOrString>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DaemonSetStatus {
    #[serde(default)]
    pub current_number_scheduled: i32,
    #[serde(default)]
    pub number_misscheduled: i32,
    #[serde(default)]
    pub desired_number_scheduled: i32,
    #[serde(default)]
    pub number_ready: i32,
    #[serde(default, skip_serializing_if = "is_zero64")]
    pub observed_generation: i64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub updated_number_scheduled: i32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub number_available: i32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub number_unavailable: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collision_count: Option<i32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<DaemonSetCondition>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DaemonSetCondition {
    #[serde(rename = "type")]
    pub type_: String,
    pub status: String,
    pub last_transition_time: Option<Time>,
    pub reason: Option<String>,
    pub message: Option<String>,
}

fn is_zero(n: &i32) -> bool {
    *n == 0
}

fn is_zero64(n: &i64) -> bool {
    *n == 0
}
