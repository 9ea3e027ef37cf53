//! `kubectl describe job` and `kubectl describe cronjob`: a Job's spec, times and pod counts;
//! a CronJob's schedule, limits, job template and active Jobs. Mirrors `describeJob`,
//! `describeCronJob` and `describeJobTemplate` in staging/src/k8s.io/kubectl/pkg/describe/describe.go.

use super::containers::describe_pod_template;
use super::events::{self, EventQuery};
use super::pod::controlled_by;
use super::{Describer, LEVEL_0, PrefixWriter, annotations_multiline, labels_multiline, rfc1123z};
use crate::api::job::JobTemplateSpec;
use crate::api::{CronJob, Job};
use crate::kubectl::age::human_duration;
use crate::sim::time::SimTime;

pub fn describe_job(describer: &Describer<'_>, job: &Job) -> String {
    let mut w = PrefixWriter::default();
    let (meta, spec, status) = (&job.metadata, &job.spec, &job.status);
    w.write(LEVEL_0, &format!("Name:\t{}\n", meta.name));
    w.write(LEVEL_0, &format!("Namespace:\t{}\n", meta.namespace));
    w.write(LEVEL_0, &format!("Selector:\t{}\n", spec.selector.as_ref().map_or(String::new(), |s| s.format())));
    labels_multiline(&mut w, "", "Labels", &meta.labels);
    annotations_multiline(&mut w, "Annotations", &meta.annotations);
    if let Some(controller) = controlled_by(meta) {
        w.write(LEVEL_0, &format!("Controlled By:\t{controller}\n"));
    }
    if let Some(parallelism) = spec.parallelism {
        w.write(LEVEL_0, &format!("Parallelism:\t{parallelism}\n"));
    }
    let completions = spec.completions.map_or("<unset>".to_string(), |c| c.to_string());
    w.write(LEVEL_0, &format!("Completions:\t{completions}\n"));
    if let Some(mode) = &spec.completion_mode {
        w.write(LEVEL_0, &format!("Completion Mode:\t{mode}\n"));
    }
    if let Some(suspend) = spec.suspend {
        w.write(LEVEL_0, &format!("Suspend:\t{suspend}\n"));
    }
    if let Some(limit) = spec.backoff_limit {
        w.write(LEVEL_0, &format!("Backoff Limit:\t{limit}\n"));
    }
    if let Some(ttl) = spec.ttl_seconds_after_finished {
        w.write(LEVEL_0, &format!("TTL Seconds After Finished:\t{ttl}\n"));
    }
    if status.start_time.is_some() {
        w.write(LEVEL_0, &format!("Start Time:\t{}\n", rfc1123z(status.start_time)));
    }
    if status.completion_time.is_some() {
        w.write(LEVEL_0, &format!("Completed At:\t{}\n", rfc1123z(status.completion_time)));
    }
    if let (Some(start), Some(end)) = (status.start_time, status.completion_time) {
        let whole_seconds = |t: SimTime| SimTime(t.as_millis() / 1000 * 1000);
        w.write(
            LEVEL_0,
            &format!("Duration:\t{}\n", human_duration(whole_seconds(end.0).since(whole_seconds(start.0)))),
        );
    }
    if let Some(deadline) = spec.active_deadline_seconds {
        w.write(LEVEL_0, &format!("Active Deadline Seconds:\t{deadline}s\n"));
    }
    let (active, succeeded, failed) = (status.active, status.succeeded, status.failed);
    let pods = match status.ready {
        None => format!("{active} Active / {succeeded} Succeeded / {failed} Failed"),
        Some(ready) => format!("{active} Active ({ready} Ready) / {succeeded} Succeeded / {failed} Failed"),
    };
    w.write(LEVEL_0, &format!("Pods Statuses:\t{pods}\n"));
    if spec.is_indexed() {
        w.write(LEVEL_0, &format!("Completed Indexes:\t{}\n", cap_indexes(status.completed_indexes.as_deref(), 50)));
    }
    describe_pod_template(&mut w, &spec.template);
    events::describe(&mut w, describer, events::search(describer, &EventQuery::for_object(job)));
    w.finish()
}

/// `capIndexesListOrNone`: at most about `soft_limit` characters, cut after a whole interval.
fn cap_indexes(indexes: Option<&str>, soft_limit: usize) -> String {
    let indexes = indexes.unwrap_or("");
    if indexes.is_empty() {
        return "<none>".to_string();
    }
    match indexes.get(soft_limit..).and_then(|rest| rest.find(',')) {
        Some(comma) => format!("{}...", &indexes[..soft_limit + comma + 1]),
        None => indexes.to_string(),
    }
}

pub fn describe_cron_job(describer: &Describer<'_>, cron_job: &CronJob) -> String {
    let mut w = PrefixWriter::default();
    let (meta, spec, status) = (&cron_job.metadata, &cron_job.spec, &cron_job.status);
    let unset = || "<unset>".to_string();
    w.write(LEVEL_0, &format!("Name:\t{}\n", meta.name));
    w.write(LEVEL_0, &format!("Namespace:\t{}\n", meta.namespace));
    labels_multiline(&mut w, "", "Labels", &meta.labels);
    annotations_multiline(&mut w, "Annotations", &meta.annotations);
    w.write(LEVEL_0, &format!("Schedule:\t{}\n", spec.schedule));
    w.write(LEVEL_0, &format!("Concurrency Policy:\t{}\n", spec.concurrency_policy.clone().unwrap_or_default()));
    // describe.go's printBoolPtr: `True`/`False`, as Go's strings.Title does.
    let suspend = spec.suspend.map_or_else(unset, |s| if s { "True" } else { "False" }.to_string());
    w.write(LEVEL_0, &format!("Suspend:\t{suspend}\n"));
    w.write(LEVEL_0, &format!("Time Zone:\t{}\n", spec.time_zone.clone().unwrap_or_else(unset)));
    let limit = |l: Option<i32>| l.map_or_else(unset, |l| l.to_string());
    w.write(LEVEL_0, &format!("Successful Job History Limit:\t{}\n", limit(spec.successful_jobs_history_limit)));
    w.write(LEVEL_0, &format!("Failed Job History Limit:\t{}\n", limit(spec.failed_jobs_history_limit)));
    let deadline = spec.starting_deadline_seconds.map_or_else(unset, |d| format!("{d}s"));
    w.write(LEVEL_0, &format!("Starting Deadline Seconds:\t{deadline}\n"));
    describe_job_template(&mut w, &spec.job_template);
    let last = status.last_schedule_time.map_or_else(unset, |t| rfc1123z(Some(t)));
    w.write(LEVEL_0, &format!("Last Schedule Time:\t{last}\n"));
    let active: Vec<&str> = status.active.iter().map(|r| r.name.as_deref().unwrap_or("")).collect();
    let active = if active.is_empty() { "<none>".to_string() } else { active.join(", ") };
    w.write(LEVEL_0, &format!("Active Jobs:\t{active}\n"));
    events::describe(&mut w, describer, events::search(describer, &EventQuery::for_object(cron_job)));
    w.finish()
}

fn describe_job_template(w: &mut PrefixWriter, template: &JobTemplateSpec) {
    let spec = &template.spec;
    let selector = spec.selector.as_ref().map_or("<unset>".to_string(), |s| s.format());
    w.write(LEVEL_0, &format!("Selector:\t{selector}\n"));
    let or_unset = |n: Option<i32>| n.map_or("<unset>".to_string(), |n| n.to_string());
    w.write(LEVEL_0, &format!("Parallelism:\t{}\n", or_unset(spec.parallelism)));
    w.write(LEVEL_0, &format!("Completions:\t{}\n", or_unset(spec.completions)));
    if let Some(deadline) = spec.active_deadline_seconds {
        w.write(LEVEL_0, &format!("Active Deadline Seconds:\t{deadline}s\n"));
    }
    describe_pod_template(w, &spec.template);
}

#[cfg(test)]
mod tests {
    use super::cap_indexes;

    #[test]
    fn long_index_lists_are_cut_after_a_whole_interval() {
        assert_eq!(cap_indexes(None, 50), "<none>");
        assert_eq!(cap_indexes(Some("0-2,4"), 3), "0-2,...");
        assert_eq!(cap_indexes(Some("0-2,4"), 50), "0-2,4");
    }
}
