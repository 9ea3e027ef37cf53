//! The ReplicaSet controller: want N, have M, create or delete the difference, then report
//! status. Mirrors pkg/controller/replicaset/replica_set.go (`syncReplicaSet`,
//! `manageReplicas`, `slowStartBatch`, `getPodsToDelete`) and replica_set_utils.go.

use super::active_pods::{self, RankedPod};
use crate::api::meta::{OwnerReference, Uid};
use crate::api::{Kind, ObjectMeta, Pod, ReplicaSet};
use crate::error::ApiError;
use crate::runtime::informer::{Changes, Informer};
use crate::runtime::wakeups::Wakeups;
use crate::runtime::work_queue::{QueueWorker, WorkQueue};
use crate::sim::time::SimTime;
use crate::store::event_recorder::{EventType, object_reference};
use crate::store::{DeleteOptions, Store};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// At most this many creations or deletions per sync (`BurstReplicas`).
pub const BURST_REPLICAS: usize = 500;
/// The first slow-start batch (`SlowStartInitialBatchSize`); batches double after each success.
const SLOW_START_INITIAL_BATCH_SIZE: usize = 1;

type Key = (String, String);

#[derive(Clone, Debug, Default)]
pub struct ReplicaSetController {
    pub(crate) informer: Informer,
    /// What changed, synced in batches a turn may leave unfinished (`sync_some`).
    queue: WorkQueue<Key>,
    wakeups: Wakeups<Key>,
    /// Pods seen without a controller: the only candidates for adoption.
    orphans: BTreeSet<Key>,
    /// Syncs in a row whose pod creates failed, per ReplicaSet: the work queue's rate limiter
    /// retries after 5ms, 10ms, 20ms … up to 1000s (`DefaultControllerRateLimiter`), and
    /// forgets on success.
    failures: BTreeMap<Key, u32>,
}

impl QueueWorker for ReplicaSetController {
    type Key = Key;

    fn parts(&mut self) -> (&mut WorkQueue<Key>, &mut Wakeups<Key>) {
        (&mut self.queue, &mut self.wakeups)
    }

    /// The informer: ReplicaSets that changed, and owners of pods that changed.
    fn collect_changes(&mut self, store: &Store) {
        let events = match self.informer.poll(store) {
            Changes::Events(events) => events,
            Changes::Relist => {
                self.queue.extend(store.list::<ReplicaSet>(None).map(key_of));
                let orphans = store.list::<Pod>(None).filter(|p| is_orphan(p));
                self.orphans.extend(orphans.map(|p| (p.metadata.namespace.clone(), p.metadata.name.clone())));
                return;
            }
        };
        for event in events {
            match event.kind {
                Kind::ReplicaSet => {
                    self.queue.add((event.namespace.clone(), event.name.clone()));
                }
                Kind::Pod => match &event.controller {
                    Some((Kind::ReplicaSet, owner)) => {
                        self.queue.add((event.namespace.clone(), owner.clone()));
                    }
                    Some(_) => {}
                    None => {
                        // Remembered even when no ReplicaSet wants it yet: one created later
                        // adopts it at its first sync, as upstream's lister finds it.
                        if store.try_get::<Pod>(&event.namespace, &event.name).is_some_and(is_orphan) {
                            self.orphans.insert((event.namespace.clone(), event.name.clone()));
                        }
                        self.queue.extend(replica_sets_wanting(store, &event.namespace, &event.name));
                    }
                },
                _ => {}
            }
        }
    }

    /// One ReplicaSet: up to a burst of 500 pod creations or deletions.
    fn sync_key(&mut self, store: &mut Store, (namespace, name): Key) {
        self.sync_replica_set(store, &namespace, &name);
    }
}

impl ReplicaSetController {
    pub fn next_wake(&self) -> Option<SimTime> {
        self.wakeups.next()
    }

    fn sync_replica_set(&mut self, store: &mut Store, namespace: &str, name: &str) {
        let Some(rs) = store.try_get::<ReplicaSet>(namespace, name).cloned() else { return };
        if rs.metadata.deletion_timestamp.is_some() {
            return;
        }
        self.adopt_orphans(store, &rs);
        release_strays(store, &rs);
        let now = store.now();
        // Shared handles: a ReplicaSet of 5,000 pods is read on every sync of it.
        let pods: Vec<Arc<Pod>> =
            store.owned_shared::<Pod>(rs.metadata.uid).filter(|p| active_pods::is_active(p)).collect();
        let wanted = rs.spec.replicas.unwrap_or(1).max(0) as usize;
        let mut failed = None;
        if pods.len() < wanted {
            failed = create_pods(store, &rs, (wanted - pods.len()).min(BURST_REPLICAS));
        } else if pods.len() > wanted {
            delete_pods(store, &rs, &pods, (pods.len() - wanted).min(BURST_REPLICAS));
        }
        let key = (namespace.to_string(), name.to_string());
        match &failed {
            Some(_) => {
                let tries = self.failures.entry(key.clone()).or_insert(0);
                self.wakeups.add_at(now.plus(retry_after(*tries)), key);
                *tries = tries.saturating_add(1);
            }
            None => {
                self.failures.remove(&key);
            }
        }
        let mut status = calculate_status(&rs, &pods, now);
        replica_failure(&mut status, failed, now);
        let min_ready = rs.spec.min_ready_seconds.unwrap_or(0);
        for pod in &pods {
            if let Some(at) = active_pods::becomes_available_at(pod, min_ready, now) {
                self.wakeups.add_at(at, (namespace.to_string(), name.to_string()));
            }
        }
        if status != rs.status {
            let mut updated = rs;
            updated.status = status;
            let _ = store.update_status(updated);
        }
    }
}

fn key_of(rs: &ReplicaSet) -> Key {
    (rs.metadata.namespace.clone(), rs.metadata.name.clone())
}

/// ReplicaSets that would adopt this pod: it has no controller and their selector matches it.
/// A live pod no controller owns: a candidate for adoption.
fn is_orphan(pod: &Pod) -> bool {
    pod.metadata.controller_ref().is_none() && active_pods::is_active(pod)
}

fn replica_sets_wanting(store: &Store, namespace: &str, pod_name: &str) -> Vec<Key> {
    let Some(pod) = store.try_get::<Pod>(namespace, pod_name) else { return Vec::new() };
    if !is_orphan(pod) {
        return Vec::new();
    }
    store
        .list::<ReplicaSet>(Some(namespace))
        .filter(|rs| rs.spec.selector.as_ref().is_some_and(|s| s.matches(&pod.metadata.labels)))
        .map(key_of)
        .collect()
}

impl ReplicaSetController {
    /// Upstream's `ClaimPods` (adoption half): orphans matching the selector get this RS as controller.
    fn adopt_orphans(&mut self, store: &mut Store, rs: &ReplicaSet) {
        let Some(selector) = &rs.spec.selector else { return };
        let namespace = &rs.metadata.namespace;
        let candidates: Vec<Key> = self.orphans.iter().filter(|(ns, _)| ns == namespace).cloned().collect();
        for key in candidates {
            let Some(pod) = store.try_get::<Pod>(&key.0, &key.1) else {
                self.orphans.remove(&key);
                continue;
            };
            if pod.metadata.controller_ref().is_some() || !active_pods::is_active(pod) {
                self.orphans.remove(&key);
                continue;
            }
            if selector.matches(&pod.metadata.labels) {
                let mut pod = pod.clone();
                pod.metadata.owner_references.push(controller_ref(rs));
                let _ = patch_pod(store, pod);
                self.orphans.remove(&key);
            }
        }
    }
}

/// `ClaimPods` (release half): an owned pod whose labels no longer match is let go, so the
/// ReplicaSet replaces it and the pod lives on alone (relabelling a pod to debug it).
fn release_strays(store: &mut Store, rs: &ReplicaSet) {
    let Some(selector) = &rs.spec.selector else { return };
    let strays: Vec<Pod> = store
        .owned::<Pod>(rs.metadata.uid)
        .filter(|p| p.metadata.controller_ref().is_some_and(|r| r.uid == rs.metadata.uid))
        .filter(|p| !selector.matches(&p.metadata.labels))
        .cloned()
        .collect();
    for mut pod in strays {
        pod.metadata.owner_references.retain(|r| r.uid != rs.metadata.uid);
        let _ = patch_pod(store, pod);
    }
}

/// Adoption and release are PATCHes of the pod's ownerReferences upstream (`PatchPod` in
/// controller_ref_manager.go), which the controller's role allows where an update is not.
fn patch_pod(store: &mut Store, pod: Pod) -> Result<Pod, ApiError> {
    let (namespace, name) = (pod.metadata.namespace.clone(), pod.metadata.name.clone());
    store.authorized_write(("patch", Kind::Pod, &namespace, &name, ""), |store| store.update(pod))
}

/// The ownerReference a ReplicaSet puts on its pods (`metav1.NewControllerRef`).
pub fn controller_ref(rs: &ReplicaSet) -> OwnerReference {
    OwnerReference {
        api_version: "apps/v1".to_string(),
        kind: "ReplicaSet".to_string(),
        name: rs.metadata.name.clone(),
        uid: rs.metadata.uid,
        controller: Some(true),
        block_owner_deletion: Some(true),
    }
}

/// Upstream `GetPodFromTemplate`: the template's labels, annotations and spec, a generated name.
fn pod_from_template(rs: &ReplicaSet) -> Pod {
    let template = &rs.spec.template;
    let mut metadata = ObjectMeta {
        generate_name: format!("{}-", rs.metadata.name),
        namespace: rs.metadata.namespace.clone(),
        labels: template.metadata.labels.clone(),
        annotations: template.metadata.annotations.clone(),
        finalizers: template.metadata.finalizers.clone(),
        ..Default::default()
    };
    metadata.owner_references.push(controller_ref(rs));
    Pod { metadata, spec: template.spec.clone(), ..Default::default() }
}

/// The work queue's per-item back-off after `tries` failures: 5ms doubling, at most 1000s.
fn retry_after(tries: u32) -> crate::sim::time::Duration {
    let millis = 5u64.saturating_mul(1u64 << tries.min(30)).min(1_000_000);
    crate::sim::time::Duration::from_millis(millis)
}

/// `calculateStatus`'s ReplicaFailure: set (reason FailedCreate, the create's error as its
/// message) when creating failed and none is set yet; removed once a sync succeeds.
fn replica_failure(status: &mut crate::api::replica_set::ReplicaSetStatus, failed: Option<String>, now: SimTime) {
    let current = status.conditions.iter().position(|c| c.type_ == REPLICA_FAILURE);
    match (failed, current) {
        (Some(message), None) => status.conditions.push(crate::api::replica_set::ReplicaSetCondition {
            type_: REPLICA_FAILURE.to_string(),
            status: "True".to_string(),
            last_transition_time: Some(crate::api::meta::Time(SimTime(now.as_millis() / 1000 * 1000))),
            reason: Some("FailedCreate".to_string()),
            message: Some(message),
        }),
        (None, Some(index)) => {
            status.conditions.remove(index);
        }
        _ => {}
    }
}

/// The ReplicaSet condition a failed create or delete sets (`ReplicaSetReplicaFailure`).
pub const REPLICA_FAILURE: &str = "ReplicaFailure";

/// Creates `count` pods in slow-start batches (1, 2, 4, …), stopping at the first failing batch
/// and returning its error.
fn create_pods(store: &mut Store, rs: &ReplicaSet, count: usize) -> Option<String> {
    let mut remaining = count;
    let mut batch = SLOW_START_INITIAL_BATCH_SIZE.min(remaining);
    while batch > 0 {
        for _ in 0..batch {
            match store.create(pod_from_template(rs)) {
                Ok(pod) => {
                    let message = format!("Created pod: {}", pod.metadata.name);
                    store.record_event(object_reference(rs), EventType::Normal, "SuccessfulCreate", message);
                }
                Err(err) => {
                    let message = format!("Error creating: {}", err.message());
                    store.record_event(object_reference(rs), EventType::Warning, "FailedCreate", message);
                    return Some(err.message());
                }
            }
        }
        remaining -= batch;
        batch = (2 * batch).min(remaining);
    }
    None
}

/// Deletes the `count` pods upstream would pick first (`getPodsToDelete`).
fn delete_pods(store: &mut Store, rs: &ReplicaSet, pods: &[Arc<Pod>], count: usize) {
    let now = store.now();
    let per_node = related_pods_per_node(store, rs);
    let mut ranked: Vec<RankedPod> = pods
        .iter()
        .map(|pod| RankedPod { pod, rank: pod.node_name().and_then(|n| per_node.get(n)).copied().unwrap_or(0) })
        .collect();
    ranked.sort_by(|a, b| active_pods::delete_first(a, b, now));
    let doomed: Vec<String> = ranked.iter().take(count).map(|r| r.pod.metadata.name.clone()).collect();
    for name in doomed {
        if store.delete::<Pod>(&rs.metadata.namespace, &name, &DeleteOptions::default()).is_ok() {
            let message = format!("Deleted pod: {name}");
            store.record_event(object_reference(rs), EventType::Normal, "SuccessfulDelete", message);
        }
    }
}

/// Active pods per node across every ReplicaSet with the same owner (`getIndirectlyRelatedPods`).
fn related_pods_per_node(store: &Store, rs: &ReplicaSet) -> BTreeMap<String, usize> {
    let owners: Vec<Uid> = match rs.metadata.controller_ref() {
        Some(owner) => store.owned::<ReplicaSet>(owner.uid).map(|r| r.metadata.uid).collect(),
        None => vec![rs.metadata.uid],
    };
    let mut per_node = BTreeMap::new();
    for uid in owners {
        for pod in store.owned::<Pod>(uid).filter(|p| active_pods::is_active(p)) {
            if let Some(node) = pod.node_name() {
                *per_node.entry(node.to_string()).or_insert(0) += 1;
            }
        }
    }
    per_node
}

/// Upstream `calculateStatus`, from the pods seen at the start of the sync.
fn calculate_status(rs: &ReplicaSet, pods: &[Arc<Pod>], now: SimTime) -> crate::api::replica_set::ReplicaSetStatus {
    let min_ready = rs.spec.min_ready_seconds.unwrap_or(0);
    let template_labels = &rs.spec.template.metadata.labels;
    let count = |f: &dyn Fn(&Pod) -> bool| pods.iter().filter(|p| f(p)).count() as i32;
    crate::api::replica_set::ReplicaSetStatus {
        replicas: pods.len() as i32,
        fully_labeled_replicas: non_zero(count(&|p| p.metadata.labels.contains_all(template_labels))),
        ready_replicas: non_zero(count(&|p| p.is_ready())),
        available_replicas: non_zero(count(&|p| active_pods::is_available(p, min_ready, now))),
        observed_generation: Some(rs.metadata.generation),
        conditions: rs.status.conditions.clone(),
        ..Default::default()
    }
}

/// Go's `omitempty` on int32 status fields: zero is left out.
pub fn non_zero(n: i32) -> Option<i32> {
    (n != 0).then_some(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Event;
    use crate::cluster::ClusterSpec;
    use crate::sim::Sim;

    const HELLO_RS: &str = r#"{"metadata":{"name":"hello"},
        "spec":{"replicas":3,"selector":{"matchLabels":{"app":"hello"}},
        "template":{"metadata":{"labels":{"app":"hello"}},"spec":{"containers":[{"name":"hello","image":"hello:v1"}]}}}}"#;

    fn lab() -> Sim {
        let mut sim = Sim::new(7, &ClusterSpec::default());
        let rs: ReplicaSet = serde_json::from_str(HELLO_RS).unwrap();
        sim.store_mut().create(rs).unwrap();
        sim.settle();
        sim
    }

    fn pod_names(sim: &Sim) -> Vec<String> {
        sim.store()
            .list::<Pod>(Some("default"))
            .filter(|p| active_pods::is_active(p))
            .map(|p| p.metadata.name.clone())
            .collect()
    }

    fn reasons(sim: &Sim) -> Vec<String> {
        sim.store().list::<Event>(Some("default")).map(|e| e.message.clone().unwrap_or_default()).collect()
    }

    #[test]
    fn creates_the_missing_pods_with_generated_names_and_events() {
        let sim = lab();
        let names = pod_names(&sim);
        assert_eq!(names.len(), 3);
        assert!(names.iter().all(|n| n.starts_with("hello-") && n.len() == "hello-".len() + 5), "{names:?}");
        let created: Vec<String> = reasons(&sim).into_iter().filter(|m| m.starts_with("Created pod: hello-")).collect();
        assert_eq!(created.len(), 3);
        let rs = sim.store().get::<ReplicaSet>("default", "hello").unwrap();
        assert_eq!((rs.status.replicas, rs.status.observed_generation), (3, Some(1)));
    }

    #[test]
    fn replaces_a_deleted_pod_in_the_same_instant() {
        let mut sim = lab();
        let victim = pod_names(&sim)[0].clone();
        sim.store_mut().delete::<Pod>("default", &victim, &DeleteOptions::default()).unwrap();
        sim.settle();
        let names = pod_names(&sim);
        assert_eq!(names.len(), 3);
        assert!(!names.contains(&victim));
    }

    #[test]
    fn scaling_down_deletes_and_records_it() {
        let mut sim = lab();
        let mut rs = sim.store().get::<ReplicaSet>("default", "hello").unwrap().clone();
        rs.spec.replicas = Some(1);
        sim.store_mut().update(rs).unwrap();
        sim.settle();
        assert_eq!(pod_names(&sim).len(), 1);
        assert_eq!(reasons(&sim).iter().filter(|m| m.starts_with("Deleted pod: ")).count(), 2);
    }

    #[test]
    fn a_relabelled_pod_is_let_go_and_replaced() {
        let mut sim = lab();
        let name = pod_names(&sim)[0].clone();
        let mut pod = sim.store().get::<Pod>("default", &name).unwrap().clone();
        pod.metadata.labels.insert("app", "debug");
        sim.store_mut().update(pod).unwrap();
        sim.settle();
        let stray = sim.store().get::<Pod>("default", &name).unwrap();
        assert!(stray.metadata.owner_references.is_empty());
        let owned = sim.store().list::<Pod>(Some("default")).filter(|p| p.metadata.labels.get("app") == Some("hello"));
        assert_eq!(owned.count(), 3);
    }

    #[test]
    fn adopts_a_matching_orphan_instead_of_creating() {
        let mut sim = Sim::new(7, &ClusterSpec::default());
        let orphan: Pod = serde_json::from_str(
            r#"{"metadata":{"name":"stray","labels":{"app":"hello"}},"spec":{"containers":[{"name":"c","image":"x"}]}}"#,
        )
        .unwrap();
        sim.store_mut().create(orphan).unwrap();
        let rs: ReplicaSet = serde_json::from_str(HELLO_RS).unwrap();
        sim.store_mut().create(rs).unwrap();
        sim.settle();
        let names = pod_names(&sim);
        assert_eq!(names.len(), 3);
        let stray = sim.store().get::<Pod>("default", "stray").unwrap();
        assert_eq!(stray.metadata.controller_ref().map(|r| r.name.as_str()), Some("hello"));
    }
}
