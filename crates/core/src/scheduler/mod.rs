//! kube-scheduler: assigns each pending pod to a node. Filter plugins say where it may go, score
//! plugins where it is best, preemption makes room for more important pods, and every decision
//! is kept with its reasons. Mirrors pkg/scheduler (scheduler.go, schedule_one.go) with the
//! default plugin set; runs as a controller (`sync` + `next_wake`).

pub mod config;
pub mod decision;
pub mod framework;
pub mod plugins;
pub mod schedule_one;

#[cfg(test)]
mod tests;

use crate::api::pod::PodCondition;
use crate::api::{Kind, Pod};
use crate::runtime::informer::{Changes, Informer};
use crate::sim::time::SimTime;
use crate::store::event_recorder::{EventType, object_reference};
use crate::store::{DeleteOptions, Store};
use config::SchedulerConfig;
use config::config_map::ConfigSource;
pub use decision::{Decision, NodeNames, NodeScores, NodeVerdict, Outcome};
use framework::cache::{Cache, PodChange};
use framework::cluster_event::ClusterEvent;
use framework::cycle_state::{CycleState, Nomination};
use framework::fit_error::FitError;
use framework::registry::Permit;
use framework::scheduling_queue::SchedulingQueue;
use framework::types::{PodKey, PodRequests};
use framework::waiting_pods::{WaitingPod, WaitingPods};
use plugins::default_preemption::{Candidate, PostFilter};
use schedule_one::{Scratch, schedule_pod, select_host};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::hash::{DefaultHasher, Hash, Hasher};

pub const DEFAULT_SCHEDULER_NAME: &str = "default-scheduler";
/// Decisions kept for the UI: the most recent pods' last attempts.
const DECISIONS_KEPT: usize = 256;

#[derive(Clone, Debug, Default)]
pub struct Scheduler {
    synced: bool,
    pub(crate) informer: Informer,
    cache: Cache,
    queue: SchedulingQueue,
    nominations: BTreeMap<PodKey, Nomination>,
    next_start_node_index: usize,
    scratch: Scratch,
    decisions: BTreeMap<PodKey, Decision>,
    decision_order: VecDeque<PodKey>,
    /// Pods holding a node while they wait at Permit.
    waiting: WaitingPods,
    /// Its profiles, from the kube-scheduler-config ConfigMap (or the defaults).
    config: ConfigSource,
}

/// A pod this scheduler must place: unassigned, not being deleted, not finished, and asking for
/// one of its profiles (`default-scheduler` unless configured otherwise).
pub fn needs_scheduling(pod: &Pod, config: &SchedulerConfig) -> bool {
    pod.node_name().is_none()
        && pod.metadata.deletion_timestamp.is_none()
        && config.profile(pod.spec.scheduler_name.as_deref().unwrap_or(DEFAULT_SCHEDULER_NAME)).is_some()
        && !matches!(pod.phase(), "Succeeded" | "Failed")
}

/// The profile a pod asks for, whose name its scheduling Events report under.
fn profile_name(pod: &Pod) -> &str {
    pod.spec.scheduler_name.as_deref().unwrap_or(DEFAULT_SCHEDULER_NAME)
}

fn key_of(pod: &Pod) -> PodKey {
    (pod.metadata.namespace.clone(), pod.metadata.name.clone())
}

/// What a user can change on a pending pod that may make it schedulable (labels and spec).
fn fingerprint(pod: &Pod) -> u64 {
    let mut hasher = DefaultHasher::new();
    pod.metadata.labels.hash(&mut hasher);
    pod.metadata.generation.hash(&mut hasher);
    // Upstream's UpdatePodGeneratedResourceClaim: the claims made for it are its to use now.
    for status in &pod.status.resource_claim_statuses {
        (&status.name, &status.resource_claim_name).hash(&mut hasher);
    }
    hasher.finish()
}

impl Scheduler {
    /// Schedules every pod that is due: new pending pods, and retries whose back-off ended or
    /// whose rejection a cluster change may have lifted.
    pub fn sync(&mut self, store: &mut Store) {
        let mut unlimited = usize::MAX;
        self.sync_some(store, &mut unlimited);
    }

    /// `sync`, stopping once `budget` pods have been scheduled; true when the queue ran dry.
    /// Every round starts by observing the store, so the next call simply goes on: a sync in
    /// parts schedules what one sync schedules, in the same order.
    pub fn sync_some(&mut self, store: &mut Store, budget: &mut usize) -> bool {
        if self.config.refresh(store) {
            // As a scheduler restarted with a new file: it lists every pod again, so pods that
            // ask for a profile it just gained join the queue.
            self.synced = false;
        }
        self.expire_waiting(store);
        loop {
            self.observe(store);
            self.queue.flush(store.now());
            let Some(key) = self.queue.pop() else { return true };
            self.schedule_one(store, key);
            *budget = budget.saturating_sub(1);
            if *budget == 0 {
                return false;
            }
        }
    }

    /// When a back-off ends or the 5-minute flush of unschedulable pods is due.
    pub fn next_wake(&self) -> Option<SimTime> {
        [self.queue.next_wake(), self.waiting.next_deadline()].into_iter().flatten().min()
    }

    /// Pods waiting at Permit, with the node each holds.
    pub fn waiting_pods(&self) -> impl Iterator<Item = (&PodKey, &WaitingPod)> {
        self.waiting.iter()
    }

    /// The last scheduling decision for a pod, with every evaluated node's verdict and scores.
    pub fn decision(&self, namespace: &str, name: &str) -> Option<&Decision> {
        self.decisions.get(&(namespace.to_string(), name.to_string()))
    }

    /// Pods waiting to be scheduled (active, backing off, or unschedulable).
    pub fn pending_count(&self) -> usize {
        self.queue.len()
    }

    /// The filters' verdict for placing `pod` on `node_name` now, e.g. `Err(["Insufficient cpu"])`.
    pub fn check_node(store: &Store, pod: &Pod, node_name: &str) -> Result<(), Vec<String>> {
        let mut cache = Cache::default();
        cache.relist(store);
        let Some((node, fit)) = cache.node_and_fit(node_name) else {
            return Err(vec![format!("nodes \"{node_name}\" not found")]);
        };
        let state = plugins::DEFAULT_PROFILE.cycle_state(store, &cache, &BTreeMap::new(), pod);
        schedule_one::run_filters(&state, node, fit).map_err(|s| s.reasons.iter().map(str::to_string).collect())
    }

    /// Consumes the watch log since the cursor (a relist when it fell behind).
    fn observe(&mut self, store: &Store) {
        if !self.synced {
            return self.relist(store);
        }
        if self.informer.is_caught_up(store) {
            return;
        }
        let events: Vec<(Kind, String, String)> = match self.informer.poll(store) {
            Changes::Events(events) => events
                .filter(|e| {
                    matches!(
                        e.kind,
                        Kind::Pod
                            | Kind::Node
                            | Kind::ResourceClaim
                            | Kind::ResourceSlice
                            | Kind::DeviceClass
                            | Kind::PersistentVolumeClaim
                            | Kind::PersistentVolume
                            | Kind::StorageClass
                    )
                })
                .map(|e| (e.kind, e.namespace.clone(), e.name.clone()))
                .collect(),
            Changes::Relist => return self.relist(store),
        };
        let mut devices_changed = false;
        let mut volumes_changed = false;
        for (kind, namespace, name) in events {
            match kind {
                Kind::Node => self.on_node(store, &name),
                Kind::Pod => self.on_pod(store, &namespace, &name),
                Kind::PersistentVolumeClaim | Kind::PersistentVolume | Kind::StorageClass => volumes_changed = true,
                _ => devices_changed = true,
            }
        }
        if volumes_changed {
            self.queue.move_all_on_event(ClusterEvent::VolumeChange, store.now(), &plugins::DEFAULT_PROFILE);
        }
        // However many claims, slices and classes changed, the rejected pods move once.
        if devices_changed {
            self.queue.move_all_on_event(ClusterEvent::DeviceChange, store.now(), &plugins::DEFAULT_PROFILE);
        }
    }

    fn relist(&mut self, store: &Store) {
        self.cache.relist(store);
        self.informer.listed(store);
        self.synced = true;
        let now = store.now();
        self.reassume_waiting(store);
        let pending: Vec<&Pod> = store
            .list::<Pod>(None)
            .filter(|p| needs_scheduling(p, &self.config.current))
            .filter(|p| !self.waiting.contains(&key_of(p)))
            .collect();
        let keep: BTreeSet<PodKey> =
            pending.iter().map(|p| (p.metadata.namespace.clone(), p.metadata.name.clone())).collect();
        self.nominations.retain(|key, _| keep.contains(key));
        for pod in pending {
            let key = (pod.metadata.namespace.clone(), pod.metadata.name.clone());
            self.note_nomination(&key, pod);
            self.queue.add_or_update(key, pod.spec.priority.unwrap_or(0), fingerprint(pod), now);
        }
        let waiting = &self.waiting;
        self.queue.retain(|key| keep.contains(key) || waiting.contains(key));
        // What changed while it was behind is unknown: every rejected pod gets another try, as
        // the events a relist synthesizes would give it.
        self.queue.move_all_on_event(ClusterEvent::NodeUpdate, now, &plugins::DEFAULT_PROFILE);
        self.queue.move_all_on_event(ClusterEvent::AssignedPodDelete, now, &plugins::DEFAULT_PROFILE);
    }

    /// After a relist the cache holds only what the store says: pods still waiting at Permit
    /// hold their nodes again (upstream's assumed pods outlive a relist); the others are gone.
    fn reassume_waiting(&mut self, store: &Store) {
        let keys: Vec<PodKey> = self.waiting.iter().map(|(k, _)| k.clone()).collect();
        for key in keys {
            match store.try_get::<Pod>(&key.0, &key.1).filter(|p| needs_scheduling(p, &self.config.current)) {
                Some(pod) => {
                    let mut assumed = pod.clone();
                    assumed.spec.node_name = self.waiting.get(&key).map(|w| w.node.clone());
                    self.cache.add_pod(&assumed);
                }
                None => {
                    self.waiting.remove(&key);
                    self.queue.forget(&key);
                }
            }
        }
    }

    fn note_nomination(&mut self, key: &PodKey, pod: &Pod) {
        if let Some(node) = pod.status.nominated_node_name.as_deref().filter(|n| !n.is_empty()) {
            let nomination = Nomination {
                node: node.to_string(),
                priority: pod.spec.priority.unwrap_or(0),
                requests: PodRequests::of(pod).requests,
            };
            self.nominations.insert(key.clone(), nomination);
        }
    }

    fn on_node(&mut self, store: &Store, name: &str) {
        let now = store.now();
        match store.try_get::<crate::api::Node>("", name) {
            Some(node) => {
                let known = self.cache.node(name).is_some();
                if self.cache.upsert_node(node) {
                    let event = if known { ClusterEvent::NodeUpdate } else { ClusterEvent::NodeAdd };
                    self.queue.move_all_on_event(event, now, &plugins::DEFAULT_PROFILE);
                }
            }
            None => {
                self.cache.remove_node(name);
            }
        }
    }

    fn on_pod(&mut self, store: &Store, namespace: &str, name: &str) {
        let now = store.now();
        let event = match self.cache.observe_pod(store, namespace, name) {
            PodChange::Unchanged => None,
            PodChange::Added => Some(ClusterEvent::AssignedPodAdd),
            PodChange::Updated => Some(ClusterEvent::AssignedPodUpdate),
            PodChange::Removed => Some(ClusterEvent::AssignedPodDelete),
        };
        if let Some(event) = event {
            self.queue.move_all_on_event(event, now, &plugins::DEFAULT_PROFILE);
        }
        let key = (namespace.to_string(), name.to_string());
        let pending = store.try_get::<Pod>(namespace, name).filter(|p| needs_scheduling(p, &self.config.current));
        if self.waiting.contains(&key) {
            if pending.is_none() {
                // Deleted (or bound by someone else) while it waited: its node is free again.
                self.waiting.remove(&key);
                self.cache.forget_assumed(&key);
                self.cache.observe_pod(store, namespace, name);
                self.queue.forget(&key);
            }
            return;
        }
        match pending {
            Some(pod) => {
                self.note_nomination(&key, pod);
                self.queue.add_or_update(key, pod.spec.priority.unwrap_or(0), fingerprint(pod), now);
            }
            None => {
                self.queue.forget(&key);
                self.nominations.remove(&key);
            }
        }
    }

    /// One scheduling cycle for one pod, then its binding or failure handling.
    fn schedule_one(&mut self, store: &mut Store, key: PodKey) {
        // A shared handle: the cycle state reads the pod while Reserve and Bind write the store.
        let config = &self.config.current;
        let Some(pod) = store.try_get_shared::<Pod>(&key.0, &key.1).filter(|p| needs_scheduling(p, config)) else {
            self.queue.forget(&key);
            return;
        };
        let profile = config.profile(pod.spec.scheduler_name.as_deref().unwrap_or(DEFAULT_SCHEDULER_NAME));
        let scoring = profile.and_then(|p| p.scoring.clone());
        let score_weights = profile.and_then(|p| p.score_weights);
        let attempt = self.queue.attempts(&key) + 1;
        let uid = pod.metadata.uid;
        if !plugins::dynamic_resources::pre_enqueue(store, &pod) {
            // Upstream's PreEnqueue: not tried at all (no event) until its claims exist.
            self.queue.failed(&key, vec![plugins::dynamic_resources::NAME], store.now());
            return;
        }
        let mut state = plugins::DEFAULT_PROFILE.cycle_state(store, &self.cache, &self.nominations, &pod);
        state.scoring = scoring;
        state.score_weights = score_weights;
        if let Some(message) = state.scheduler_error.take() {
            return self.handle_error(store, &key, message);
        }
        let result = schedule_pod(store, &self.cache, &state, &mut self.scratch, &mut self.next_start_node_index);
        let post_filter = match &result {
            Err((fit_error, verdicts)) => {
                let rejected: Vec<usize> = verdicts.iter().map(|v| v.node as usize).collect();
                let preemption = plugins::default_preemption::preempt(store, &self.cache, &state, fit_error, &rejected);
                Some(plugins::dynamic_resources::post_filter(&state, preemption))
            }
            Ok(_) => None,
        };
        let nomination =
            Nomination { node: String::new(), priority: state.priority, requests: state.requests.requests.clone() };
        let now = store.now();
        let decision = match result {
            Ok(result) => {
                let outcome = self.bind(store, &key, &state, &result.best);
                Decision {
                    pod_uid: uid,
                    at: now,
                    attempt,
                    num_all_nodes: self.cache.node_count(),
                    node_names: self.cache.node_names().clone(),
                    nodes: result.verdicts,
                    rejections: result.rejections,
                    score_weights: schedule_one::score_weights(&state),
                    outcome,
                }
            }
            Err((fit_error, verdicts)) => {
                let rejections = fit_error.statuses.clone();
                let outcome = self.handle_failure(store, &key, fit_error, post_filter, nomination);
                Decision {
                    pod_uid: uid,
                    at: now,
                    attempt,
                    num_all_nodes: self.cache.node_count(),
                    node_names: self.cache.node_names().clone(),
                    nodes: verdicts,
                    rejections,
                    score_weights: schedule_one::score_weights(&state),
                    outcome,
                }
            }
        };
        self.record_decision(key, decision);
    }

    /// The chosen host's Reserve and Permit, then the binding cycle (done at once) through the
    /// profile's Bind plugin, and `Scheduled`. A failure after Reserve unreserves.
    fn bind(&mut self, store: &mut Store, key: &PodKey, state: &CycleState, best: &[usize]) -> Outcome {
        let Some(node) = select_host(store, &self.cache, best) else {
            self.queue.failed(key, Vec::new(), store.now());
            return Outcome::Unschedulable { message: "no host selected".into() };
        };
        let profile = &plugins::DEFAULT_PROFILE;
        if let Err(status) = profile.run_reserve(store, state, &node) {
            self.queue.failed(key, vec![status.plugin], store.now());
            return Outcome::Unschedulable { message: status.message() };
        }
        let refused = match profile.run_permit(store, state, &node, &self.waiting) {
            Permit::Allow => None,
            Permit::Reject(status) => Some((status.plugin, status.message())),
            Permit::Wait(wait, plugin) => {
                self.wait_at_permit(store, key, state.pod, &node, wait, plugin);
                return Outcome::Waiting { node: node.to_string() };
            }
        };
        if let Some((plugin, message)) = refused {
            profile.run_unreserve(store, state, &node, profile.reserve.len());
            self.queue.failed(key, vec![plugin], store.now());
            return Outcome::Unschedulable { message };
        }
        match profile.run_bind(store, state.pod, &node) {
            Ok(bound) => {
                self.cache.add_pod(&bound);
                self.queue.forget(key);
                self.nominations.remove(key);
                self.queue.move_all_on_event(ClusterEvent::AssignedPodAdd, store.now(), &plugins::DEFAULT_PROFILE);
                let message = format!("Successfully assigned {}/{} to {node}", key.0, key.1);
                let reference = object_reference(&bound);
                store.record_event_from(profile_name(&bound), reference, EventType::Normal, "Scheduled", message);
                self.release_waiting(store);
                Outcome::Bound { node: node.to_string() }
            }
            Err(error) => {
                // Upstream's binding-cycle failure: forget the assumption, retry after back-off.
                profile.run_unreserve(store, state, &node, profile.reserve.len());
                self.queue.failed(key, Vec::new(), store.now());
                Outcome::Unschedulable { message: error.message() }
            }
        }
    }

    /// The pod holds `node` (assumed in the cache) and waits at Permit until allowed or timed out.
    fn wait_at_permit(
        &mut self,
        store: &Store,
        key: &PodKey,
        pod: &Pod,
        node: &str,
        wait: crate::sim::time::Duration,
        plugin: &'static str,
    ) {
        let mut assumed = pod.clone();
        assumed.spec.node_name = Some(node.to_string());
        self.cache.add_pod(&assumed);
        let group = plugins::coscheduling::group_of(store, pod).map(str::to_string);
        let deadline = store.now().plus(wait);
        self.waiting.insert(key.clone(), WaitingPod { node: node.to_string(), plugin, wait, deadline, group });
    }

    /// After a bind, every waiting pod whose Permit now allows it binds too, at this instant
    /// (the last member of a gang lets all of them go).
    fn release_waiting(&mut self, store: &mut Store) {
        if self.waiting.is_empty() {
            return;
        }
        let keys: Vec<PodKey> = self.waiting.iter().map(|(k, _)| k.clone()).collect();
        for key in keys {
            let Some(waiting) = self.waiting.get(&key).cloned() else { continue };
            let Some(pod) = store.try_get_shared::<Pod>(&key.0, &key.1) else { continue };
            let state = plugins::DEFAULT_PROFILE.cycle_state(store, &self.cache, &self.nominations, &pod);
            if plugins::DEFAULT_PROFILE.run_permit(store, &state, &waiting.node, &self.waiting) != Permit::Allow {
                continue;
            }
            self.waiting.remove(&key);
            self.cache.forget_assumed(&key);
            match plugins::DEFAULT_PROFILE.run_bind(store, &pod, &waiting.node) {
                Ok(bound) => {
                    self.cache.add_pod(&bound);
                    self.queue.forget(&key);
                    self.nominations.remove(&key);
                    let message = format!("Successfully assigned {}/{} to {}", key.0, key.1, waiting.node);
                    let reference = object_reference(&bound);
                    store.record_event_from(profile_name(&bound), reference, EventType::Normal, "Scheduled", message);
                    self.note_outcome(&key, Outcome::Bound { node: waiting.node.clone() });
                }
                Err(_) => self.queue.failed(&key, Vec::new(), store.now()),
            }
        }
    }

    /// Waits that ran out: the pod is rejected (upstream's "rejected due to timeout after
    /// waiting 1m0s at plugin Coscheduling"), and Coscheduling's Unreserve rejects the rest of
    /// its gang ("rejection in Unreserve").
    fn expire_waiting(&mut self, store: &mut Store) {
        let now = store.now();
        for key in self.waiting.expired(now) {
            let Some(waiting) = self.waiting.get(&key).cloned() else { continue };
            let message =
                format!("rejected due to timeout after waiting {} at plugin {}", waiting.wait, waiting.plugin);
            self.reject_waiting(store, &key, &message);
            if let Some(group) = &waiting.group {
                let siblings: Vec<PodKey> = self.waiting.in_group(&key.0, group).cloned().collect();
                for sibling in siblings {
                    self.reject_waiting(store, &sibling, "rejection in Unreserve");
                }
            }
        }
    }

    /// A waiting pod is rejected: its node is free again, and it fails as a binding cycle does.
    fn reject_waiting(&mut self, store: &mut Store, key: &PodKey, message: &str) {
        let Some(waiting) = self.waiting.remove(key) else { return };
        self.cache.forget_assumed(key);
        // Upstream runs every Reserve plugin's Unreserve for a rejected waiting pod: the devices
        // its claims were given come free.
        if let Some(pod) = store.try_get_shared::<Pod>(&key.0, &key.1) {
            let profile = &plugins::DEFAULT_PROFILE;
            let state = profile.cycle_state(store, &self.cache, &self.nominations, &pod);
            profile.run_unreserve(store, &state, &waiting.node, profile.reserve.len());
        }
        if let Some(pod) = store.try_get::<Pod>(&key.0, &key.1) {
            let reference = object_reference(pod);
            let mut updated = pod.clone();
            set_unschedulable_condition(&mut updated, message, store.now());
            let profile = profile_name(pod).to_string();
            if updated != *pod {
                let _ = store.update_status(updated);
            }
            store.record_event_from(&profile, reference, EventType::Warning, "FailedScheduling", message.to_string());
        }
        self.queue.failed(key, vec![waiting.plugin], store.now());
        self.queue.move_all_on_event(ClusterEvent::AssignedPodDelete, store.now(), &plugins::DEFAULT_PROFILE);
        self.note_outcome(key, Outcome::Unschedulable { message: message.to_string() });
    }

    /// Updates the last decision's outcome (a waiting pod bound or rejected later).
    fn note_outcome(&mut self, key: &PodKey, outcome: Outcome) {
        if let Some(decision) = self.decisions.get_mut(key) {
            decision.outcome = outcome;
        }
    }

    /// Upstream `handleSchedulingFailure`: PodScheduled=False/Unschedulable with the FitError
    /// message, a FailedScheduling event, and back into the queue; preemption's victims deleted.
    fn handle_failure(
        &mut self,
        store: &mut Store,
        key: &PodKey,
        mut fit_error: FitError,
        post_filter: Option<PostFilter>,
        mut nomination: Nomination,
    ) -> Outcome {
        let rejectors: BTreeSet<&'static str> = fit_error.statuses.iter().map(|s| s.plugin).collect();
        let mut nominated = None;
        let mut outcome = None;
        match post_filter {
            Some(PostFilter::Nominate(candidate)) => {
                let victims = self.preempt_victims(store, key, &candidate);
                nomination.node = candidate.node.to_string();
                nominated = Some(nomination.node.clone());
                self.nominations.insert(key.clone(), nomination);
                outcome = Some(Outcome::Nominated { node: candidate.node.to_string(), victims });
            }
            Some(PostFilter::Fail(message)) => fit_error.post_filter_message = Some(message),
            None => {}
        }
        let message = fit_error.message();
        if let Some(pod) = store.try_get::<Pod>(&key.0, &key.1) {
            let reference = object_reference(pod);
            let mut updated = pod.clone();
            set_unschedulable_condition(&mut updated, &message, store.now());
            if let Some(node) = nominated {
                updated.status.nominated_node_name = Some(node);
            }
            let profile = profile_name(pod).to_string();
            if updated != *pod {
                let _ = store.update_status(updated);
            }
            store.record_event_from(&profile, reference, EventType::Warning, "FailedScheduling", message.clone());
        }
        self.queue.failed(key, rejectors.into_iter().collect(), store.now());
        outcome.unwrap_or(Outcome::Unschedulable { message })
    }

    /// An attempt a plugin abandoned with an error (upstream `handleSchedulingFailure` with an
    /// Error status): the message as it is, and the condition's reason `SchedulerError`.
    fn handle_error(&mut self, store: &mut Store, key: &PodKey, message: String) {
        if let Some(pod) = store.try_get::<Pod>(&key.0, &key.1) {
            let reference = object_reference(pod);
            let mut updated = pod.clone();
            set_unschedulable_condition(&mut updated, &message, store.now());
            if let Some(condition) = updated.status.conditions.iter_mut().find(|c| c.type_ == "PodScheduled") {
                condition.reason = Some("SchedulerError".into());
            }
            let profile = profile_name(pod).to_string();
            if updated != *pod {
                let _ = store.update_status(updated);
            }
            store.record_event_from(&profile, reference, EventType::Warning, "FailedScheduling", message.clone());
        }
        self.queue.failed(key, Vec::new(), store.now());
        self.note_outcome(key, Outcome::Unschedulable { message });
    }

    /// Deletes the victims (gracefully) with a DisruptionTarget condition and a `Preempted` event.
    fn preempt_victims(&mut self, store: &mut Store, preemptor: &PodKey, candidate: &Candidate) -> Vec<String> {
        let preemptor_pod = store.try_get::<Pod>(&preemptor.0, &preemptor.1);
        let preemptor_uid = preemptor_pod.map(|p| p.metadata.uid).unwrap_or_default();
        let profile = preemptor_pod.map_or(DEFAULT_SCHEDULER_NAME, profile_name).to_string();
        let mut names = Vec::new();
        for (namespace, name) in &candidate.victims {
            let Some(victim) = store.try_get::<Pod>(namespace, name) else { continue };
            let reference = object_reference(victim);
            let mut updated = victim.clone();
            set_disruption_target(&mut updated, store.now());
            let _ = store.update_status(updated);
            let _ = store.delete::<Pod>(namespace, name, &DeleteOptions::default());
            let message = format!("Preempted by pod {preemptor_uid} on node {}", candidate.node);
            store.record_event_from(&profile, reference, EventType::Normal, "Preempted", message);
            names.push(format!("{namespace}/{name}"));
        }
        names
    }

    fn record_decision(&mut self, key: PodKey, decision: Decision) {
        match self.decisions.insert(key.clone(), decision) {
            Some(replaced) => self.scratch.recycle(replaced.nodes),
            None => self.decision_order.push_back(key),
        }
        while self.decision_order.len() > DECISIONS_KEPT {
            if let Some(evicted) = self.decision_order.pop_front().and_then(|oldest| self.decisions.remove(&oldest)) {
                self.scratch.recycle(evicted.nodes);
            }
        }
    }
}

/// Upstream `UpdatePodCondition`: the transition time moves only when the status changes.
fn set_condition(pod: &mut Pod, condition: PodCondition) {
    let conditions = &mut pod.status.conditions;
    match conditions.iter_mut().find(|c| c.type_ == condition.type_) {
        Some(existing) => {
            let transition = if existing.status == condition.status {
                existing.last_transition_time
            } else {
                condition.last_transition_time
            };
            *existing = PodCondition { last_transition_time: transition, ..condition };
        }
        None => conditions.push(condition),
    }
}

fn set_unschedulable_condition(pod: &mut Pod, message: &str, now: SimTime) {
    let condition = PodCondition {
        type_: "PodScheduled".into(),
        status: "False".into(),
        last_probe_time: None,
        last_transition_time: Some(crate::api::meta::Time(now)),
        reason: Some("Unschedulable".into()),
        message: Some(message.to_string()),
    };
    set_condition(pod, condition);
}

fn set_disruption_target(pod: &mut Pod, now: SimTime) {
    let condition = PodCondition {
        type_: "DisruptionTarget".into(),
        status: "True".into(),
        last_probe_time: None,
        last_transition_time: Some(crate::api::meta::Time(now)),
        reason: Some("PreemptionByScheduler".into()),
        message: Some(format!("{DEFAULT_SCHEDULER_NAME}: preempting to accommodate a higher priority pod")),
    };
    set_condition(pod, condition);
}
