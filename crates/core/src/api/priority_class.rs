//! PriorityClass (scheduling.k8s.io/v1): a name for a pod priority. Admission resolves a pod's
//! `priorityClassName` to `spec.priority`; the scheduler orders its queue by it and preempts
//! lower priorities for it.

use super::meta::ObjectMeta;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PriorityClass {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub value: i32,
    pub global_default: Option<bool>,
    pub description: Option<String>,
    /// `PreemptLowerPriority` (the default) or `Never`.
    pub preemption_policy: Option<String>,
}

/// The classes every cluster has (pkg/apis/scheduling: SystemPriorityClasses).
pub const SYSTEM_CLUSTER_CRITICAL: (&str, i32) = ("system-cluster-critical", 2_000_000_000);
pub const SYSTEM_NODE_CRITICAL: (&str, i32) = ("system-node-critical", 2_000_001_000);
/// The highest value a user-defined class may have (`HighestUserDefinablePriority`).
pub const HIGHEST_USER_DEFINABLE_PRIORITY: i32 = 1_000_000_000;
