//! The batch group's strategy: Job and CronJob defaulting (pkg/apis/batch/v1/defaults.go), the
//! Job's generated selector (pkg/registry/batch/job/strategy.go `generateSelector`) and their
//! validation (pkg/apis/batch/validation/validation.go).

use super::batch_policies::{self, Fields};
use super::defaults;
use super::validation::{non_negative, pod_spec, selector_and_template, selector_immutable, validate_labels};
use crate::api::job::{
    CONTROLLER_UID_LABEL, JOB_NAME_LABEL, JobSpec, LEGACY_CONTROLLER_UID_LABEL, LEGACY_JOB_NAME_LABEL,
};
use crate::api::label_selector::LabelSelector;
use crate::api::{CronJob, Job};
use crate::controllers::cron_job::schedule;
use crate::error::{FieldError, go_quote};

fn set<T>(field: &mut Option<T>, value: T) {
    if field.is_none() {
        *field = Some(value);
    }
}

/// SetDefaults_Job; a Job without labels takes its template's.
pub fn default_job(job: &mut Job) {
    job_spec(&mut job.spec);
    if job.metadata.labels.is_empty() {
        job.metadata.labels = job.spec.template.metadata.labels.clone();
    }
}

fn job_spec(spec: &mut JobSpec) {
    if spec.completions.is_none() && spec.parallelism.is_none() {
        spec.completions = Some(1);
    }
    set(&mut spec.parallelism, 1);
    set(&mut spec.backoff_limit, if spec.backoff_limit_per_index.is_some() { i32::MAX } else { 6 });
    set(&mut spec.completion_mode, "NonIndexed".to_string());
    set(&mut spec.suspend, false);
    let replacement = if spec.pod_failure_policy.is_some() { "Failed" } else { "TerminatingOrFailed" };
    set(&mut spec.pod_replacement_policy, replacement.to_string());
    if let Some(policy) = &mut spec.pod_failure_policy {
        for pattern in policy.rules.iter_mut().flat_map(|r| r.on_pod_conditions.iter_mut()) {
            set(&mut pattern.status, "True".to_string());
        }
    }
    defaults::pod_spec(&mut spec.template.spec);
}

/// `generateSelector`: unless `manualSelector` is true, the Job is selected by its own uid, and
/// its template carries that and its name, under both the current and the legacy keys.
pub fn generate_selector(job: &mut Job) {
    if job.spec.manual_selector == Some(true) {
        return;
    }
    let uid = job.metadata.uid.to_string();
    let name = job.metadata.name.clone();
    let labels = &mut job.spec.template.metadata.labels;
    for (key, value) in [
        (CONTROLLER_UID_LABEL, &uid),
        (JOB_NAME_LABEL, &name),
        (LEGACY_CONTROLLER_UID_LABEL, &uid),
        (LEGACY_JOB_NAME_LABEL, &name),
    ] {
        labels.insert(key, value.as_str());
    }
    let mut selector = LabelSelector::default();
    selector.match_labels.insert(CONTROLLER_UID_LABEL, uid.as_str());
    job.spec.selector = Some(selector);
    if job.metadata.labels.is_empty() {
        job.metadata.labels = job.spec.template.metadata.labels.clone();
    }
}

/// ValidateJob / ValidateJobUpdate.
pub fn validate_job(job: &Job, old: Option<&Job>) -> Vec<FieldError> {
    let spec = &job.spec;
    let mut causes = Vec::new();
    let generated = spec.manual_selector != Some(true);
    match (old, &spec.selector) {
        // On create a generated selector is filled in once the Job has its uid.
        (None, Some(selector)) if generated => {
            causes.push(FieldError::invalid("spec.selector", selector.format(), "`selector` not auto-generated"))
        }
        (None, None) if generated => {}
        _ => selector_and_template(spec.selector.as_ref(), &spec.template.metadata.labels, "job", &mut causes),
    }
    job_spec_fields(spec, "spec", &mut causes);
    if let Some(old) = old {
        selector_immutable(spec.selector.as_ref(), old.spec.selector.as_ref(), &mut causes);
        if spec.completion_mode != old.spec.completion_mode {
            let mode = spec.completion_mode.clone().unwrap_or_default();
            causes.push(FieldError::invalid("spec.completionMode", go_quote(&mode), "field is immutable"));
        }
        batch_policies::immutable(spec, &old.spec, &Fields("spec"), &mut causes);
    }
    causes
}

/// The spec's own rules, for a Job and a CronJob's job template alike (`validateJobSpec`).
fn job_spec_fields(spec: &JobSpec, path: &str, causes: &mut Vec<FieldError>) {
    let field = |name: &str| format!("{path}.{name}");
    let fields = Fields(path);
    non_negative(spec.parallelism, &field("parallelism"), causes);
    non_negative(spec.completions, &field("completions"), causes);
    non_negative(spec.backoff_limit, &field("backoffLimit"), causes);
    non_negative(spec.ttl_seconds_after_finished, &field("ttlSecondsAfterFinished"), causes);
    if let Some(deadline) = spec.active_deadline_seconds.filter(|d| *d <= 0) {
        causes.push(FieldError::invalid(
            field("activeDeadlineSeconds"),
            deadline.to_string(),
            "must be greater than 0",
        ));
    }
    batch_policies::per_index_limits(spec, &fields, causes);
    match spec.completion_mode.as_deref() {
        None | Some("NonIndexed") => batch_policies::non_indexed_limits(spec, &fields, causes),
        Some("Indexed") => {
            if spec.completions.is_none() {
                causes.push(FieldError::required(field("completions"), "when completion mode is Indexed"));
            }
            batch_policies::indexed_limits(spec, &fields, causes);
        }
        Some(other) => {
            causes.push(FieldError::not_supported(field("completionMode"), other, &["NonIndexed", "Indexed"]))
        }
    }
    if let Some(policy) = &spec.pod_failure_policy {
        batch_policies::pod_failure_policy(spec, policy, &fields, causes);
    }
    if let Some(policy) = &spec.success_policy {
        batch_policies::success_policy(spec, policy, &fields, causes);
    }
    batch_policies::pod_replacement_policy(spec, &fields, causes);
    let template = format!("{path}.template");
    causes.extend(validate_labels(&spec.template.metadata.labels, &format!("{template}.metadata.labels")));
    causes.extend(pod_spec(&spec.template.spec, &format!("{template}.spec")));
    let policy = spec.template.spec.restart_policy.as_deref().unwrap_or("");
    if !matches!(policy, "OnFailure" | "Never") {
        causes.push(FieldError::not_supported(
            format!("{template}.spec.restartPolicy"),
            policy,
            &["OnFailure", "Never"],
        ));
    } else if spec.pod_failure_policy.is_some() && policy != "Never" {
        let detail = "only \"Never\" is supported when podFailurePolicy is specified";
        causes.push(FieldError::invalid(format!("{template}.spec.restartPolicy"), go_quote(policy), detail));
    }
}

/// SetDefaults_CronJob; the job template's pod spec takes the pod defaults.
pub fn default_cron_job(cron_job: &mut CronJob) {
    let spec = &mut cron_job.spec;
    set(&mut spec.concurrency_policy, "Allow".to_string());
    set(&mut spec.suspend, false);
    set(&mut spec.successful_jobs_history_limit, 3);
    set(&mut spec.failed_jobs_history_limit, 1);
    defaults::pod_spec(&mut spec.job_template.spec.template.spec);
}

/// A CronJob's name leaves room for the 11-character suffix of its Jobs' names.
const CRON_JOB_NAME_MAX_LENGTH: usize = 52;

/// ValidateCronJobCreate / ValidateCronJobUpdate.
pub fn validate_cron_job(cron_job: &CronJob) -> Vec<FieldError> {
    let spec = &cron_job.spec;
    let mut causes = Vec::new();
    let name = &cron_job.metadata.name;
    if name.len() > CRON_JOB_NAME_MAX_LENGTH {
        let detail = format!("must be no more than {CRON_JOB_NAME_MAX_LENGTH} characters");
        causes.push(FieldError::invalid("metadata.name", go_quote(name), detail));
    }
    if spec.schedule.is_empty() {
        causes.push(FieldError::required("spec.schedule", ""));
    } else if spec.schedule.contains("TZ") {
        let detail = "cannot use TZ or CRON_TZ in schedule, use timeZone field instead";
        causes.push(FieldError::invalid("spec.schedule", go_quote(&spec.schedule), detail));
    } else if let Err(message) = schedule::parse(&spec.schedule) {
        causes.push(FieldError::invalid("spec.schedule", go_quote(&spec.schedule), message));
    }
    if let Some(zone) = spec.time_zone.as_deref().filter(|z| !is_utc(z)) {
        causes.push(FieldError::invalid("spec.timeZone", go_quote(zone), format!("unknown time zone {zone}")));
    }
    match spec.concurrency_policy.as_deref() {
        None | Some("Allow" | "Forbid" | "Replace") => {}
        Some(other) => {
            causes.push(FieldError::not_supported("spec.concurrencyPolicy", other, &["Allow", "Forbid", "Replace"]))
        }
    }
    if let Some(deadline) = spec.starting_deadline_seconds.filter(|d| *d < 0) {
        causes.push(FieldError::invalid(
            "spec.startingDeadlineSeconds",
            deadline.to_string(),
            "must be greater than or equal to 0",
        ));
    }
    non_negative(spec.successful_jobs_history_limit, "spec.successfulJobsHistoryLimit", &mut causes);
    non_negative(spec.failed_jobs_history_limit, "spec.failedJobsHistoryLimit", &mut causes);
    job_spec_fields(&spec.job_template.spec, "spec.jobTemplate.spec", &mut causes);
    causes
}

/// The zones the lab's clock knows: it keeps no tz database, so only UTC and its aliases.
pub fn is_utc(zone: &str) -> bool {
    matches!(zone, "UTC" | "Etc/UTC" | "Etc/UCT" | "UCT" | "Etc/Universal" | "Universal" | "Zulu" | "Etc/Zulu")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::meta::Uid;

    fn job(json: &str) -> Job {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn a_job_is_defaulted_and_selected_by_its_uid() {
        let mut j = job(r#"{"metadata":{"name":"pi"},"spec":{"template":{"spec":{"restartPolicy":"Never",
            "containers":[{"name":"pi","image":"busybox"}]}}}}"#);
        default_job(&mut j);
        assert!(validate_job(&j, None).is_empty());
        j.metadata.uid = Uid::from_random(1);
        generate_selector(&mut j);
        let uid = j.metadata.uid.to_string();
        assert_eq!((j.spec.completions, j.spec.parallelism, j.spec.backoff_limit), (Some(1), Some(1), Some(6)));
        assert_eq!(j.spec.selector.as_ref().unwrap().match_labels.get(CONTROLLER_UID_LABEL), Some(uid.as_str()));
        assert_eq!(j.metadata.labels.get("job-name"), Some("pi"));
        assert!(validate_job(&j, Some(&j.clone())).is_empty());
    }

    #[test]
    fn restart_policy_always_and_indexed_without_completions_are_refused() {
        let mut j = job(r#"{"metadata":{"name":"pi"},"spec":{"completionMode":"Indexed","parallelism":2,
            "template":{"spec":{"containers":[{"name":"pi","image":"busybox"}]}}}}"#);
        default_job(&mut j);
        let bodies: Vec<String> = validate_job(&j, None).iter().map(|c| format!("{}: {}", c.field, c.body())).collect();
        assert_eq!(
            bodies,
            [
                "spec.completions: Required value: when completion mode is Indexed",
                "spec.template.spec.restartPolicy: Unsupported value: \"Always\": supported values: \"OnFailure\", \"Never\"",
            ]
        );
    }

    #[test]
    fn a_cron_job_schedule_is_checked() {
        let mut cj: CronJob = serde_json::from_str(
            r#"{"metadata":{"name":"hello"},"spec":{"schedule":"every minute","jobTemplate":{"spec":{"template":{"spec":
            {"restartPolicy":"OnFailure","containers":[{"name":"c","image":"busybox"}]}}}}}}"#,
        )
        .unwrap();
        default_cron_job(&mut cj);
        let bodies: Vec<String> = validate_cron_job(&cj).iter().map(|c| format!("{}: {}", c.field, c.body())).collect();
        assert_eq!(
            bodies,
            ["spec.schedule: Invalid value: \"every minute\": expected exactly 5 fields, found 2: [every minute]"]
        );
        assert_eq!(cj.spec.successful_jobs_history_limit, Some(3));
    }
}
