//! The scheduling queue: activeQ (by priority, then arrival), backoffQ (1s doubling to 10s per
//! failed attempt) and the unschedulable pods, moved back when a cluster event could help the
//! plugins that rejected them, or after 5 minutes regardless.
//! Mirrors pkg/scheduler/backend/queue/scheduling_queue.go (PriorityQueue).

use crate::scheduler::framework::cluster_event::ClusterEvent;
use crate::scheduler::framework::registry::Profile;
use crate::scheduler::framework::types::PodKey;
use crate::sim::time::{Duration, SimTime};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet};

pub const POD_INITIAL_BACKOFF: Duration = Duration::from_secs(1);
pub const POD_MAX_BACKOFF: Duration = Duration::from_secs(10);
/// `podMaxInUnschedulablePodsDuration`.
pub const POD_MAX_IN_UNSCHEDULABLE_PODS: Duration = Duration::from_secs(300);
/// How often upstream's `flushUnschedulablePodsLeftover` runs.
const FLUSH_PERIOD: Duration = Duration::from_secs(30);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Location {
    Active { priority: i32, seq: u64 },
    Backoff { until: SimTime, seq: u64 },
    Unschedulable { since: SimTime, seq: u64 },
    InFlight,
}

#[derive(Clone, Debug)]
struct QueuedPod {
    location: Location,
    priority: i32,
    attempts: u32,
    last_attempt: SimTime,
    /// The plugins that rejected it last time (empty: any event may help).
    rejectors: Vec<&'static str>,
    /// A digest of what a user can change (labels, spec), to spot real updates.
    fingerprint: u64,
}

#[derive(Clone, Debug, Default)]
pub struct SchedulingQueue {
    pods: BTreeMap<PodKey, QueuedPod>,
    active: BTreeSet<(Reverse<i32>, u64, PodKey)>,
    backoff: BTreeSet<(SimTime, u64, PodKey)>,
    /// Unschedulable pods by the time they became so (only these are looked at on events).
    unschedulable: BTreeSet<(SimTime, u64, PodKey)>,
    seq: u64,
}

/// Upstream `calculateBackoffDuration`: 1s, doubled per further attempt, at most 10s.
pub fn backoff_duration(attempts: u32) -> Duration {
    let mut duration = POD_INITIAL_BACKOFF.0;
    for _ in 1..attempts {
        if duration > POD_MAX_BACKOFF.0 - duration {
            return POD_MAX_BACKOFF;
        }
        duration += duration;
    }
    Duration(duration)
}

impl SchedulingQueue {
    pub fn len(&self) -> usize {
        self.pods.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pods.is_empty()
    }

    pub fn contains(&self, key: &PodKey) -> bool {
        self.pods.contains_key(key)
    }

    /// A pending pod was seen: queue it if new; an unschedulable pod that was edited goes back.
    pub fn add_or_update(&mut self, key: PodKey, priority: i32, fingerprint: u64, now: SimTime) {
        match self.pods.get_mut(&key) {
            None => {
                let pod = QueuedPod {
                    location: Location::InFlight,
                    priority,
                    attempts: 0,
                    last_attempt: now,
                    rejectors: Vec::new(),
                    fingerprint,
                };
                self.pods.insert(key.clone(), pod);
                self.push_active(key);
            }
            Some(pod) if pod.fingerprint != fingerprint => {
                pod.fingerprint = fingerprint;
                pod.priority = priority;
                if matches!(pod.location, Location::Unschedulable { .. }) {
                    self.move_to_active_or_backoff(&key, now);
                }
            }
            Some(_) => {}
        }
    }

    fn push_active(&mut self, key: PodKey) {
        self.seq += 1;
        let Some(pod) = self.pods.get_mut(&key) else { return };
        pod.location = Location::Active { priority: pod.priority, seq: self.seq };
        self.active.insert((Reverse(pod.priority), self.seq, key));
    }

    fn detach(&mut self, key: &PodKey) {
        let Some(pod) = self.pods.get(key) else { return };
        match pod.location {
            Location::Active { priority, seq } => {
                self.active.remove(&(Reverse(priority), seq, key.clone()));
            }
            Location::Backoff { until, seq } => {
                self.backoff.remove(&(until, seq, key.clone()));
            }
            Location::Unschedulable { since, seq } => {
                self.unschedulable.remove(&(since, seq, key.clone()));
            }
            Location::InFlight => {}
        }
    }

    /// The pod is no longer pending (bound, deleted, or handed to another scheduler).
    pub fn forget(&mut self, key: &PodKey) {
        self.detach(key);
        self.pods.remove(key);
    }

    /// Drops every pod `keep` rejects (after a relist).
    pub fn retain(&mut self, keep: impl Fn(&PodKey) -> bool) {
        let dropped: Vec<PodKey> = self.pods.keys().filter(|k| !keep(k)).cloned().collect();
        for key in dropped {
            self.forget(&key);
        }
    }

    /// The highest-priority, longest-waiting active pod; it is in flight until `done`/`failed`.
    pub fn pop(&mut self) -> Option<PodKey> {
        let (_, _, key) = self.active.pop_first()?;
        if let Some(pod) = self.pods.get_mut(&key) {
            pod.location = Location::InFlight;
        }
        Some(key)
    }

    /// Attempts made so far for a pod (this one included once `failed` is called).
    pub fn attempts(&self, key: &PodKey) -> u32 {
        self.pods.get(key).map_or(0, |p| p.attempts)
    }

    /// A failed attempt: the pod waits among the unschedulable pods (or in backoff when no
    /// plugin said why, as for an error).
    pub fn failed(&mut self, key: &PodKey, rejectors: Vec<&'static str>, now: SimTime) {
        self.seq += 1;
        let Some(pod) = self.pods.get_mut(key) else { return };
        pod.attempts += 1;
        pod.last_attempt = now;
        let to_backoff = rejectors.is_empty();
        pod.rejectors = rejectors;
        pod.location = Location::Unschedulable { since: now, seq: self.seq };
        self.unschedulable.insert((now, self.seq, key.clone()));
        if to_backoff {
            self.move_to_active_or_backoff(key, now);
        }
    }

    fn move_to_active_or_backoff(&mut self, key: &PodKey, now: SimTime) {
        self.detach(key);
        let Some(pod) = self.pods.get_mut(key) else { return };
        let until = pod.last_attempt.plus(backoff_duration(pod.attempts));
        if pod.attempts > 0 && until > now {
            self.seq += 1;
            pod.location = Location::Backoff { until, seq: self.seq };
            self.backoff.insert((until, self.seq, key.clone()));
        } else {
            self.push_active(key.clone());
        }
    }

    /// Upstream `MoveAllToActiveOrBackoffQueue` for pods whose rejectors (as `profile` says)
    /// care about `event`.
    pub fn move_all_on_event(&mut self, event: ClusterEvent, now: SimTime, profile: &Profile) {
        let keys: Vec<PodKey> = self
            .unschedulable
            .iter()
            .filter(|(_, _, key)| {
                self.pods
                    .get(key)
                    .is_some_and(|p| p.rejectors.is_empty() || p.rejectors.iter().any(|r| profile.requeue_on(r, event)))
            })
            .map(|(_, _, key)| key.clone())
            .collect();
        for key in keys {
            self.move_to_active_or_backoff(&key, now);
        }
    }

    /// Backoffs that ended go active; pods unschedulable for over 5 minutes are retried.
    pub fn flush(&mut self, now: SimTime) {
        while let Some((until, _, _)) = self.backoff.first() {
            if *until > now {
                break;
            }
            if let Some((_, _, key)) = self.backoff.pop_first() {
                self.push_active(key);
            }
        }
        while let Some((since, _, key)) = self.unschedulable.first() {
            if flush_due(*since) > now {
                break;
            }
            let key = key.clone();
            self.move_to_active_or_backoff(&key, now);
        }
    }

    pub fn has_active(&self) -> bool {
        !self.active.is_empty()
    }

    /// When the queue next needs the scheduler without any cluster change.
    pub fn next_wake(&self) -> Option<SimTime> {
        let backoff = self.backoff.first().map(|(until, _, _)| *until);
        let flush = self.unschedulable.first().map(|(since, _, _)| flush_due(*since));
        [backoff, flush].into_iter().flatten().min()
    }
}

/// The first periodic flush at which a pod unschedulable since `since` has waited over 5 minutes.
fn flush_due(since: SimTime) -> SimTime {
    let earliest = since.plus(POD_MAX_IN_UNSCHEDULABLE_PODS).0 + 1;
    let period = FLUSH_PERIOD.0;
    SimTime(earliest.div_ceil(period) * period)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_from_one_second_up_to_ten() {
        let secs: Vec<u64> = (1..=6).map(|a| backoff_duration(a).as_secs()).collect();
        assert_eq!(secs, [1, 2, 4, 8, 10, 10]);
    }

    #[test]
    fn higher_priority_pops_first_then_arrival_order() {
        let mut q = SchedulingQueue::default();
        let key = |n: &str| ("default".to_string(), n.to_string());
        q.add_or_update(key("a"), 0, 0, SimTime::ZERO);
        q.add_or_update(key("b"), 10, 0, SimTime::ZERO);
        q.add_or_update(key("c"), 0, 0, SimTime::ZERO);
        let order: Vec<String> = std::iter::from_fn(|| q.pop()).map(|k| k.1).collect();
        assert_eq!(order, ["b", "a", "c"]);
    }
}
