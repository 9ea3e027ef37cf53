//! backoffLimitPerIndex: an Indexed Job counts each index's failures on its pods' annotations,
//! fails an index once they pass the limit, and fails itself once all other indexes are done.
//! Mirrors pkg/controller/job/indexed_job_utils.go (`calculateFailedIndexes`, `isIndexFailed`,
//! `getPodsWithDelayedDeletionPerIndex`, `getNewIndexFailureCounts`) and the failed-index
//! checks of job_controller.go's `syncJob`.

use super::pod_failure_policy::{self, Verdict};
use super::pods::{self, NewPod};
use super::{backoff, has_tracking_finalizer};
use crate::api::job::JobSpec;
use crate::api::job::{JOB_INDEX_FAILURE_COUNT, JOB_INDEX_IGNORED_FAILURE_COUNT};
use crate::api::{Job, Pod};
use crate::sim::time::SimTime;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

pub const MAX_FAILED_INDEXES_EXCEEDED: (&str, &str) =
    ("MaxFailedIndexesExceeded", "Job has exceeded the specified maximal number of failed indexes");
pub const FAILED_INDEXES: (&str, &str) = ("FailedIndexes", "Job has failed indexes");

/// The failures of a pod's index before it, as its annotations carry them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IndexFailureCounts {
    /// Failures counted against backoffLimitPerIndex.
    pub counted: i32,
    /// Failures an Ignore rule of the podFailurePolicy let pass.
    pub ignored: i32,
}

impl IndexFailureCounts {
    /// The pod's annotations; a missing, malformed or negative value reads as 0, as
    /// upstream's `parseIndexFailureCountAnnotation` (a user may have written it).
    pub fn of(pod: &Pod) -> Self {
        let read =
            |key: &str| pod.metadata.annotations.get(key).and_then(|v| v.parse::<i32>().ok()).unwrap_or(0).max(0);
        IndexFailureCounts { counted: read(JOB_INDEX_FAILURE_COUNT), ignored: read(JOB_INDEX_IGNORED_FAILURE_COUNT) }
    }

    /// Every failure, counted or not (`getIndexAbsoluteFailureCount`).
    pub fn absolute(self) -> i32 {
        self.counted.saturating_add(self.ignored)
    }

    /// The counts for the pod replacing `failed`, which adds its own failure to one of them
    /// (`getNewIndexFailureCounts`).
    pub fn after(job: &Job, failed: &Pod) -> Self {
        let mut counts = IndexFailureCounts::of(failed);
        match pod_failure_policy::judge(job.spec.pod_failure_policy.as_ref(), failed).counts() {
            true => counts.counted = counts.counted.saturating_add(1),
            false => counts.ignored = counts.ignored.saturating_add(1),
        }
        counts
    }

    /// The annotations a new pod of the index carries; the ignored count only when non-zero
    /// (`addIndexFailureCountAnnotation`).
    pub fn annotations(self) -> Vec<(&'static str, String)> {
        let mut annotations = vec![(JOB_INDEX_FAILURE_COUNT, self.counted.to_string())];
        if self.ignored > 0 {
            annotations.push((JOB_INDEX_IGNORED_FAILURE_COUNT, self.ignored.to_string()));
        }
        annotations
    }
}

/// Whether this pod's failure fails its index: a FailIndex rule matched, or the failure counts
/// and the index had already failed backoffLimitPerIndex times (`isIndexFailed`).
pub fn is_index_failed(job: &Job, pod: &Pod) -> bool {
    if !backoff::is_failed(pod) {
        return false;
    }
    let verdict = pod_failure_policy::judge(job.spec.pod_failure_policy.as_ref(), pod);
    let limit = job.spec.backoff_limit_per_index.unwrap_or(0);
    verdict == Verdict::FailIndex || (verdict.counts() && IndexFailureCounts::of(pod).counted >= limit)
}

/// `status.failedIndexes` and the indexes of pods not yet counted whose failure fails their
/// index (`calculateFailedIndexes`).
pub fn calculate(job: &Job, pods: &[Arc<Pod>]) -> BTreeSet<i32> {
    let completions = job.spec.completions.unwrap_or(0);
    let mut failed = super::indexed::parse(job.status.failed_indexes.as_deref(), completions);
    let uncounted = pods.iter().filter(|p| has_tracking_finalizer(p));
    failed.extend(uncounted.filter(|p| is_index_failed(job, p)).filter_map(|p| pods::completion_index(p, completions)));
    failed
}

/// What backoffLimitPerIndex needs of one sync: the failed indexes and, per index waiting for a
/// replacement, its last failed pod.
#[derive(Clone, Debug, Default)]
pub struct PerIndex {
    pub failed: BTreeSet<i32>,
    pub awaiting: BTreeMap<i32, Arc<Pod>>,
}

impl PerIndex {
    /// For an Indexed Job with backoffLimitPerIndex, from its status and its pods.
    pub fn of(job: &Job, pods: &[Arc<Pod>]) -> Option<PerIndex> {
        if !job.spec.is_indexed() || !job.spec.has_backoff_limit_per_index() {
            return None;
        }
        let completions = job.spec.completions.unwrap_or(0);
        let index = |p: &Arc<Pod>| pods::completion_index(p, completions);
        let mut succeeded = super::indexed::parse(job.status.completed_indexes.as_deref(), completions);
        let newly_succeeded = pods.iter().filter(|p| has_tracking_finalizer(p) && p.phase() == "Succeeded");
        succeeded.extend(newly_succeeded.filter_map(index));
        let active: BTreeSet<i32> = pods.iter().filter(|p| super::is_active(p)).filter_map(index).collect();
        let failed = calculate(job, pods);
        let states = IndexStates { succeeded: &succeeded, failed: &failed, active: &active };
        let awaiting = awaiting_replacement(job, pods, &states);
        Some(PerIndex { failed, awaiting })
    }

    /// The pods to create for these pending indexes: those whose back-off has passed, each
    /// with its index's failures so far; or, if none has, when the first one's passes
    /// (`getPodCreationInfoForIndependentIndexes`).
    pub fn new_pods(&self, job: &Job, pending: &[i32], now: SimTime) -> Result<Vec<NewPod>, SimTime> {
        let mut ready = Vec::new();
        let mut soonest: Option<SimTime> = None;
        for &index in pending {
            let last_failed = self.awaiting.get(&index);
            let at = last_failed.map(|p| backoff::index_may_create_at(p, IndexFailureCounts::of(p).absolute()));
            match at.filter(|at| *at > now) {
                Some(at) => soonest = Some(soonest.map_or(at, |s| s.min(at))),
                None => {
                    let failure_counts =
                        last_failed.map_or_else(IndexFailureCounts::default, |p| IndexFailureCounts::after(job, p));
                    ready.push(NewPod { index: Some(index), failure_counts: Some(failure_counts) });
                }
            }
        }
        match soonest {
            Some(at) if ready.is_empty() => Err(at),
            _ => Ok(ready),
        }
    }
}

/// The indexes a Job's pods are on now, and how they ended.
pub struct IndexStates<'a> {
    pub succeeded: &'a BTreeSet<i32>,
    pub failed: &'a BTreeSet<i32>,
    pub active: &'a BTreeSet<i32>,
}

/// Per index neither succeeded, failed nor running again, its last failed pod not yet counted:
/// it keeps its tracking finalizer (so it stays) until its replacement carries the index's
/// failure count on (`getPodsWithDelayedDeletionPerIndex`). Of several, the one with the most
/// failures before it, and the latest to finish on a tie.
pub fn awaiting_replacement(job: &Job, pods: &[Arc<Pod>], states: &IndexStates<'_>) -> BTreeMap<i32, Arc<Pod>> {
    let completions = job.spec.completions.unwrap_or(0);
    let mut last_failed: BTreeMap<i32, Arc<Pod>> = BTreeMap::new();
    for pod in pods.iter().filter(|p| has_tracking_finalizer(p) && backoff::is_failed(p)) {
        let Some(index) = pods::completion_index(pod, completions) else { continue };
        if states.succeeded.contains(&index) || states.failed.contains(&index) || states.active.contains(&index) {
            continue;
        }
        let later = |kept: &Pod| {
            IndexFailureCounts::of(kept).absolute() <= IndexFailureCounts::of(pod).absolute()
                && backoff::finished_at(pod) >= backoff::finished_at(kept)
        };
        if last_failed.get(&index).is_none_or(|kept| later(kept)) {
            last_failed.insert(index, pod.clone());
        }
    }
    last_failed
}

/// The failure a Job with backoffLimitPerIndex has come to, if any: more failed indexes than
/// maxFailedIndexes allows, or failed indexes once every other index has succeeded.
pub fn job_failure(spec: &JobSpec, failed: usize, succeeded: usize) -> Option<(&'static str, &'static str)> {
    let completions = usize::try_from(spec.completions.unwrap_or(0)).unwrap_or(0);
    if spec.max_failed_indexes.is_some_and(|max| failed > usize::try_from(max).unwrap_or(0)) {
        Some(MAX_FAILED_INDEXES_EXCEEDED)
    } else if failed > 0 && failed + succeeded >= completions {
        Some(FAILED_INDEXES)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(spec: &str) -> Job {
        serde_json::from_str(&format!(r#"{{"metadata":{{"name":"j"}},"spec":{spec}}}"#)).unwrap()
    }

    /// A pod of the index that failed with `exit_code`, carrying these failure annotations.
    fn failed_pod(name: &str, index: i32, annotations: &str, exit_code: i32, finished_secs: u64) -> Arc<Pod> {
        let finished = crate::api::meta::Time(
            crate::sim::time::SimTime::ZERO.plus(crate::sim::time::Duration::from_secs(finished_secs)),
        );
        let json = format!(
            r#"{{"metadata":{{"name":"{name}","finalizers":["batch.kubernetes.io/job-tracking"],
            "annotations":{{"batch.kubernetes.io/job-completion-index":"{index}"{annotations}}}}},
            "status":{{"phase":"Failed","containerStatuses":[{{"name":"c","state":{{"terminated":
            {{"exitCode":{exit_code},"finishedAt":{}}}}}}}]}}}}"#,
            serde_json::to_string(&finished).unwrap()
        );
        Arc::new(serde_json::from_str(&json).unwrap())
    }

    #[test]
    fn an_index_fails_once_its_counted_failures_reach_the_limit() {
        let j = job(r#"{"completions":4,"completionMode":"Indexed","backoffLimitPerIndex":1}"#);
        let first = failed_pod("j-2-a", 2, r#","batch.kubernetes.io/job-index-failure-count":"0""#, 1, 5);
        let second = failed_pod("j-2-b", 2, r#","batch.kubernetes.io/job-index-failure-count":"1""#, 1, 20);
        assert!(!is_index_failed(&j, &first));
        assert!(is_index_failed(&j, &second));
        assert_eq!(IndexFailureCounts::after(&j, &first), IndexFailureCounts { counted: 1, ignored: 0 });
        assert_eq!(calculate(&j, std::slice::from_ref(&first)), BTreeSet::new());
        assert_eq!(calculate(&j, &[first, second]), BTreeSet::from([2]));
    }

    #[test]
    fn fail_index_fails_at_once_and_ignore_counts_apart() {
        let j =
            job(r#"{"completions":2,"completionMode":"Indexed","backoffLimitPerIndex":3,"podFailurePolicy":{"rules":[
            {"action":"FailIndex","onExitCodes":{"operator":"In","values":[42]}},
            {"action":"Ignore","onExitCodes":{"operator":"In","values":[7]}}]}}"#);
        assert!(is_index_failed(&j, &failed_pod("a", 0, "", 42, 1)));
        let ignored = failed_pod("b", 1, r#","batch.kubernetes.io/job-index-ignored-failure-count":"2""#, 7, 1);
        assert!(!is_index_failed(&j, &ignored));
        let next = IndexFailureCounts::after(&j, &ignored);
        assert_eq!(next, IndexFailureCounts { counted: 0, ignored: 3 });
        let keys: Vec<&str> = next.annotations().iter().map(|(k, _)| *k).collect();
        assert_eq!(keys, [JOB_INDEX_FAILURE_COUNT, JOB_INDEX_IGNORED_FAILURE_COUNT]);
    }

    #[test]
    fn the_last_failure_of_a_waiting_index_is_kept_for_its_replacement() {
        let j = job(r#"{"completions":3,"completionMode":"Indexed","backoffLimitPerIndex":2}"#);
        let pods = [
            failed_pod("older", 0, r#","batch.kubernetes.io/job-index-failure-count":"0""#, 1, 5),
            failed_pod("newer", 0, r#","batch.kubernetes.io/job-index-failure-count":"1""#, 1, 30),
            failed_pod("running-again", 1, "", 1, 5),
            failed_pod("malformed", 2, r#","batch.kubernetes.io/job-index-failure-count":"-3""#, 1, 5),
        ];
        let (succeeded, failed, active) = (BTreeSet::new(), BTreeSet::new(), BTreeSet::from([1]));
        let kept =
            awaiting_replacement(&j, &pods, &IndexStates { succeeded: &succeeded, failed: &failed, active: &active });
        let names: Vec<(i32, &str)> = kept.iter().map(|(i, p)| (*i, p.metadata.name.as_str())).collect();
        assert_eq!(names, [(0, "newer"), (2, "malformed")]);
        assert_eq!(IndexFailureCounts::of(&pods[3]).counted, 0);
    }

    #[test]
    fn the_job_fails_past_max_failed_indexes_or_when_the_rest_are_done() {
        let j = job(r#"{"completions":4,"completionMode":"Indexed","backoffLimitPerIndex":1,"maxFailedIndexes":1}"#);
        assert_eq!(job_failure(&j.spec, 1, 2), None);
        assert_eq!(job_failure(&j.spec, 1, 3), Some(FAILED_INDEXES));
        assert_eq!(job_failure(&j.spec, 2, 0), Some(MAX_FAILED_INDEXES_EXCEEDED));
        assert_eq!(job_failure(&j.spec, 0, 4), None);
    }
}
