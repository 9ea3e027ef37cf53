//! ControllerRevision (apps/v1): an immutable snapshot of a workload's template, kept by the
//! DaemonSet and StatefulSet controllers so a rollout can be told apart from, and rolled back to,
//! an earlier one.

use super::meta::ObjectMeta;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ControllerRevision {
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// A `runtime.RawExtension`: any JSON (a patch of the owner that restores its template).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<serde_json::Value>,
    #[serde(default)]
    pub revision: i64,
}
