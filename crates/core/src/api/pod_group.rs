//! PodGroup (scheduling.x-k8s.io/v1alpha1, from kubernetes-sigs/scheduler-plugins): pods that
//! must be scheduled together or not at all (gang scheduling), joined to it by the label
//! `scheduling.x-k8s.io/pod-group`. A custom resource: served once the `coscheduling` add-on
//! installs its CustomResourceDefinition.

use super::container::ResourceList;
use super::meta::{ObjectMeta, Time};
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// The label that makes a pod a member of a PodGroup.
pub const POD_GROUP_LABEL: &str = "scheduling.x-k8s.io/pod-group";

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PodGroup {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: PodGroupSpec,
    #[serde(default)]
    pub status: PodGroupStatus,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PodGroupSpec {
    /// The fewest members that may run at all (at least 1).
    pub min_member: Option<i32>,
    #[serde(default, skip_serializing_if = "ResourceList::is_empty")]
    pub min_resources: ResourceList,
    pub schedule_timeout_seconds: Option<i32>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PodGroupStatus {
    pub phase: Option<String>,
    pub occupied_by: Option<String>,
    pub running: Option<i32>,
    pub succeeded: Option<i32>,
    pub failed: Option<i32>,
    pub schedule_start_time: Option<Time>,
}
