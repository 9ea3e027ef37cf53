//! Recreate: every old pod gone first, then the new ReplicaSet at full size.
//! Mirrors pkg/controller/deployment/recreate.go.

use super::progress;
use super::replicas::{self, rs_replicas};
use super::sync::{self, scale_replica_set};
use crate::api::{Deployment, Pod, ReplicaSet};
use crate::sim::time::SimTime;
use crate::store::Store;

pub fn rollout_recreate(store: &mut Store, d: &mut Deployment, replica_sets: Vec<ReplicaSet>) -> Option<SimTime> {
    let mut family = sync::family_with_revision(store, d, replica_sets.clone(), false);
    let mut scaled_down = false;
    for rs in family.old.iter_mut().filter(|rs| rs_replicas(rs) > 0) {
        scaled_down |= scale_replica_set(store, d, rs, 0);
    }
    if scaled_down || old_pods_running(store, &family.old) {
        return progress::sync_rollout_status(store, d, &family);
    }
    if family.new.is_none() {
        let refreshed = sync::replica_sets_for(store, d);
        family = sync::family_with_revision(store, d, refreshed, true);
    }
    if let Some(new) = family.new.as_mut()
        && rs_replicas(new) != replicas::replicas(d)
    {
        scale_replica_set(store, d, new, replicas::replicas(d));
    }
    if progress::is_complete(d, &d.status) {
        sync::cleanup(store, d, &family.old);
    }
    progress::sync_rollout_status(store, d, &family)
}

/// `oldPodsRunning`: any pod of an old ReplicaSet not yet Succeeded or Failed, terminating or not.
fn old_pods_running(store: &Store, old: &[ReplicaSet]) -> bool {
    old.iter().any(|rs| store.owned::<Pod>(rs.metadata.uid).any(|p| !matches!(p.phase(), "Succeeded" | "Failed")))
}
