//! The eviction manager's loop, node by node: each housekeeping tick (`synchronize`) observes
//! `memory.available`, keeps MemoryPressure while the threshold was met within the transition
//! period, and while it is met evicts the first-ranked pod (one per pass), then waits for that
//! pod to be cleaned up before looking again. Nothing ticks for a node whose pods did not change
//! and that is not under pressure: a quiet cluster costs nothing. Mirrors eviction_manager.go
//! (`Start`'s loop, `synchronize`, `evictPod`, `waitForPodsCleanup`).

use super::condition::set_memory_pressure;
use super::message::{REASON, eviction_message};
use super::rank::{Candidate, rank_memory_pressure};
use super::signals::{IMMEDIATE_EVICTION_GRACE, MONITORING_INTERVAL, PRESSURE_TRANSITION_PERIOD, Threshold};
use super::summary::NodeSummary;
use crate::api::Node;
use crate::api::meta::Uid;
use crate::kubelet::Kubelet;
use crate::runtime::wakeups::Wakeups;
use crate::sim::time::{Duration, SimTime};
use crate::store::Store;
use crate::store::event_recorder::{EventType, object_reference};
use std::collections::{BTreeMap, BTreeSet};

type Key = (String, String);

/// How often the manager asks whether an evicted pod is gone (`podCleanupPollFreq`).
const POD_CLEANUP_POLL: Duration = Duration::from_secs(1);
/// How long it waits for that at most (`podCleanupTimeout`).
const POD_CLEANUP_TIMEOUT: Duration = Duration::from_secs(30);

/// Every node's eviction manager.
#[derive(Clone, Debug, Default)]
pub struct EvictionManager {
    nodes: BTreeMap<String, NodeState>,
    wakeups: Wakeups<String>,
    /// Pods being evicted, until their containers have stopped and their status says so.
    evicting: BTreeMap<Key, Evicting>,
}

/// One node's manager.
#[derive(Clone, Debug, Default)]
struct NodeState {
    /// When it last looked; its housekeeping ticks fall every 10 s from then.
    last_sync: Option<SimTime>,
    /// When it looks next, if anything can have changed.
    due: Option<SimTime>,
    /// When the threshold was last met (`nodeConditionsLastObservedAt`).
    pressure_observed_at: Option<SimTime>,
    /// Whether it reports MemoryPressure (`nodeConditions`).
    under_pressure: bool,
    /// The pod it evicted and is waiting for, and until when.
    cleanup: Option<(Key, SimTime)>,
}

/// A pod being evicted: the message its status and Event carry, and when SIGKILL comes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evicting {
    pub uid: Uid,
    pub message: String,
    pub kill_at: SimTime,
}

impl EvictionManager {
    /// Something on `node` changed (a pod started, stopped, or uses more): its next
    /// housekeeping tick looks.
    pub fn touch(&mut self, node: &str, now: SimTime) {
        if !self.nodes.contains_key(node) {
            self.nodes.insert(node.to_string(), NodeState::default());
        }
        let state = self.nodes.get_mut(node).expect("inserted above");
        if state.cleanup.is_some() {
            return;
        }
        let tick = next_tick(state.last_sync, now);
        if state.due.is_none_or(|due| due > tick) {
            state.due = Some(tick);
            self.wakeups.add_at(tick, node.to_string());
        }
    }

    pub fn next_wake(&self) -> Option<SimTime> {
        self.wakeups.next()
    }

    pub fn any_due(&self, now: SimTime) -> bool {
        self.wakeups.any_due(now)
    }

    /// Whether the node reports MemoryPressure (`IsUnderMemoryPressure`), which `Admit` reads.
    pub fn under_memory_pressure(&self, node: &str) -> bool {
        self.nodes.get(node).is_some_and(|s| s.under_pressure)
    }

    /// The eviction of the pod with this key and uid, while it is under way.
    pub fn evicting(&self, key: &Key, uid: Uid) -> Option<&Evicting> {
        self.evicting.get(key).filter(|e| e.uid == uid)
    }

    /// The pod's eviction is over: it is Failed, or gone.
    pub fn evicted(&mut self, key: &Key) {
        self.evicting.remove(key);
    }

    /// The nodes whose manager looks now; a node still waiting for its evicted pod polls again.
    fn take_due(&mut self, now: SimTime) -> BTreeSet<String> {
        let mut ready = BTreeSet::new();
        for node in self.wakeups.take_due(now) {
            let Some(state) = self.nodes.get_mut(&node) else { continue };
            if state.due.is_none_or(|due| due > now) {
                continue;
            }
            state.due = None;
            match &state.cleanup {
                Some((pod, gives_up_at)) if self.evicting.contains_key(pod) && *gives_up_at > now => {
                    let at = now.plus(POD_CLEANUP_POLL);
                    state.due = Some(at);
                    self.wakeups.add_at(at, node);
                }
                _ => {
                    state.cleanup = None;
                    ready.insert(node);
                }
            }
        }
        ready
    }

    /// The threshold was met now, or not: returns whether the node is under pressure
    /// (met within the transition period).
    fn observe(&mut self, node: &str, met: bool, now: SimTime) -> bool {
        let state = self.nodes.entry(node.to_string()).or_default();
        state.last_sync = Some(now);
        if met {
            state.pressure_observed_at = Some(now);
        }
        state.under_pressure = state.pressure_observed_at.is_some_and(|at| now.since(at) < PRESSURE_TRANSITION_PERIOD);
        state.under_pressure
    }

    /// When to look again after a pass: soon after an eviction (once the pod is gone), at the
    /// next tick while the threshold is met, when the transition period ends while the
    /// condition holds, else only when something changes (`touch`).
    fn schedule_after(&mut self, node: &str, now: SimTime, met: bool, evicted: Option<Key>) {
        let Some(state) = self.nodes.get_mut(node) else { return };
        let at = match (evicted, met, state.pressure_observed_at) {
            (Some(pod), ..) => {
                state.cleanup = Some((pod, now.plus(POD_CLEANUP_TIMEOUT)));
                now.plus(POD_CLEANUP_POLL)
            }
            (None, true, _) => now.plus(MONITORING_INTERVAL),
            (None, false, Some(seen)) if state.under_pressure => seen.plus(PRESSURE_TRANSITION_PERIOD),
            _ => return,
        };
        state.due = Some(at);
        self.wakeups.add_at(at, node.to_string());
    }
}

/// The first housekeeping tick at or after `now` (strictly after the last look, if any).
fn next_tick(last_sync: Option<SimTime>, now: SimTime) -> SimTime {
    let interval = MONITORING_INTERVAL.as_millis();
    let anchor = last_sync.unwrap_or(SimTime::ZERO);
    let elapsed = now.as_millis().saturating_sub(anchor.as_millis());
    let mut ticks = elapsed.div_ceil(interval);
    if last_sync.is_some() {
        ticks = ticks.max(1);
    }
    SimTime(anchor.as_millis() + ticks * interval)
}

impl Kubelet {
    /// Every node's housekeeping due now: its eviction manager looks, and may evict a pod.
    pub(in crate::kubelet) fn synchronize_evictions(&mut self, store: &mut Store) {
        let now = store.now();
        let mut due = self.eviction.take_due(now);
        due.retain(|node| {
            !self.external.contains(node) && !self.partitioned.contains(node) && !self.powered_off.contains_key(node)
        });
        if due.is_empty() {
            return;
        }
        for (node, summary) in self.summarize(store, &due) {
            let caller = store.act_as(self.node_runtime(&node).user.clone());
            self.synchronize(store, &node, summary);
            store.act_as(caller);
        }
    }

    /// `synchronize` for one node, as its kubelet.
    fn synchronize(&mut self, store: &mut Store, node: &str, summary: NodeSummary) {
        let now = store.now();
        let threshold = Threshold::hard_default();
        let met = threshold.met(&summary.observation);
        let under_pressure = self.eviction.observe(node, met, now);
        let mut evicted = None;
        if met {
            if let Some(object) = store.try_get::<Node>("", node) {
                let reference = object_reference(object);
                let message = "Attempting to reclaim memory".to_string();
                store.record_event(reference, EventType::Warning, "EvictionThresholdMet", message);
            }
            evicted = self.evict_one(store, &threshold, &summary);
        }
        set_memory_pressure(store, node, under_pressure);
        self.eviction.schedule_after(node, now, met, evicted);
    }

    /// Ranks the node's active pods and evicts the first that may be (never a critical one).
    fn evict_one(&mut self, store: &mut Store, threshold: &Threshold, summary: &NodeSummary) -> Option<Key> {
        let mut candidates: Vec<Candidate<'_>> =
            summary.active.iter().map(|p| Candidate { pod: &p.pod, memory_bytes: Some(p.memory_bytes()) }).collect();
        rank_memory_pressure(&mut candidates);
        let first = candidates.iter().find(|c| !super::admit::is_critical(c.pod))?;
        let victim = summary.active.iter().find(|p| p.pod.metadata.uid == first.pod.metadata.uid)?;
        let message = eviction_message(threshold, &summary.observation, &victim.pod, &victim.containers);
        store.record_event(object_reference(&*victim.pod), EventType::Warning, REASON, message.clone());
        let kill_at = store.now().plus(IMMEDIATE_EVICTION_GRACE);
        let evicting = Evicting { uid: victim.pod.metadata.uid, message, kill_at };
        self.eviction.evicting.insert(victim.key.clone(), evicting);
        self.queue.add(victim.key.clone());
        Some(victim.key.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_every_ten_seconds_from_the_last_look() {
        let at = |s: u64| SimTime(s * 1000);
        assert_eq!(next_tick(None, at(0)), at(0));
        assert_eq!(next_tick(None, at(3)), at(10));
        assert_eq!(next_tick(Some(at(10)), at(10)), at(20));
        assert_eq!(next_tick(Some(at(11)), at(25)), at(31));
        assert_eq!(next_tick(Some(at(11)), at(31)), at(31));
    }
}
