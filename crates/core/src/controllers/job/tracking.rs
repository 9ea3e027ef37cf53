//! Counting each finished pod of a Job once: its uid into `uncountedTerminatedPods`, its
//! tracking finalizer off, then into the counts, in three writes as upstream makes them. A
//! failed pod whose index awaits its replacement keeps its finalizer; once the Job is finishing
//! every pod is let go. Mirrors pkg/controller/job/job_controller.go
//! (`trackJobStatusAndRemoveFinalizers`, `canRemoveFinalizer`, `flushUncountedAndRemoveFinalizers`).

use super::failed_indexes::PerIndex;
use super::pod_failure_policy::{self, Verdict};
use super::{Finishing, backoff, has_tracking_finalizer, indexed, pods};
use crate::api::job::{JobStatus, UncountedTerminatedPods};
use crate::api::{Job, Pod};
use crate::store::Store;
use std::sync::Arc;

/// What a sync knows of the Job while it counts its pods.
pub struct Tracking<'a> {
    pub job: &'a Job,
    /// With backoffLimitPerIndex: the failed indexes and the pods kept for their replacements.
    pub per_index: Option<&'a PerIndex>,
    /// Where the Job is heading, once that is known (upstream's `finishedCondition`).
    pub finishing: Option<&'a Finishing>,
}

/// The pods one pass lets go of, and what they add to the counts.
#[derive(Default)]
struct Released {
    pods: Vec<Arc<Pod>>,
    succeeded: Vec<String>,
    failed: Vec<String>,
    /// A podFailurePolicy FailJob rule's message, if one matched.
    fail_job: Option<String>,
}

impl Tracking<'_> {
    /// Counts the pods that finished since the last sync and lets go of them. Returns a
    /// podFailurePolicy FailJob rule's message, if one matched.
    pub fn track_finished_pods(&self, store: &mut Store, pods: &[Arc<Pod>], status: &mut JobStatus) -> Option<String> {
        let completions = self.job.spec.completions.unwrap_or(0);
        let mut completed = indexed::parse(status.completed_indexes.as_deref(), completions);
        let mut released = Released::default();
        for pod in pods.iter().filter(|p| has_tracking_finalizer(p)) {
            self.release(pod, &mut completed, &mut released);
        }
        if released.pods.is_empty() {
            return None;
        }
        let uncounted =
            UncountedTerminatedPods { succeeded: released.succeeded.clone(), failed: released.failed.clone() };
        let mut recording = self.job.clone();
        recording.status = status.clone();
        recording.status.uncounted_terminated_pods = Some(uncounted);
        let _ = store.update_status(recording);
        for pod in &released.pods {
            pods::remove_tracking_finalizer(store, pod);
        }
        status.succeeded += released.succeeded.len() as i32;
        status.failed += released.failed.len() as i32;
        if self.job.spec.is_indexed() {
            status.completed_indexes = indexed::format(&completed);
        }
        status.uncounted_terminated_pods = Some(UncountedTerminatedPods::default());
        released.fail_job
    }

    /// Lets go of one pod still holding its finalizer, if it may, and counts it.
    fn release(&self, pod: &Arc<Pod>, completed: &mut std::collections::BTreeSet<i32>, released: &mut Released) {
        let failed = backoff::is_failed(pod);
        if !self.can_remove_finalizer(pod, failed) {
            return;
        }
        released.pods.push(pod.clone());
        let uid = pod.metadata.uid.to_string();
        let index = pods::completion_index(pod, self.job.spec.completions.unwrap_or(0));
        if pod.phase() == "Succeeded" {
            // An Indexed Job counts an index once, however many of its pods succeeded.
            if !self.job.spec.is_indexed() || index.is_some_and(|i| completed.insert(i)) {
                released.succeeded.push(uid);
            }
            return;
        }
        // A Job failing counts every pod it stops as failed; one succeeding, only those that
        // failed on their own. A pod of an Indexed Job without a valid index is not counted.
        let failing = self.finishing.is_some_and(|f| !f.complete);
        if !(failed || failing) || (self.job.spec.is_indexed() && index.is_none()) {
            return;
        }
        match pod_failure_policy::judge(self.job.spec.pod_failure_policy.as_ref(), pod) {
            Verdict::Ignore => {}
            Verdict::FailJob(message) if failed => {
                released.failed.push(uid);
                released.fail_job.get_or_insert(message);
            }
            _ => released.failed.push(uid),
        }
    }

    /// `canRemoveFinalizer`: a succeeded pod, any pod of a finishing Job, or a failed pod not
    /// kept for its index's replacement.
    fn can_remove_finalizer(&self, pod: &Pod, failed: bool) -> bool {
        if self.finishing.is_some() || pod.phase() == "Succeeded" {
            return true;
        }
        let kept = |per_index: &PerIndex| per_index.awaiting.values().any(|p| p.metadata.uid == pod.metadata.uid);
        failed && !self.per_index.is_some_and(kept)
    }
}
