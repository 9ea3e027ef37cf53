//! One StatefulSet's sync: pods made for missing ordinals, failed ones replaced, ordinals past
//! `replicas` removed from the highest down, then a rolling update from the highest ordinal down
//! to the partition; OrderedReady waits at each step for the pods before it to be Running and
//! Ready. Mirrors pkg/controller/statefulset/stateful_set_control.go (`updateStatefulSet`,
//! `processReplica`, `processCondemned`, `updateStatefulSetAfterInvariantEstablished`).

use super::identity::{self, in_ordinal_range, ordinal_of, pod_revision};
use super::pod_control::{create_missing_claims, create_pod, delete_pod, update_claims_for_retention};
use super::revisions;
use crate::api::controller_revision::ControllerRevision;
use crate::api::pod::PodTemplateSpec;
use crate::api::stateful_set::{ON_DELETE, ROLLING_UPDATE, StatefulSetStatus};
use crate::api::{Pod, StatefulSet};
use crate::controllers::{active_pods, controlled_revisions, history};
use crate::sim::time::SimTime;
use crate::store::Store;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The revisions a sync works between, with the templates they restore.
struct Revisions {
    current: ControllerRevision,
    update: ControllerRevision,
    current_template: PodTemplateSpec,
}

/// Syncs `set`; returns when it next wants to run without a change (a pod becoming available
/// after minReadySeconds).
pub fn sync_stateful_set(store: &mut Store, namespace: &str, name: &str) -> Option<SimTime> {
    let set = store.try_get::<StatefulSet>(namespace, name)?.clone();
    if set.metadata.deletion_timestamp.is_some() {
        return None;
    }
    let owned = controlled_revisions::controlled_revisions(store, set.metadata.uid);
    let (current, update, collision_count) = revisions::current_and_update(store, &set, &owned).ok()?;
    let current_template = history::revision_template(&current).unwrap_or_else(|| set.spec.template.clone());
    let revs = Revisions { current, update, current_template };
    let (replicas, condemned) = members(store, &set);
    let monotonic = !set.spec.is_parallel();
    let _ = process_replicas(store, &set, &revs, &replicas, monotonic)
        && process_condemned(store, &set, &replicas, &condemned, monotonic)
        && rolling_update(store, &set, &revs, &replicas);
    let pods = owned_pods(store, &set);
    let live = [revs.current.metadata.name.as_str(), revs.update.metadata.name.as_str()];
    let status = status_of(&set, &pods, &revs, collision_count, store.now());
    write_status(store, &set, status);
    let owned = controlled_revisions::controlled_revisions(store, set.metadata.uid);
    let pod_refs: Vec<&Pod> = pods.iter().map(|p| p.as_ref()).collect();
    revisions::truncate_history(store, &set, &pod_refs, &owned, live);
    let min_ready = set.spec.min_ready_seconds.unwrap_or(0);
    pods.iter().filter_map(|p| active_pods::becomes_available_at(p, min_ready, store.now())).min()
}

/// The pods the set controls, by name.
fn owned_pods(store: &Store, set: &StatefulSet) -> Vec<Arc<Pod>> {
    let uid = set.metadata.uid;
    store
        .owned_shared::<Pod>(uid)
        .filter(|p| p.metadata.controller_ref().is_some_and(|r| r.uid == uid))
        .filter(|p| ordinal_of(set, &p.metadata.name).is_some())
        .collect()
}

/// Members by ordinal.
type Members = BTreeMap<i32, Arc<Pod>>;

/// The members in the ordinal range, by ordinal, and those past it (condemned), highest first.
fn members(store: &Store, set: &StatefulSet) -> (Members, Vec<(i32, Arc<Pod>)>) {
    let mut replicas = BTreeMap::new();
    let mut condemned = Vec::new();
    for pod in owned_pods(store, set) {
        let Some(ordinal) = ordinal_of(set, &pod.metadata.name) else { continue };
        if in_ordinal_range(set, ordinal) {
            replicas.insert(ordinal, pod);
        } else {
            condemned.push((ordinal, pod));
        }
    }
    condemned.sort_by_key(|(ordinal, _)| std::cmp::Reverse(*ordinal));
    (replicas, condemned)
}

fn is_running_and_ready(pod: &Pod) -> bool {
    pod.phase() == "Running" && pod.is_ready()
}

fn is_running_and_available(pod: &Pod, min_ready_seconds: i32, now: SimTime) -> bool {
    is_running_and_ready(pod) && active_pods::is_available(pod, min_ready_seconds, now)
}

fn is_terminating(pod: &Pod) -> bool {
    pod.metadata.deletion_timestamp.is_some()
}

fn is_healthy(pod: &Pod) -> bool {
    is_running_and_ready(pod) && !is_terminating(pod)
}

/// Creates, replaces and waits on the members in order; false when OrderedReady must stop here
/// (a pod just made, or one not yet Running, Ready and available).
fn process_replicas(
    store: &mut Store,
    set: &StatefulSet,
    revs: &Revisions,
    replicas: &Members,
    monotonic: bool,
) -> bool {
    let start = set.spec.start_ordinal();
    let min_ready = set.spec.min_ready_seconds.unwrap_or(0);
    for ordinal in start..start + set.spec.replicas.unwrap_or(1) {
        let Some(pod) = replicas.get(&ordinal) else {
            let pod = versioned_pod(set, revs, ordinal);
            let created = create_pod(store, set, pod, ordinal);
            if monotonic || created.is_err() {
                return false;
            }
            continue;
        };
        if matches!(pod.phase(), "Failed" | "Succeeded") {
            // Replaced once it is gone: the next sync after its deletion makes it again.
            if !is_terminating(pod) {
                let _ = delete_pod(store, set, &pod.metadata.name);
            }
            if monotonic {
                return false;
            }
            continue;
        }
        if pod.phase() == "Pending" {
            let _ = create_missing_claims(store, set, &pod.metadata.name, ordinal);
        }
        let waiting = is_terminating(pod) || !is_running_and_available(pod, min_ready, store.now());
        if waiting && monotonic {
            return false;
        }
        update_claims_for_retention(store, set, pod, ordinal);
    }
    true
}

/// `newVersionedStatefulSetPod`: below the partition a pod is made at the current revision,
/// from it up at the update revision.
fn versioned_pod(set: &StatefulSet, revs: &Revisions, ordinal: i32) -> Pod {
    let rolling = set.spec.update_strategy.type_.as_deref() == Some(ROLLING_UPDATE);
    if rolling && ordinal < set.spec.start_ordinal() + set.spec.partition() {
        return identity::new_pod(set, &revs.current_template, ordinal, &revs.current.metadata.name);
    }
    identity::new_pod(set, &set.spec.template, ordinal, &revs.update.metadata.name)
}

/// Removes members past the range, highest ordinal first; OrderedReady removes one at a time
/// and only while every other member is healthy (or the one removed is the first unhealthy).
fn process_condemned(
    store: &mut Store,
    set: &StatefulSet,
    replicas: &Members,
    condemned: &[(i32, Arc<Pod>)],
    monotonic: bool,
) -> bool {
    for (ordinal, pod) in condemned {
        update_claims_for_retention(store, set, pod, *ordinal);
    }
    let min_ready = set.spec.min_ready_seconds.unwrap_or(0);
    let now = store.now();
    let first_unhealthy = replicas
        .values()
        .chain(condemned.iter().map(|(_, p)| p))
        .find(|p| !is_healthy(p))
        .map(|p| p.metadata.name.clone());
    for (_, pod) in condemned {
        if is_terminating(pod) {
            if monotonic {
                return false;
            }
            continue;
        }
        let is_first_unhealthy = first_unhealthy.as_deref() == Some(pod.metadata.name.as_str());
        if monotonic && !is_running_and_available(pod, min_ready, now) && !is_first_unhealthy {
            return false;
        }
        let _ = delete_pod(store, set, &pod.metadata.name);
        if monotonic {
            return false;
        }
    }
    true
}

/// `updateStatefulSetAfterInvariantEstablished`: while fewer than maxUnavailable members are
/// unavailable, deletes the highest members at or above the partition that are not at the
/// update revision; the pass that replaces them makes them at it.
fn rolling_update(store: &mut Store, set: &StatefulSet, revs: &Revisions, replicas: &Members) -> bool {
    let strategy = &set.spec.update_strategy;
    if strategy.type_.as_deref() == Some(ON_DELETE) {
        return true;
    }
    let replica_count = set.spec.replicas.unwrap_or(1);
    let max_unavailable = strategy
        .rolling_update
        .as_ref()
        .and_then(|r| r.max_unavailable.as_ref())
        .map_or(Ok(1), |m| m.scaled_value(replica_count, true))
        .unwrap_or(1)
        .max(1);
    let min_ready = set.spec.min_ready_seconds.unwrap_or(0);
    let now = store.now();
    let unavailable =
        replicas.values().filter(|p| is_terminating(p) || !is_running_and_available(p, min_ready, now)).count() as i32;
    let missing = replica_count - replicas.len() as i32;
    if unavailable + missing >= max_unavailable {
        return true;
    }
    let mut budget = max_unavailable - unavailable - missing;
    let lowest = set.spec.start_ordinal() + set.spec.partition();
    for (_, pod) in replicas.range(lowest..).rev() {
        if budget == 0 {
            break;
        }
        if pod_revision(pod) != revs.update.metadata.name && !is_terminating(pod) {
            let _ = delete_pod(store, set, &pod.metadata.name);
            budget -= 1;
        }
    }
    true
}

/// `computeReplicaStatus` over the members as they are now, then `completeRollingUpdate`.
fn status_of(
    set: &StatefulSet,
    pods: &[Arc<Pod>],
    revs: &Revisions,
    collision_count: i32,
    now: SimTime,
) -> StatefulSetStatus {
    let min_ready = set.spec.min_ready_seconds.unwrap_or(0);
    let (current, update) = (&revs.current.metadata.name, &revs.update.metadata.name);
    let mut status = StatefulSetStatus {
        observed_generation: set.metadata.generation,
        current_revision: current.clone(),
        update_revision: update.clone(),
        collision_count: Some(collision_count),
        conditions: set.status.conditions.clone(),
        ..Default::default()
    };
    for pod in pods {
        status.replicas += 1;
        if is_running_and_ready(pod) {
            status.ready_replicas += 1;
            if is_running_and_available(pod, min_ready, now) {
                status.available_replicas += 1;
            }
        }
        if !is_terminating(pod) {
            status.current_replicas += i32::from(pod_revision(pod) == current);
            status.updated_replicas += i32::from(pod_revision(pod) == update);
        }
    }
    let rolling = set.spec.update_strategy.type_.as_deref() == Some(ROLLING_UPDATE);
    if rolling && status.updated_replicas == status.replicas && status.ready_replicas == status.replicas {
        status.current_replicas = status.updated_replicas;
        status.current_revision = status.update_revision.clone();
    }
    status
}

fn write_status(store: &mut Store, set: &StatefulSet, status: StatefulSetStatus) {
    let Some(live) = store.try_get::<StatefulSet>(&set.metadata.namespace, &set.metadata.name) else { return };
    if live.status == status {
        return;
    }
    let mut updated = live.clone();
    updated.status = status;
    let _ = store.update_status(updated);
}
