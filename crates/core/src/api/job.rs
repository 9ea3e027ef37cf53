//! Job (batch/v1): pods that run to completion, counted until enough have succeeded or too many
//! failed. Field names and defaults as k8s.io/api/batch/v1 and pkg/apis/batch/v1/defaults.go.

use super::label_selector::LabelSelector;
use super::meta::{ObjectMeta, Time};
use super::pod::PodTemplateSpec;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// The selector label the API server generates for a Job (and its legacy twin, still set).
pub const CONTROLLER_UID_LABEL: &str = "batch.kubernetes.io/controller-uid";
pub const LEGACY_CONTROLLER_UID_LABEL: &str = "controller-uid";
pub const JOB_NAME_LABEL: &str = "batch.kubernetes.io/job-name";
pub const LEGACY_JOB_NAME_LABEL: &str = "job-name";
/// An Indexed Job's pod's index: a label and an annotation of that name.
pub const JOB_COMPLETION_INDEX: &str = "batch.kubernetes.io/job-completion-index";
/// The finalizer the Job controller keeps on its pods until it has counted them.
pub const JOB_TRACKING_FINALIZER: &str = "batch.kubernetes.io/job-tracking";
/// With backoffLimitPerIndex: how many earlier pods of this pod's index failed and counted.
pub const JOB_INDEX_FAILURE_COUNT: &str = "batch.kubernetes.io/job-index-failure-count";
/// With backoffLimitPerIndex: how many earlier pods of this pod's index failed under an Ignore
/// rule of the podFailurePolicy (set only when non-zero).
pub const JOB_INDEX_IGNORED_FAILURE_COUNT: &str = "batch.kubernetes.io/job-index-ignored-failure-count";

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Job {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: JobSpec,
    #[serde(default, skip_serializing_if = "JobStatus::is_empty")]
    pub status: JobStatus,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct JobSpec {
    pub parallelism: Option<i32>,
    pub completions: Option<i32>,
    pub active_deadline_seconds: Option<i64>,
    pub pod_failure_policy: Option<PodFailurePolicy>,
    pub success_policy: Option<SuccessPolicy>,
    pub backoff_limit: Option<i32>,
    pub backoff_limit_per_index: Option<i32>,
    pub max_failed_indexes: Option<i32>,
    pub selector: Option<LabelSelector>,
    pub manual_selector: Option<bool>,
    #[serde(default)]
    pub template: PodTemplateSpec,
    pub ttl_seconds_after_finished: Option<i32>,
    pub completion_mode: Option<String>,
    pub suspend: Option<bool>,
    pub pod_replacement_policy: Option<String>,
    pub managed_by: Option<String>,
}

impl JobSpec {
    pub fn is_indexed(&self) -> bool {
        self.completion_mode.as_deref() == Some("Indexed")
    }

    /// Whether failures are counted per index (upstream `hasBackoffLimitPerIndex`).
    pub fn has_backoff_limit_per_index(&self) -> bool {
        self.backoff_limit_per_index.is_some()
    }
}

/// When an Indexed Job may be declared succeeded before all its indexes are: the first rule
/// that the succeeded indexes satisfy.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SuccessPolicy {
    #[serde(default)]
    pub rules: Vec<SuccessPolicyRule>,
}

/// Succeeded when these indexes (`0-2,4`) have, or this many of them (of all indexes when
/// `succeededIndexes` is unset).
#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SuccessPolicyRule {
    pub succeeded_indexes: Option<String>,
    pub succeeded_count: Option<i32>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PodFailurePolicy {
    #[serde(default)]
    pub rules: Vec<PodFailurePolicyRule>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PodFailurePolicyRule {
    /// FailJob, FailIndex, Ignore or Count.
    #[serde(default)]
    pub action: String,
    pub on_exit_codes: Option<PodFailurePolicyOnExitCodesRequirement>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_pod_conditions: Vec<PodFailurePolicyOnPodConditionsPattern>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PodFailurePolicyOnExitCodesRequirement {
    pub container_name: Option<String>,
    /// In or NotIn.
    #[serde(default)]
    pub operator: String,
    #[serde(default)]
    pub values: Vec<i32>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PodFailurePolicyOnPodConditionsPattern {
    #[serde(rename = "type", default)]
    pub type_: String,
    pub status: Option<String>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct JobStatus {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<JobCondition>,
    pub start_time: Option<Time>,
    pub completion_time: Option<Time>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub active: i32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub succeeded: i32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub failed: i32,
    pub terminating: Option<i32>,
    pub completed_indexes: Option<String>,
    pub failed_indexes: Option<String>,
    pub uncounted_terminated_pods: Option<UncountedTerminatedPods>,
    pub ready: Option<i32>,
}

fn is_zero(n: &i32) -> bool {
    *n == 0
}

impl JobStatus {
    pub fn is_empty(&self) -> bool {
        *self == JobStatus::default()
    }

    /// The condition of this type with status True, if any.
    pub fn condition(&self, type_: &str) -> Option<&JobCondition> {
        self.conditions.iter().find(|c| c.type_ == type_ && c.status == "True")
    }

    /// Complete or Failed (upstream `IsJobFinished`): the condition that says so.
    pub fn finished(&self) -> Option<&JobCondition> {
        self.condition("Complete").or_else(|| self.condition("Failed"))
    }
}

/// Pods that finished and lost their tracking finalizer, not yet added to the counts.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UncountedTerminatedPods {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub succeeded: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failed: Vec<String>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct JobCondition {
    #[serde(rename = "type")]
    pub type_: String,
    pub status: String,
    pub last_probe_time: Option<Time>,
    pub last_transition_time: Option<Time>,
    pub reason: Option<String>,
    pub message: Option<String>,
}

/// JobTemplateSpec: what a CronJob stamps its Jobs from.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct JobTemplateSpec {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: JobSpec,
}
