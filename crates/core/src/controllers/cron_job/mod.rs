//! The CronJob controller: at each scheduled time (the lab wakes then; nothing ticks between),
//! a Job from the template, as the concurrency policy allows; finished Jobs noticed, and the
//! oldest trimmed beyond the history limits. Mirrors pkg/controller/cronjob/cronjobcontrollerv2.go
//! (`syncCronJob`, `cleanupFinishedJobs`) and utils.go (`mostRecentScheduleTime`,
//! `getJobFromTemplate2`, `nextScheduleTimeDuration`).

pub mod schedule;

use crate::api::cron_job::SCHEDULED_TIMESTAMP_ANNOTATION;
use crate::api::endpoint_slice::ObjectReference;
use crate::api::meta::{OwnerReference, Time};
use crate::api::{CronJob, Job, Kind, ObjectMeta};
use crate::runtime::informer::{Changes, Informer};
use crate::runtime::wakeups::Wakeups;
use crate::runtime::work_queue::{QueueWorker, WorkQueue};
use crate::sim::time::{Duration, SIM_EPOCH_UNIX_SECONDS, SimTime};
use crate::store::event_recorder::{EventType, object_reference};
use crate::store::{DeleteOptions, Store};

type Key = (String, String);

/// How long after a scheduled time the controller looks (`nextScheduleDelta`).
const NEXT_SCHEDULE_DELTA: Duration = Duration::from_millis(100);
/// Beyond this many missed start times the controller warns (`TooManyMissedTimes`).
const MISSED_TIMES_WARNING: usize = 100;

#[derive(Clone, Debug, Default)]
pub struct CronJobController {
    pub(crate) informer: Informer,
    queue: WorkQueue<Key>,
    wakeups: Wakeups<Key>,
}

impl QueueWorker for CronJobController {
    type Key = Key;

    fn parts(&mut self) -> (&mut WorkQueue<Key>, &mut Wakeups<Key>) {
        (&mut self.queue, &mut self.wakeups)
    }

    fn collect_changes(&mut self, store: &Store) {
        let events = match self.informer.poll(store) {
            Changes::Events(events) => events,
            Changes::Relist => {
                let all = store.list::<CronJob>(None).map(|c| (c.metadata.namespace.clone(), c.metadata.name.clone()));
                self.queue.extend(all);
                return;
            }
        };
        for event in events {
            match (event.kind, &event.controller) {
                (Kind::CronJob, _) => self.queue.add((event.namespace.clone(), event.name.clone())),
                (Kind::Job, Some((Kind::CronJob, owner))) => self.queue.add((event.namespace.clone(), owner.clone())),
                _ => {}
            }
        }
    }

    fn sync_key(&mut self, store: &mut Store, (namespace, name): Key) {
        if let Some(at) = sync_cron_job(store, &namespace, &name) {
            self.wakeups.add_at(at, (namespace, name));
        }
    }
}

impl CronJobController {
    pub fn next_wake(&self) -> Option<SimTime> {
        self.wakeups.next()
    }
}

fn unix_seconds(t: SimTime) -> i64 {
    SIM_EPOCH_UNIX_SECONDS + (t.as_millis() / 1000) as i64
}

fn sim_time(unix: i64) -> SimTime {
    SimTime(((unix - SIM_EPOCH_UNIX_SECONDS).max(0) as u64) * 1000)
}

/// One CronJob; returns when to look again.
fn sync_cron_job(store: &mut Store, namespace: &str, name: &str) -> Option<SimTime> {
    let cron_job = store.try_get::<CronJob>(namespace, name)?.clone();
    let uid = cron_job.metadata.uid;
    let jobs: Vec<Job> = store
        .owned::<Job>(uid)
        .filter(|j| j.metadata.controller_ref().is_some_and(|r| r.uid == uid))
        .cloned()
        .collect();
    let mut updated = cron_job.clone();
    reconcile_active(store, &mut updated, &jobs);
    let requeue = schedule_next(store, &mut updated);
    cleanup_finished_jobs(store, &updated, &jobs);
    if updated.status != cron_job.status {
        let _ = store.update_status(updated);
    }
    requeue
}

/// Finished Jobs leave the active list (`SawCompletedJob`); Jobs it owns but did not start are
/// reported (`UnexpectedJob`), and listed Jobs that are gone dropped (`MissingJob`).
fn reconcile_active(store: &mut Store, cron_job: &mut CronJob, jobs: &[Job]) {
    let reference = object_reference(cron_job);
    for job in jobs {
        let job_uid = Some(job.metadata.uid);
        let found = cron_job.status.active.iter().any(|r| r.uid == job_uid);
        let finished = job.status.finished().map(|c| c.type_.clone());
        match (found, &finished) {
            (false, None) => {
                let message = format!("Saw a job that the controller did not create or forgot: {}", job.metadata.name);
                store.record_event(reference.clone(), EventType::Warning, "UnexpectedJob", message);
            }
            (true, Some(condition)) => {
                cron_job.status.active.retain(|r| r.uid != job_uid);
                let message = format!("Saw completed job: {}, condition: {condition}", job.metadata.name);
                store.record_event(reference.clone(), EventType::Normal, "SawCompletedJob", message);
            }
            _ => {}
        }
        if finished.as_deref() == Some("Complete")
            && let Some(done) = job.status.completion_time
            && cron_job.status.last_successful_time.is_none_or(|t| t.0 < done.0)
        {
            cron_job.status.last_successful_time = Some(done);
        }
    }
    let missing: Vec<ObjectReference> = cron_job
        .status
        .active
        .iter()
        .filter(|r| !jobs.iter().any(|j| Some(j.metadata.uid) == r.uid))
        .cloned()
        .collect();
    for gone in missing {
        let name = gone.name.clone().unwrap_or_default();
        store.record_event(
            reference.clone(),
            EventType::Normal,
            "MissingJob",
            format!("Active job went missing: {name}"),
        );
        cron_job.status.active.retain(|r| r.uid != gone.uid);
    }
}

/// Starts the Job for the most recent unmet schedule, if the policy allows; returns when the
/// next schedule falls due (plus `nextScheduleDelta`).
fn schedule_next(store: &mut Store, cron_job: &mut CronJob) -> Option<SimTime> {
    if cron_job.metadata.deletion_timestamp.is_some() || cron_job.spec.suspend == Some(true) {
        return None;
    }
    let reference = object_reference(cron_job);
    let spec = cron_job.spec.clone();
    let schedule = match schedule::parse(&spec.schedule) {
        Ok(s) => s,
        Err(err) => {
            let message = format!("unparseable schedule: {:?} : {err}", spec.schedule);
            store.record_event(reference, EventType::Warning, "UnparseableSchedule", message);
            return None;
        }
    };
    let now = unix_seconds(store.now());
    let created = cron_job.metadata.creation_timestamp.map_or(0, |t| unix_seconds(t.0));
    let mut earliest = cron_job.status.last_schedule_time.map_or(created, |t| unix_seconds(t.0));
    if let Some(deadline) = spec.starting_deadline_seconds {
        earliest = earliest.max(now - deadline);
    }
    let (most_recent, missed) = most_recent_schedule_time(&schedule, earliest, now);
    let next_at = |after: i64| schedule.next_after(after).map(|t| sim_time(t).plus(NEXT_SCHEDULE_DELTA));
    if missed > MISSED_TIMES_WARNING {
        let message = "too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew";
        store.record_event(reference.clone(), EventType::Warning, "TooManyMissedTimes", message.to_string());
    }
    let Some(scheduled) = most_recent else { return next_at(earliest.max(now)) };
    let requeue = next_at(scheduled);
    if spec.starting_deadline_seconds.is_some_and(|d| scheduled + d < now) {
        let message = format!("Missed scheduled time to start a job: {}", rfc1123z(sim_time(scheduled)));
        store.record_event(reference, EventType::Warning, "MissSchedule", message);
        return requeue;
    }
    let policy = spec.concurrency_policy.as_deref().unwrap_or("Allow");
    if policy == "Forbid" && !cron_job.status.active.is_empty() {
        let message = "Not starting job because prior execution is running and concurrency policy is Forbid";
        store.record_event(reference, EventType::Normal, "JobAlreadyActive", message.to_string());
        return requeue;
    }
    if policy == "Replace" {
        for active in std::mem::take(&mut cron_job.status.active) {
            let name = active.name.clone().unwrap_or_default();
            let namespace = cron_job.metadata.namespace.clone();
            if store.delete::<Job>(&namespace, &name, &DeleteOptions::default()).is_ok() {
                store.record_event(
                    reference.clone(),
                    EventType::Normal,
                    "SuccessfulDelete",
                    format!("Deleted job {name}"),
                );
            }
        }
    }
    match store.create(job_from_template(cron_job, scheduled)) {
        Ok(job) => {
            let message = format!("Created job {}", job.metadata.name);
            store.record_event(reference, EventType::Normal, "SuccessfulCreate", message);
            cron_job.status.active.push(job_reference(&job));
            cron_job.status.last_schedule_time = Some(Time(sim_time(scheduled)));
        }
        Err(crate::error::ApiError::AlreadyExists { .. }) => {}
        Err(err) => {
            let message = format!("Error creating job: {}", err.message());
            store.record_event(reference, EventType::Warning, "FailedCreate", message);
        }
    }
    requeue
}

/// The latest schedule time after `earliest` and not after `now`, and how many there were.
fn most_recent_schedule_time(schedule: &schedule::Schedule, earliest: i64, now: i64) -> (Option<i64>, usize) {
    let (mut most_recent, mut missed, mut after) = (None, 0, earliest);
    // Bounded: a year of minutes at most (a lab left alone that long starts one Job).
    while missed < 527_040 {
        match schedule.next_after(after) {
            Some(t) if t <= now => {
                most_recent = Some(t);
                missed += 1;
                after = t;
            }
            _ => break,
        }
    }
    (most_recent, missed)
}

/// Go's `time.RFC1123Z` for a UTC time: `Wed, 01 Jan 2025 00:10:00 +0000`.
fn rfc1123z(t: SimTime) -> String {
    let ctime = t.to_ctime();
    let parts: Vec<&str> = ctime.split_whitespace().collect();
    match parts.as_slice() {
        [weekday, month, day, clock, year] => format!("{weekday}, {day:0>2} {month} {year} {clock} +0000"),
        _ => ctime,
    }
}

/// `getJobFromTemplate2`: the template's labels and annotations, the scheduled time as an
/// annotation, the name `<cronjob>-<scheduled time in minutes since the Unix epoch>`.
pub fn job_from_template(cron_job: &CronJob, scheduled_unix: i64) -> Job {
    let template = &cron_job.spec.job_template;
    let mut metadata = ObjectMeta {
        name: format!("{}-{}", cron_job.metadata.name, scheduled_unix / 60),
        namespace: cron_job.metadata.namespace.clone(),
        labels: template.metadata.labels.clone(),
        annotations: template.metadata.annotations.clone(),
        ..Default::default()
    };
    metadata.annotations.insert(SCHEDULED_TIMESTAMP_ANNOTATION, sim_time(scheduled_unix).to_rfc3339());
    metadata.owner_references.push(OwnerReference {
        api_version: "batch/v1".to_string(),
        kind: "CronJob".to_string(),
        name: cron_job.metadata.name.clone(),
        uid: cron_job.metadata.uid,
        controller: Some(true),
        block_owner_deletion: Some(true),
    });
    Job { metadata, spec: template.spec.clone(), ..Default::default() }
}

fn job_reference(job: &Job) -> ObjectReference {
    ObjectReference {
        kind: Some("Job".to_string()),
        namespace: Some(job.metadata.namespace.clone()),
        name: Some(job.metadata.name.clone()),
        uid: Some(job.metadata.uid),
        api_version: Some("batch/v1".to_string()),
        resource_version: Some(job.metadata.resource_version.0.to_string()),
        field_path: None,
    }
}

/// Deletes the oldest finished Jobs beyond the history limits (`removeOldestJobs`: by start
/// time, Jobs that never started last).
fn cleanup_finished_jobs(store: &mut Store, cron_job: &CronJob, jobs: &[Job]) {
    let spec = &cron_job.spec;
    for (condition, limit) in
        [("Complete", spec.successful_jobs_history_limit), ("Failed", spec.failed_jobs_history_limit)]
    {
        let Some(limit) = limit else { continue };
        let mut finished: Vec<&Job> =
            jobs.iter().filter(|j| j.status.finished().is_some_and(|c| c.type_ == condition)).collect();
        let excess = finished.len().saturating_sub(limit.max(0) as usize);
        finished.sort_by_key(|j| (j.status.start_time.is_none(), j.status.start_time, j.metadata.name.clone()));
        for job in finished.into_iter().take(excess) {
            let (namespace, name) = (&job.metadata.namespace, &job.metadata.name);
            if store.delete::<Job>(namespace, name, &DeleteOptions::default()).is_ok() {
                let message = format!("Deleted job {name}");
                store.record_event(object_reference(cron_job), EventType::Normal, "SuccessfulDelete", message);
            }
        }
    }
}
