//! The Job controller: runs a Job's pods until enough succeed or a successPolicy rule is met,
//! counting each finished pod once through its tracking finalizer, replacing failures after a
//! back-off, and failing the Job past its backoffLimit, its activeDeadlineSeconds, a
//! podFailurePolicy rule or its failed indexes. Mirrors pkg/controller/job/job_controller.go
//! (`syncJob`, `manageJob`, `enactJobFinished`).

pub mod backoff;
pub mod failed_indexes;
pub mod indexed;
pub mod pod_failure_policy;
pub mod pods;
pub mod success_policy;
pub mod tracking;

#[cfg(test)]
mod tests;

use crate::api::job::{JOB_TRACKING_FINALIZER, JobCondition, JobStatus};
use crate::api::meta::Time;
use crate::api::{Job, Kind, Pod};
use crate::runtime::informer::{Changes, Informer};
use crate::runtime::wakeups::Wakeups;
use crate::runtime::work_queue::{QueueWorker, WorkQueue};
use crate::sim::time::{Duration, SimTime};
use crate::store::Store;
use crate::store::event_recorder::{EventType, object_reference};
use failed_indexes::PerIndex;
use pods::NewPod;
use std::collections::BTreeSet;
use std::sync::Arc;
use tracking::Tracking;

type Key = (String, String);

const BACKOFF_LIMIT_EXCEEDED: (&str, &str) = ("BackoffLimitExceeded", "Job has reached the specified backoff limit");
const DEADLINE_EXCEEDED: (&str, &str) = ("DeadlineExceeded", "Job was active longer than specified deadline");
const COMPLETIONS_REACHED: (&str, &str) = ("CompletionsReached", "Reached expected number of succeeded pods");

#[derive(Clone, Debug, Default)]
pub struct JobController {
    pub(crate) informer: Informer,
    queue: WorkQueue<Key>,
    wakeups: Wakeups<Key>,
    /// Pods holding the tracking finalizer, to let go of once their Job is gone.
    tracked_pods: BTreeSet<Key>,
}

impl QueueWorker for JobController {
    type Key = Key;

    fn parts(&mut self) -> (&mut WorkQueue<Key>, &mut Wakeups<Key>) {
        (&mut self.queue, &mut self.wakeups)
    }

    fn collect_changes(&mut self, store: &Store) {
        let events = match self.informer.poll(store) {
            Changes::Events(events) => events,
            Changes::Relist => {
                self.queue.extend(store.list::<Job>(None).map(|j| key(&j.metadata)));
                let tracked = store.list::<Pod>(None).filter(|p| has_tracking_finalizer(p));
                self.tracked_pods.extend(tracked.map(|p| key(&p.metadata)));
                return;
            }
        };
        for event in events {
            let event_key = (event.namespace.clone(), event.name.clone());
            match (event.kind, &event.controller) {
                (Kind::Job, _) => self.queue.add(event_key),
                (Kind::Pod, Some((Kind::Job, owner))) => {
                    self.queue.add((event.namespace.clone(), owner.clone()));
                    self.tracked_pods.insert(event_key);
                }
                _ => {}
            }
        }
    }

    fn sync_key(&mut self, store: &mut Store, (namespace, name): Key) {
        self.sync_job(store, &namespace, &name);
    }
}

fn key(meta: &crate::api::ObjectMeta) -> Key {
    (meta.namespace.clone(), meta.name.clone())
}

fn has_tracking_finalizer(pod: &Pod) -> bool {
    pod.metadata.finalizers.iter().any(|f| f == JOB_TRACKING_FINALIZER)
}

fn is_active(pod: &Pod) -> bool {
    super::active_pods::is_active(pod)
}

fn is_terminating(pod: &Pod) -> bool {
    pod.metadata.deletion_timestamp.is_some() && !matches!(pod.phase(), "Succeeded" | "Failed")
}

impl JobController {
    pub fn next_wake(&self) -> Option<SimTime> {
        self.wakeups.next()
    }

    /// Syncs what changed, then lets go of pods whose Job is gone (upstream's orphan pod
    /// handling in `syncOrphanPod`).
    pub fn sync(&mut self, store: &mut Store) {
        QueueWorker::sync(self, store);
        for (namespace, name) in std::mem::take(&mut self.tracked_pods) {
            let Some(pod) = store.try_get::<Pod>(&namespace, &name).filter(|p| has_tracking_finalizer(p)) else {
                continue;
            };
            let owner = pod.metadata.controller_ref().cloned();
            let job_alive = owner.as_ref().is_some_and(|r| {
                store.try_get::<Job>(&namespace, &r.name).is_some_and(|j| {
                    j.metadata.uid == r.uid && j.metadata.deletion_timestamp.is_none() && j.status.finished().is_none()
                })
            });
            if !job_alive {
                let pod = pod.clone();
                pods::remove_tracking_finalizer(store, &pod);
            }
        }
    }

    fn sync_job(&mut self, store: &mut Store, namespace: &str, name: &str) {
        let Some(job) = store.try_get::<Job>(namespace, name).cloned() else { return };
        let pods = owned_pods(store, &job);
        if job.metadata.deletion_timestamp.is_some() || job.status.finished().is_some() {
            for pod in pods.iter().filter(|p| has_tracking_finalizer(p)) {
                pods::remove_tracking_finalizer(store, pod);
            }
            return;
        }
        let now = store.now();
        let mut status = job.status.clone();
        let suspended = job.spec.suspend == Some(true);
        if status.start_time.is_none() && !suspended {
            status.start_time = Some(Time(now));
        }
        status.uncounted_terminated_pods.get_or_insert_with(Default::default);
        let per_index = PerIndex::of(&job, &pods);
        if let Some(per_index) = &per_index {
            // Written even when empty: a Job counting failures per index always shows them.
            status.failed_indexes = Some(indexed::format(&per_index.failed).unwrap_or_default());
        }
        // An interim condition set earlier means every pod may be let go now.
        let decided = finishing_decided(&status);
        let tracking = Tracking { job: &job, per_index: per_index.as_ref(), finishing: decided.as_ref() };
        let fail_job = tracking.track_finished_pods(store, &pods, &mut status);
        let pods = owned_pods(store, &job);
        let mut sync = JobSync { job: &job, status, now, pods, per_index };
        let finishing = decided.or_else(|| sync.failure(fail_job)).or_else(|| sync.success());
        match finishing {
            Some(condition) => sync.finish(store, condition),
            None if suspended || sync.status.condition("Suspended").is_some() => sync.suspend_or_resume(store),
            None => {
                if let Some(at) = sync.manage(store) {
                    self.wakeups.add_at(at, (namespace.to_string(), name.to_string()));
                }
            }
        }
        if let (Some(start), Some(deadline)) = (sync.status.start_time, job.spec.active_deadline_seconds)
            && sync.status.finished().is_none()
        {
            let at = start.0.plus(Duration::from_secs(deadline.max(0) as u64));
            if at > now {
                self.wakeups.add_at(at, (namespace.to_string(), name.to_string()));
            }
        }
        let status = sync.status;
        if status != job.status {
            let mut updated = job;
            updated.status = status;
            let _ = store.update_status(updated);
        }
    }
}

/// The pods this Job controls.
fn owned_pods(store: &Store, job: &Job) -> Vec<Arc<Pod>> {
    let uid = job.metadata.uid;
    store.owned_shared::<Pod>(uid).filter(|p| p.metadata.controller_ref().is_some_and(|r| r.uid == uid)).collect()
}

/// The end an earlier sync settled on, from its interim condition: SuccessCriteriaMet first,
/// as upstream looks at it first and then judges no failure.
fn finishing_decided(status: &JobStatus) -> Option<Finishing> {
    let (complete, condition) = match status.condition("SuccessCriteriaMet") {
        Some(met) => (true, met),
        None => (false, status.condition("FailureTarget")?),
    };
    let text = |t: &Option<String>| t.clone().unwrap_or_default();
    Some(Finishing { complete, reason: text(&condition.reason), message: text(&condition.message) })
}

/// One sync's view of a Job: the status being written and the pods it owns.
struct JobSync<'a> {
    job: &'a Job,
    status: JobStatus,
    now: SimTime,
    pods: Vec<Arc<Pod>>,
    per_index: Option<PerIndex>,
}

/// The terminal condition a sync is heading for: its type once pods are gone, reason, message.
pub struct Finishing {
    /// Complete (after SuccessCriteriaMet) rather than Failed (after FailureTarget).
    complete: bool,
    reason: String,
    message: String,
}

impl JobSync<'_> {
    fn active(&self) -> Vec<&Arc<Pod>> {
        self.pods.iter().filter(|p| is_active(p)).collect()
    }

    /// A FailJob rule, too many failures, the deadline passed, or failed indexes.
    fn failure(&self, fail_job: Option<String>) -> Option<Finishing> {
        let fail = |(reason, message): (&str, &str)| {
            Some(Finishing { complete: false, reason: reason.to_string(), message: message.to_string() })
        };
        if let Some(message) = fail_job {
            return fail(("PodFailurePolicy", &message));
        }
        let spec = &self.job.spec;
        let backoff_limit = spec.backoff_limit.unwrap_or(6);
        if self.failed() > backoff_limit || self.past_backoff_limit_on_failure(backoff_limit) {
            return fail(BACKOFF_LIMIT_EXCEEDED);
        }
        let past_deadline = match (self.status.start_time, spec.active_deadline_seconds) {
            (Some(start), Some(deadline)) => self.now.since(start.0).as_millis() >= deadline.max(0) as u64 * 1000,
            _ => false,
        };
        if past_deadline && spec.suspend != Some(true) {
            return fail(DEADLINE_EXCEEDED);
        }
        let per_index = self.per_index.as_ref()?;
        failed_indexes::job_failure(spec, per_index.failed.len(), self.succeeded_indexes().len()).and_then(fail)
    }

    /// The failures that count against backoffLimit: those in `status.failed`, and the failed
    /// pods still kept uncounted for their index's replacement (upstream's `jobCtx.failed`
    /// counts every failed pod still holding its finalizer).
    fn failed(&self) -> i32 {
        let policy = self.job.spec.pod_failure_policy.as_ref();
        let awaiting = self.per_index.iter().flat_map(|p| p.awaiting.values());
        let counted = awaiting.filter(|pod| pod_failure_policy::judge(policy, pod).counts()).count();
        self.status.failed.saturating_add(i32::try_from(counted).unwrap_or(i32::MAX))
    }

    /// The completed indexes of an Indexed Job.
    fn succeeded_indexes(&self) -> BTreeSet<i32> {
        indexed::parse(self.status.completed_indexes.as_deref(), self.job.spec.completions.unwrap_or(0))
    }

    /// `pastBackoffLimitOnFailure`: with restartPolicy OnFailure the kubelet restarts failed
    /// containers in place, so their restarts count against backoffLimit.
    fn past_backoff_limit_on_failure(&self, backoff_limit: i32) -> bool {
        if self.job.spec.template.spec.restart_policy.as_deref() != Some("OnFailure") {
            return false;
        }
        let restarts: i32 = self
            .active()
            .iter()
            .flat_map(|p| p.status.container_statuses.iter().chain(p.status.init_container_statuses.iter()))
            .map(|s| s.restart_count)
            .sum();
        if backoff_limit == 0 { restarts > 0 } else { restarts >= backoff_limit }
    }

    /// A successPolicy rule met (Indexed Jobs), or enough pods succeeded.
    fn success(&self) -> Option<Finishing> {
        let spec = &self.job.spec;
        if spec.is_indexed()
            && let Some(message) = success_policy::matched_rule(
                spec.success_policy.as_ref(),
                spec.completions.unwrap_or(0),
                &self.succeeded_indexes(),
            )
        {
            let reason = success_policy::SUCCESS_POLICY_REASON.to_string();
            return Some(Finishing { complete: true, reason, message });
        }
        let complete = match spec.completions {
            Some(completions) => self.status.succeeded >= completions,
            None => self.status.succeeded > 0 && self.active().is_empty(),
        };
        let (reason, message) = COMPLETIONS_REACHED;
        complete.then(|| Finishing { complete: true, reason: reason.to_string(), message: message.to_string() })
    }

    /// The interim condition (FailureTarget or SuccessCriteriaMet) at once; every pod let go
    /// (those a failing Job stops counted as failed); the active pods deleted; the terminal
    /// condition (Failed or Complete) once no pod is left running or terminating.
    fn finish(&mut self, store: &mut Store, finishing: Finishing) {
        let interim = if finishing.complete { "SuccessCriteriaMet" } else { "FailureTarget" };
        if self.status.condition(interim).is_none() {
            self.add_condition(interim, &finishing.reason, &finishing.message);
        }
        let tracking = Tracking { job: self.job, per_index: self.per_index.as_ref(), finishing: Some(&finishing) };
        tracking.track_finished_pods(store, &self.pods, &mut self.status);
        let doomed: Vec<String> = self.active().iter().map(|p| p.metadata.name.clone()).collect();
        pods::delete(store, self.job, &doomed);
        let left = store.owned::<Pod>(self.job.metadata.uid).filter(|p| is_active(p) || is_terminating(p)).count();
        self.status.active = 0;
        self.status.ready = Some(0);
        self.status.terminating = Some(left as i32);
        if left > 0 {
            return;
        }
        let reference = object_reference(self.job);
        if finishing.complete {
            self.add_condition("Complete", &finishing.reason, &finishing.message);
            self.status.completion_time = Some(Time(self.now));
            store.record_event(reference, EventType::Normal, "Completed", "Job completed".to_string());
        } else {
            self.add_condition("Failed", &finishing.reason, &finishing.message);
            store.record_event(reference, EventType::Warning, &finishing.reason, finishing.message);
        }
    }

    fn add_condition(&mut self, type_: &str, reason: &str, message: &str) {
        self.status.conditions.retain(|c| c.type_ != type_);
        self.status.conditions.push(JobCondition {
            type_: type_.to_string(),
            status: "True".to_string(),
            last_probe_time: Some(Time(self.now)),
            last_transition_time: Some(Time(self.now)),
            reason: Some(reason.to_string()),
            message: Some(message.to_string()),
        });
    }

    /// A suspended Job's pods are deleted and it says so; resumed, it starts its clock again.
    fn suspend_or_resume(&mut self, store: &mut Store) {
        let reference = object_reference(self.job);
        if self.job.spec.suspend == Some(true) {
            let doomed: Vec<String> = self.active().iter().map(|p| p.metadata.name.clone()).collect();
            pods::delete(store, self.job, &doomed);
            self.status.active = 0;
            self.status.ready = Some(0);
            if self.status.condition("Suspended").is_none() {
                self.add_condition("Suspended", "JobSuspended", "Job suspended");
                store.record_event(reference, EventType::Normal, "Suspended", "Job suspended".to_string());
            }
            return;
        }
        self.add_condition("Suspended", "JobResumed", "Job resumed");
        if let Some(c) = self.status.conditions.iter_mut().find(|c| c.type_ == "Suspended") {
            c.status = "False".to_string();
        }
        self.status.start_time = Some(Time(self.now));
        store.record_event(reference, EventType::Normal, "Resumed", "Job resumed".to_string());
        self.manage(store);
    }

    /// `manageJob`: as many active pods as parallelism and the remaining completions allow,
    /// new ones only once the failure back-off has passed. Returns when to look again.
    fn manage(&mut self, store: &mut Store) -> Option<SimTime> {
        let spec = &self.job.spec;
        let active = self.active();
        let parallelism = spec.parallelism.unwrap_or(1).max(0);
        let want = match spec.completions {
            None if self.status.succeeded > 0 => active.len() as i32,
            None => parallelism,
            Some(completions) => (completions - self.status.succeeded).clamp(0, parallelism),
        } as usize;
        let ready = active.iter().filter(|p| p.is_ready()).count() as i32;
        let terminating = self.pods.iter().filter(|p| is_terminating(p)).count() as i32;
        let mut wake = None;
        let mut count = active.len();
        if active.len() > want {
            // Unscheduled and newest first, as `activePods` sorts them for deletion.
            let mut doomed: Vec<&Arc<Pod>> = active.clone();
            doomed.sort_by_key(|p| (p.node_name().is_some(), std::cmp::Reverse(p.metadata.creation_timestamp)));
            let names: Vec<String> = doomed.iter().take(active.len() - want).map(|p| p.metadata.name.clone()).collect();
            pods::delete(store, self.job, &names);
            count = want;
        } else if active.len() < want {
            let missing = (want - active.len()).min(pods::MAX_POD_CREATE_DELETE_PER_SYNC);
            match self.new_pods(&active, missing) {
                Ok(new_pods) => count += pods::create(store, self.job, &new_pods),
                Err(at) => wake = Some(at),
            }
        }
        self.status.active = count as i32;
        self.status.ready = Some(ready);
        self.status.terminating = Some(terminating);
        wake
    }

    /// The pods to create now, or when the failure back-off lets the Job create them: one
    /// back-off for the whole Job, or with backoffLimitPerIndex one per index.
    fn new_pods(&self, active: &[&Arc<Pod>], missing: usize) -> Result<Vec<NewPod>, SimTime> {
        let spec = &self.job.spec;
        if let Some(per_index) = &self.per_index {
            return per_index.new_pods(self.job, &self.pending_indexes(active, missing), self.now);
        }
        if let Some(at) = backoff::may_create_at(&self.pods).filter(|at| *at > self.now) {
            return Err(at);
        }
        if !spec.is_indexed() {
            return Ok(vec![NewPod::default(); missing]);
        }
        let pending = self.pending_indexes(active, missing);
        Ok(pending.into_iter().map(|index| NewPod { index: Some(index), failure_counts: None }).collect())
    }

    /// The lowest indexes neither completed, failed nor held by an active pod
    /// (`firstPendingIndexes`).
    fn pending_indexes(&self, active: &[&Arc<Pod>], missing: usize) -> Vec<i32> {
        let completions = self.job.spec.completions.unwrap_or(0);
        let mut done = self.succeeded_indexes();
        done.extend(self.per_index.iter().flat_map(|p| p.failed.iter().copied()));
        let held: BTreeSet<i32> = active.iter().filter_map(|p| pods::completion_index(p, completions)).collect();
        indexed::first_pending(completions, &done, &held, missing)
    }
}
