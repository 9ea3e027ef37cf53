//! The delay before a Job replaces failed pods: 10 s after the first failure since the last
//! success (or, with backoffLimitPerIndex, the index's first failure), doubling with each further
//! one, at most 10 minutes. Mirrors pkg/controller/job/backoff_utils.go (`backoffRecord`,
//! `getRemainingTime`, `getRemainingTimePerIndex`) with `DefaultJobPodFailureBackOff` and
//! `MaxJobPodFailureBackOff` from job_controller.go.

use crate::api::Pod;
use crate::sim::time::{Duration, SimTime};
use std::sync::Arc;

pub const DEFAULT_JOB_POD_FAILURE_BACK_OFF: Duration = Duration::from_secs(10);
pub const MAX_JOB_POD_FAILURE_BACK_OFF: Duration = Duration::from_secs(600);

/// When a pod finished: its containers' latest `finishedAt`, else when it was deleted, else
/// when it was created (upstream `getFinishedTime`).
pub fn finished_at(pod: &Pod) -> SimTime {
    let containers = pod.status.container_statuses.iter().chain(pod.status.init_container_statuses.iter());
    containers
        .filter_map(|s| s.state.terminated.as_ref()?.finished_at.map(|t| t.0))
        .max()
        .or_else(|| pod.metadata.deletion_timestamp.map(|t| t.0))
        .or_else(|| pod.metadata.creation_timestamp.map(|t| t.0))
        .unwrap_or(SimTime::ZERO)
}

/// When the Job may create pods again: the last failure plus the back-off for the failures
/// since the last success; `None` when nothing failed since.
pub fn may_create_at(pods: &[Arc<Pod>]) -> Option<SimTime> {
    let last_success = pods.iter().filter(|p| p.phase() == "Succeeded").map(|p| finished_at(p)).max();
    let failures: Vec<SimTime> = pods
        .iter()
        .filter(|p| is_failed(p))
        .map(|p| finished_at(p))
        .filter(|at| last_success.is_none_or(|s| *at > s))
        .collect();
    let last_failure = failures.iter().max()?;
    Some(last_failure.plus(delay(failures.len() as u32)))
}

/// With backoffLimitPerIndex, when an index may get a replacement for its last failed pod:
/// that pod's finish plus the back-off for its index's failures so far, itself included
/// (upstream `getRemainingTimePerIndex`).
pub fn index_may_create_at(last_failed: &Pod, failures_before: i32) -> SimTime {
    let failures = u32::try_from(failures_before).unwrap_or(0).saturating_add(1);
    finished_at(last_failed).plus(delay(failures))
}

/// Failed, or deleted before it could succeed (upstream `isPodFailed`).
pub fn is_failed(pod: &Pod) -> bool {
    pod.phase() == "Failed" || (pod.metadata.deletion_timestamp.is_some() && pod.phase() != "Succeeded")
}

/// 10 s × 2^(failures−1), at most 10 minutes.
pub fn delay(failures: u32) -> Duration {
    let exponent = failures.saturating_sub(1).min(16);
    let millis = DEFAULT_JOB_POD_FAILURE_BACK_OFF.as_millis().saturating_mul(1 << exponent);
    Duration::from_millis(millis.min(MAX_JOB_POD_FAILURE_BACK_OFF.as_millis()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_delay_doubles_from_ten_seconds_up_to_ten_minutes() {
        let secs: Vec<u64> = (1..=8).map(|n| delay(n).as_secs()).collect();
        assert_eq!(secs, [10, 20, 40, 80, 160, 320, 600, 600]);
    }
}
