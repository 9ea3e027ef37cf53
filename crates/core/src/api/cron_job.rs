//! CronJob (batch/v1): a Job stamped from a template on a cron schedule. Field names and
//! defaults as k8s.io/api/batch/v1 and pkg/apis/batch/v1/defaults.go (SetDefaults_CronJob).

use super::endpoint_slice::ObjectReference;
use super::job::JobTemplateSpec;
use super::meta::{ObjectMeta, Time};
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// The annotation a CronJob's Job carries: the time it was scheduled for, in the CronJob's zone.
pub const SCHEDULED_TIMESTAMP_ANNOTATION: &str = "batch.kubernetes.io/cronjob-scheduled-timestamp";

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CronJob {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: CronJobSpec,
    #[serde(default, skip_serializing_if = "CronJobStatus::is_empty")]
    pub status: CronJobStatus,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CronJobSpec {
    #[serde(default)]
    pub schedule: String,
    pub time_zone: Option<String>,
    pub starting_deadline_seconds: Option<i64>,
    /// Allow, Forbid or Replace.
    pub concurrency_policy: Option<String>,
    pub suspend: Option<bool>,
    /// Boxed: a whole Job spec with its pod template inside, kept off `Object`'s inline size.
    #[serde(default)]
    pub job_template: Box<JobTemplateSpec>,
    pub successful_jobs_history_limit: Option<i32>,
    pub failed_jobs_history_limit: Option<i32>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CronJobStatus {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub active: Vec<ObjectReference>,
    pub last_schedule_time: Option<Time>,
    pub last_successful_time: Option<Time>,
}

impl CronJobStatus {
    pub fn is_empty(&self) -> bool {
        *self == CronJobStatus::default()
    }
}
