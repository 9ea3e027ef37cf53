//! Which pod goes first under memory pressure: pods using more memory than they request, then
//! the lower priority, then the most memory used above the request. Mirrors helpers.go
//! `rankMemoryPressure` (`exceedMemoryRequests`, `priority`, `memory`). Upstream sorts with Go's
//! unstable sort over pods in map order; here ties keep the order the pods came in.

use crate::api::Pod;
use crate::scheduler::framework::types::PodRequests;
use std::cmp::Ordering;

/// A pod the eviction manager may evict, with its working set as the node's summary has it.
#[derive(Clone, Copy, Debug)]
pub struct Candidate<'a> {
    pub pod: &'a Pod,
    /// Every running container's working set, summed; `None` when the summary has no stats.
    pub memory_bytes: Option<u64>,
}

impl Candidate<'_> {
    /// `GetResourceRequestQuantity(pod, memory)`: what the pod asks for, in bytes.
    fn request_bytes(&self) -> i64 {
        PodRequests::of(self.pod).requests.memory
    }

    fn used_bytes(&self) -> Option<i64> {
        self.memory_bytes.map(|bytes| i64::try_from(bytes).unwrap_or(i64::MAX))
    }
}

/// Orders `candidates` for eviction, the first to go first.
pub fn rank_memory_pressure(candidates: &mut [Candidate<'_>]) {
    candidates.sort_by(|a, b| exceed_memory_requests(a, b).then_with(|| priority(a, b)).then_with(|| memory(a, b)));
}

/// `cmpBool`: true sorts before false.
fn true_first(a: bool, b: bool) -> Ordering {
    b.cmp(&a)
}

/// A pod without stats first; then a pod using more than it requests.
fn exceed_memory_requests(a: &Candidate<'_>, b: &Candidate<'_>) -> Ordering {
    let (Some(used_a), Some(used_b)) = (a.used_bytes(), b.used_bytes()) else {
        return true_first(a.memory_bytes.is_none(), b.memory_bytes.is_none());
    };
    true_first(used_a > a.request_bytes(), used_b > b.request_bytes())
}

/// `corev1helpers.PodPriority`: the lower priority first (no priority is 0).
fn priority(a: &Candidate<'_>, b: &Candidate<'_>) -> Ordering {
    a.pod.spec.priority.unwrap_or(0).cmp(&b.pod.spec.priority.unwrap_or(0))
}

/// The larger consumer of memory above its request first.
fn memory(a: &Candidate<'_>, b: &Candidate<'_>) -> Ordering {
    let (Some(used_a), Some(used_b)) = (a.used_bytes(), b.used_bytes()) else {
        return true_first(a.memory_bytes.is_none(), b.memory_bytes.is_none());
    };
    (used_b - b.request_bytes()).cmp(&(used_a - a.request_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::container::Container;
    use crate::api::quantity::Quantity;
    use crate::api::shared::Shared;

    const MIB: u64 = 1024 * 1024;

    /// A pod named `name` whose one container requests `request` (none when empty), at `priority`.
    fn pod(name: &str, request: &str, priority: i32) -> Pod {
        let mut container = Container { name: "main".into(), ..Default::default() };
        if !request.is_empty() {
            container.resources.requests.insert("memory".into(), Quantity::parse(request).unwrap());
        }
        let mut pod = Pod::default();
        pod.metadata.name = name.into();
        pod.spec.priority = Some(priority);
        pod.spec.containers = Shared::new(vec![container]);
        pod
    }

    /// (name, memory request, priority, MiB used or None for no stats), in input order.
    const FIXTURE: &[(&str, &str, i32, Option<u64>)] = &[
        ("guaranteed-under", "1Gi", 0, Some(900)),
        ("burstable-over", "256Mi", 0, Some(6144)),
        ("best-effort-small", "", 0, Some(10)),
        ("best-effort-big", "", 0, Some(8000)),
        ("important-over", "", 1000, Some(9000)),
        ("no-stats", "1Gi", 1000, None),
        ("low-priority-under", "2Gi", -10, Some(100)),
    ];

    #[test]
    fn over_request_first_then_lower_priority_then_most_above_request() {
        let pods: Vec<Pod> = FIXTURE.iter().map(|(name, request, prio, _)| pod(name, request, *prio)).collect();
        let mut candidates: Vec<Candidate<'_>> = pods
            .iter()
            .zip(FIXTURE)
            .map(|(pod, (.., used))| Candidate { pod, memory_bytes: used.map(|mib| mib * MIB) })
            .collect();
        rank_memory_pressure(&mut candidates);
        let order: Vec<&str> = candidates.iter().map(|c| c.pod.metadata.name.as_str()).collect();
        assert_eq!(
            order,
            [
                "no-stats",
                "best-effort-big",
                "burstable-over",
                "best-effort-small",
                "important-over",
                "low-priority-under",
                "guaranteed-under",
            ]
        );
    }
}
