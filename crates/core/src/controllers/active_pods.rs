//! Which pods count, and which go first when there are too many: upstream's
//! `controller.FilterActivePods`, `podutil.IsPodAvailable` and `ActivePodsWithRanks` with
//! LogarithmicScaleDown (pkg/controller/controller_utils.go).

use crate::api::Pod;
use crate::sim::time::SimTime;
use std::cmp::Ordering;

/// Annotation whose integer value makes a pod cheaper (lower) or dearer to delete.
pub const POD_DELETION_COST: &str = "controller.kubernetes.io/pod-deletion-cost";

/// Not finished (Succeeded/Failed) and not being deleted: the pods a controller counts.
pub fn is_active(pod: &Pod) -> bool {
    !matches!(pod.phase(), "Succeeded" | "Failed") && pod.metadata.deletion_timestamp.is_none()
}

/// When the pod last became Ready, if it is Ready.
pub fn ready_since(pod: &Pod) -> Option<SimTime> {
    let ready = pod.status.conditions.iter().find(|c| c.type_ == "Ready" && c.status == "True")?;
    Some(ready.last_transition_time.map_or(SimTime::ZERO, |t| t.0))
}

/// Ready for longer than `min_ready_seconds` (upstream compares with `Before`, so strictly).
pub fn is_available(pod: &Pod, min_ready_seconds: i32, now: SimTime) -> bool {
    match ready_since(pod) {
        None => false,
        Some(_) if min_ready_seconds <= 0 => true,
        Some(since) => since.as_millis() + min_ready_seconds as u64 * 1000 < now.as_millis(),
    }
}

/// When a ready pod becomes available, if that is still ahead of `now`.
pub fn becomes_available_at(pod: &Pod, min_ready_seconds: i32, now: SimTime) -> Option<SimTime> {
    let since = ready_since(pod)?;
    let at = SimTime(since.as_millis() + min_ready_seconds.max(0) as u64 * 1000 + 1);
    (min_ready_seconds > 0 && at > now).then_some(at)
}

/// A pod with its rank: how many related active pods share its node (doubled-up pods go first).
pub struct RankedPod<'a> {
    pub pod: &'a Pod,
    pub rank: usize,
}

/// Upstream `ActivePodsWithRanks.Less`: true when `a` should be deleted before `b`.
pub fn delete_first(a: &RankedPod<'_>, b: &RankedPod<'_>, now: SimTime) -> Ordering {
    let (p, q) = (a.pod, b.pod);
    // 1. Unassigned before assigned.
    (p.node_name().is_some().cmp(&q.node_name().is_some()))
        // 2. Pending before Unknown before Running.
        .then_with(|| phase_rank(p).cmp(&phase_rank(q)))
        // 3. Not ready before ready.
        .then_with(|| p.is_ready().cmp(&q.is_ready()))
        // 4. Lower pod-deletion-cost first.
        .then_with(|| deletion_cost(p).cmp(&deletion_cost(q)))
        // 5. More related pods on the same node first.
        .then_with(|| b.rank.cmp(&a.rank))
        // 6. Ready more recently first (log2 buckets).
        .then_with(|| match (ready_since(p), ready_since(q)) {
            (Some(x), Some(y)) => log_bucket(now, x).cmp(&log_bucket(now, y)),
            _ => Ordering::Equal,
        })
        // 7. More restarts first.
        .then_with(|| max_restarts(q).cmp(&max_restarts(p)))
        // 8. Newer first (log2 buckets).
        .then_with(|| log_bucket(now, created(p)).cmp(&log_bucket(now, created(q))))
        // 9. Ties broken by uid.
        .then_with(|| p.metadata.uid.0.cmp(&q.metadata.uid.0))
}

fn phase_rank(pod: &Pod) -> u8 {
    match pod.phase() {
        "Pending" => 0,
        "Unknown" => 1,
        "Running" => 2,
        _ => 3,
    }
}

fn deletion_cost(pod: &Pod) -> i64 {
    pod.metadata.annotations.get(POD_DELETION_COST).and_then(|v| v.parse().ok()).unwrap_or(0)
}

fn max_restarts(pod: &Pod) -> i32 {
    pod.status.container_statuses.iter().map(|c| c.restart_count).max().unwrap_or(0)
}

fn created(pod: &Pod) -> SimTime {
    pod.metadata.creation_timestamp.map_or(SimTime::ZERO, |t| t.0)
}

/// Upstream `logarithmicRankDiff`'s per-pod term: floor(log2(age in nanoseconds)), −1 for none.
fn log_bucket(now: SimTime, then: SimTime) -> i64 {
    let nanos = now.since(then).as_millis().saturating_mul(1_000_000);
    if nanos == 0 { -1 } else { i64::from(nanos.ilog2()) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::ObjectMeta;
    use crate::api::meta::{Time, Uid};
    use crate::api::pod::{ContainerStatus, PodCondition};

    fn pod(name: &str, node: Option<&str>, phase: &str, ready_at: Option<u64>, created_at: u64) -> Pod {
        let mut pod = Pod { metadata: ObjectMeta::named("default", name), ..Default::default() };
        pod.metadata.uid = Uid(name.bytes().map(u128::from).sum());
        pod.metadata.creation_timestamp = Some(Time(SimTime(created_at * 1000)));
        pod.spec.node_name = node.map(str::to_string);
        pod.status.phase = Some(phase.to_string());
        if let Some(at) = ready_at {
            pod.status.conditions.push(PodCondition {
                type_: "Ready".into(),
                status: "True".into(),
                last_transition_time: Some(Time(SimTime(at * 1000))),
                ..Default::default()
            });
        }
        pod
    }

    fn order(pods: &[Pod], now: u64) -> Vec<&str> {
        let mut ranked: Vec<RankedPod> = pods.iter().map(|pod| RankedPod { pod, rank: 0 }).collect();
        ranked.sort_by(|a, b| delete_first(a, b, SimTime(now * 1000)));
        ranked.iter().map(|r| r.pod.metadata.name.as_str()).collect()
    }

    #[test]
    fn unscheduled_then_pending_then_unready_then_newest_ready() {
        let pods = [
            pod("old-ready", Some("n1"), "Running", Some(10), 0),
            pod("new-ready", Some("n1"), "Running", Some(990), 980),
            pod("unready", Some("n1"), "Running", None, 500),
            pod("pending", Some("n1"), "Pending", None, 990),
            pod("unscheduled", None, "Pending", None, 10),
        ];
        assert_eq!(order(&pods, 1000), vec!["unscheduled", "pending", "unready", "new-ready", "old-ready"]);
    }

    #[test]
    fn restarts_and_deletion_cost_break_ties() {
        let mut crashy = pod("crashy", Some("n1"), "Running", Some(100), 0);
        crashy.status.container_statuses.push(ContainerStatus { restart_count: 4, ..Default::default() });
        let mut precious = pod("precious", Some("n1"), "Running", Some(100), 0);
        precious.metadata.annotations.insert(POD_DELETION_COST, "100");
        let plain = pod("plain", Some("n1"), "Running", Some(100), 0);
        assert_eq!(order(&[precious, plain, crashy], 1000), vec!["crashy", "plain", "precious"]);
    }

    #[test]
    fn availability_waits_for_min_ready_seconds() {
        let p = pod("p", Some("n1"), "Running", Some(10), 0);
        assert!(is_available(&p, 0, SimTime(10_000)));
        assert!(!is_available(&p, 5, SimTime(15_000)));
        assert!(is_available(&p, 5, SimTime(15_001)));
        assert_eq!(becomes_available_at(&p, 5, SimTime(12_000)), Some(SimTime(15_001)));
    }
}
