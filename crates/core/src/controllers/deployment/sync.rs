//! The parts of a Deployment sync every strategy shares: finding the new and old ReplicaSets
//! (creating the new one), scaling with events, proportional scaling, history cleanup and
//! status. Mirrors pkg/controller/deployment/sync.go.

use super::hash::{POD_TEMPLATE_HASH, compute_hash, equal_ignore_hash};
use super::progress;
use super::replicas::{self, REVISION, REVISION_HISTORY, max_surge, rs_replicas};
use crate::api::deployment::DeploymentStatus;
use crate::api::{Deployment, ObjectMeta, ReplicaSet};
use crate::controllers::replica_set::non_zero;
use crate::store::event_recorder::{EventType, object_reference};
use crate::store::{DeleteOptions, Store};
use std::collections::BTreeSet;

/// A Deployment's ReplicaSets split as a rollout sees them.
#[derive(Clone, Debug, Default)]
pub struct Family {
    pub new: Option<ReplicaSet>,
    /// Oldest first.
    pub old: Vec<ReplicaSet>,
}

impl Family {
    pub fn all(&self) -> Vec<&ReplicaSet> {
        self.old.iter().chain(self.new.as_ref()).collect()
    }
}

/// `ClaimReplicaSets` (adoption half): orphan ReplicaSets matching the selector join this Deployment.
pub fn adopt_orphans(store: &mut Store, d: &Deployment, orphans: &mut BTreeSet<(String, String)>) {
    let selector = d.spec.selector.clone().unwrap_or_default();
    let candidates: Vec<(String, String)> =
        orphans.iter().filter(|(ns, _)| *ns == d.metadata.namespace).cloned().collect();
    for key in candidates {
        let Some(rs) = store.try_get::<ReplicaSet>(&key.0, &key.1) else {
            orphans.remove(&key);
            continue;
        };
        if rs.metadata.controller_ref().is_some() || rs.metadata.deletion_timestamp.is_some() {
            orphans.remove(&key);
            continue;
        }
        if selector.matches(&rs.metadata.labels) {
            let mut rs = rs.clone();
            rs.metadata.owner_references.push(controller_ref(d));
            let _ = store.update(rs);
            orphans.remove(&key);
        }
    }
}

/// The ReplicaSets this Deployment controls, oldest first (`getReplicaSetsForDeployment`).
pub fn replica_sets_for(store: &Store, d: &Deployment) -> Vec<ReplicaSet> {
    let mut owned: Vec<ReplicaSet> = store.owned::<ReplicaSet>(d.metadata.uid).cloned().collect();
    owned.sort_by(|a, b| {
        (a.metadata.creation_timestamp, &a.metadata.name).cmp(&(b.metadata.creation_timestamp, &b.metadata.name))
    });
    owned
}

fn controller_ref(d: &Deployment) -> crate::api::meta::OwnerReference {
    crate::api::meta::OwnerReference {
        api_version: "apps/v1".to_string(),
        kind: "Deployment".to_string(),
        name: d.metadata.name.clone(),
        uid: d.metadata.uid,
        controller: Some(true),
        block_owner_deletion: Some(true),
    }
}

/// Splits into new (the oldest whose template matches) and old ReplicaSets.
pub fn split(d: &Deployment, replica_sets: Vec<ReplicaSet>) -> Family {
    let mut family = Family::default();
    for rs in replica_sets {
        if family.new.is_none() && equal_ignore_hash(&rs.spec.template, &d.spec.template) {
            family.new = Some(rs);
        } else {
            family.old.push(rs);
        }
    }
    family
}

/// `getAllReplicaSetsAndSyncRevision`: the family, with the new ReplicaSet's revision brought
/// up to date (and created when `create` and missing).
pub fn family_with_revision(
    store: &mut Store,
    d: &mut Deployment,
    replica_sets: Vec<ReplicaSet>,
    create: bool,
) -> Family {
    let mut family = split(d, replica_sets);
    let new_revision = family.old.iter().map(replicas::revision).max().unwrap_or(0) + 1;
    match family.new.take() {
        Some(rs) => family.new = Some(sync_new_revision(store, d, rs, new_revision)),
        None if create => family.new = create_new_replica_set(store, d, &family, new_revision),
        None => {}
    }
    if let Some(new) = &family.new {
        set_deployment_revision(store, d, replicas::revision(new));
    }
    family
}

fn sync_new_revision(store: &mut Store, d: &Deployment, mut rs: ReplicaSet, new_revision: i64) -> ReplicaSet {
    let mut changed = replicas::copy_annotations(d, &mut rs);
    let old_revision = replicas::revision(&rs);
    if old_revision < new_revision {
        rs.metadata.annotations.insert(REVISION, new_revision.to_string());
        if old_revision > 0 {
            // The revision is re-used (a rollback): remember the numbers it had before.
            let history = match rs.metadata.annotations.get(REVISION_HISTORY) {
                Some(h) if !h.is_empty() => format!("{h},{old_revision}"),
                _ => old_revision.to_string(),
            };
            rs.metadata.annotations.insert(REVISION_HISTORY, history);
        }
        changed = true;
    }
    if rs.spec.min_ready_seconds != d.spec.min_ready_seconds {
        rs.spec.min_ready_seconds = d.spec.min_ready_seconds;
        changed = true;
    }
    if !changed {
        return rs;
    }
    store.update(rs.clone()).unwrap_or(rs)
}

fn set_deployment_revision(store: &mut Store, d: &mut Deployment, revision: i64) {
    let value = revision.to_string();
    if d.metadata.annotations.get(REVISION) == Some(value.as_str()) {
        return;
    }
    let mut updated = d.clone();
    updated.metadata.annotations.insert(REVISION, value);
    if let Ok(stored) = store.update(updated) {
        *d = stored;
    }
}

/// Creates the ReplicaSet for the current template, named `<deployment>-<hash>`.
fn create_new_replica_set(store: &mut Store, d: &mut Deployment, family: &Family, revision: i64) -> Option<ReplicaSet> {
    let hash = compute_hash(&d.spec.template, d.status.collision_count);
    let mut template = d.spec.template.clone();
    template.metadata.labels.insert(POD_TEMPLATE_HASH, hash.clone());
    let mut selector = d.spec.selector.clone().unwrap_or_default();
    selector.match_labels.insert(POD_TEMPLATE_HASH, hash.clone());
    let mut rs = ReplicaSet {
        metadata: ObjectMeta {
            name: format!("{}-{hash}", d.metadata.name),
            namespace: d.metadata.namespace.clone(),
            labels: template.metadata.labels.clone(),
            owner_references: vec![controller_ref(d)],
            ..Default::default()
        },
        ..Default::default()
    };
    rs.spec.selector = Some(selector);
    rs.spec.template = template;
    rs.spec.min_ready_seconds = d.spec.min_ready_seconds;
    let new_replicas = replicas::new_rs_new_replicas(d, &family.all(), None);
    rs.spec.replicas = Some(new_replicas);
    replicas::copy_annotations(d, &mut rs);
    rs.metadata.annotations.insert(REVISION, revision.to_string());
    replicas::set_replicas_annotations(&mut rs, replicas::replicas(d), replicas::replicas(d) + max_surge(d));
    match store.create(rs) {
        Ok(created) => {
            if new_replicas > 0 {
                let message = format!("Scaled up replica set {} from 0 to {new_replicas}", created.metadata.name);
                store.record_event(object_reference(d), EventType::Normal, "ScalingReplicaSet", message);
            }
            progress::new_replica_set_created(store, d, &created.metadata.name);
            Some(created)
        }
        Err(_) => {
            // A name taken by a ReplicaSet with another template: a hash collision. Count it
            // so the next hash differs (upstream bumps status.collisionCount the same way).
            let mut updated = d.clone();
            updated.status.collision_count = Some(d.status.collision_count.unwrap_or(0) + 1);
            if let Ok(stored) = store.update_status(updated) {
                *d = Deployment::clone(&stored);
            }
            None
        }
    }
}

/// `scaleReplicaSetAndRecordEvent`: sets the size and annotations; true if the size changed.
pub fn scale_replica_set(store: &mut Store, d: &Deployment, rs: &mut ReplicaSet, new_scale: i32) -> bool {
    let old_scale = rs_replicas(rs);
    let size_changed = old_scale != new_scale;
    let mut updated = rs.clone();
    let annotations_changed =
        replicas::set_replicas_annotations(&mut updated, replicas::replicas(d), replicas::replicas(d) + max_surge(d));
    if !size_changed && !annotations_changed {
        return false;
    }
    updated.spec.replicas = Some(new_scale);
    let Ok(stored) = store.update(updated) else { return false };
    *rs = stored;
    if size_changed {
        let direction = if new_scale > old_scale { "up" } else { "down" };
        let message = format!("Scaled {direction} replica set {} from {old_scale} to {new_scale}", rs.metadata.name);
        store.record_event(object_reference(d), EventType::Normal, "ScalingReplicaSet", message);
    }
    size_changed
}

/// `isScalingEvent`: an active ReplicaSet was sized for a different replica count.
pub fn is_scaling_event(d: &Deployment, replica_sets: &[ReplicaSet]) -> bool {
    let family = split(d, replica_sets.to_vec());
    family
        .all()
        .into_iter()
        .filter(|rs| rs_replicas(rs) > 0)
        .any(|rs| replicas::desired_annotation(rs).is_some_and(|desired| desired != replicas::replicas(d)))
}

/// Upstream `sync`: scale only (paused Deployments, or a replica count change mid-rollout).
pub fn sync_scale(store: &mut Store, d: &mut Deployment, replica_sets: Vec<ReplicaSet>) {
    let mut family = family_with_revision(store, d, replica_sets, false);
    super::rolling::scale(store, d, &mut family);
    if d.spec.paused == Some(true) {
        cleanup(store, d, &family.old);
    }
    sync_status(store, d, &family);
}

pub fn sync_status_only(store: &mut Store, d: &mut Deployment, replica_sets: Vec<ReplicaSet>) {
    let family = family_with_revision(store, d, replica_sets, false);
    sync_status(store, d, &family);
}

/// `cleanupDeployment`: delete the oldest idle ReplicaSets beyond revisionHistoryLimit.
pub fn cleanup(store: &mut Store, d: &Deployment, old: &[ReplicaSet]) {
    let Some(limit) = d.spec.revision_history_limit else { return };
    let mut alive: Vec<&ReplicaSet> = old.iter().filter(|rs| rs.metadata.deletion_timestamp.is_none()).collect();
    let excess = alive.len() as i64 - i64::from(limit);
    if excess <= 0 {
        return;
    }
    alive.sort_by_key(|rs| (replicas::revision(rs), rs.metadata.creation_timestamp, rs.metadata.name.clone()));
    for rs in alive.into_iter().take(excess as usize) {
        let idle = rs.status.replicas == 0 && rs_replicas(rs) == 0;
        let observed = rs.status.observed_generation.unwrap_or(0) >= rs.metadata.generation;
        if idle && observed {
            let _ = store.delete::<ReplicaSet>(&rs.metadata.namespace, &rs.metadata.name, &DeleteOptions::default());
        }
    }
}

/// `calculateStatus`: sums over the family, plus the Available condition.
pub fn calculate_status(store: &Store, d: &Deployment, family: &Family) -> DeploymentStatus {
    let all = family.all();
    let available: i32 = all.iter().map(|rs| rs.status.available_replicas.unwrap_or(0)).sum();
    let total: i32 = all.iter().map(|rs| rs_replicas(rs)).sum();
    let mut status = DeploymentStatus {
        observed_generation: Some(d.metadata.generation),
        replicas: non_zero(all.iter().map(|rs| rs.status.replicas).sum()),
        updated_replicas: non_zero(family.new.as_ref().map_or(0, |rs| rs.status.replicas)),
        ready_replicas: non_zero(all.iter().map(|rs| rs.status.ready_replicas.unwrap_or(0)).sum()),
        available_replicas: non_zero(available),
        unavailable_replicas: non_zero((total - available).max(0)),
        collision_count: d.status.collision_count,
        conditions: d.status.conditions.clone(),
        ..Default::default()
    };
    let minimum = replicas::replicas(d) - replicas::max_unavailable(d);
    let condition = if available >= minimum {
        progress::condition(
            store,
            "Available",
            "True",
            "MinimumReplicasAvailable",
            "Deployment has minimum availability.",
        )
    } else {
        progress::condition(
            store,
            "Available",
            "False",
            "MinimumReplicasUnavailable",
            "Deployment does not have minimum availability.",
        )
    };
    progress::set_condition(&mut status, condition);
    status
}

/// `syncDeploymentStatus`: write the status if it changed.
pub fn sync_status(store: &mut Store, d: &mut Deployment, family: &Family) {
    let status = calculate_status(store, d, family);
    write_status(store, d, status);
}

pub fn write_status(store: &mut Store, d: &mut Deployment, status: DeploymentStatus) {
    if status == d.status {
        return;
    }
    let mut updated = d.clone();
    updated.status = status;
    if let Ok(stored) = store.update_status(updated) {
        *d = Deployment::clone(&stored);
    }
}
