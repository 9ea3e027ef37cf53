//! RollingUpdate: grow the new ReplicaSet within maxSurge, shrink old ones within
//! maxUnavailable (unhealthy replicas first), and proportional scaling when the replica count
//! changes mid-rollout. Mirrors pkg/controller/deployment/rolling.go and sync.go (`scale`).

use super::progress;
use super::replicas::{self, rs_replicas};
use super::sync::{self, Family, scale_replica_set};
use crate::api::{Deployment, ReplicaSet};
use crate::sim::time::SimTime;
use crate::store::Store;
use std::cmp::Ordering;

/// `rolloutRolling`; returns when to check the progress deadline again.
pub fn rollout_rolling(store: &mut Store, d: &mut Deployment, replica_sets: Vec<ReplicaSet>) -> Option<SimTime> {
    let mut family = sync::family_with_revision(store, d, replica_sets, true);
    if reconcile_new_replica_set(store, d, &mut family) || reconcile_old_replica_sets(store, d, &mut family) {
        return progress::sync_rollout_status(store, d, &family);
    }
    if progress::is_complete(d, &d.status) {
        sync::cleanup(store, d, &family.old);
    }
    progress::sync_rollout_status(store, d, &family)
}

fn reconcile_new_replica_set(store: &mut Store, d: &Deployment, family: &mut Family) -> bool {
    let Some(new) = family.new.as_ref() else { return false };
    let want = replicas::replicas(d);
    let target = match rs_replicas(new).cmp(&want) {
        Ordering::Equal => return false,
        Ordering::Greater => want,
        Ordering::Less => replicas::new_rs_new_replicas(d, &family.all(), Some(new)),
    };
    let mut new = family.new.take().unwrap_or_default();
    let scaled = scale_replica_set(store, d, &mut new, target);
    family.new = Some(new);
    scaled
}

/// `reconcileOldReplicaSets`: how far old ReplicaSets may shrink without breaking availability.
fn reconcile_old_replica_sets(store: &mut Store, d: &Deployment, family: &mut Family) -> bool {
    let old_pods: i32 = family.old.iter().map(rs_replicas).sum();
    if old_pods == 0 {
        return false;
    }
    let all_pods: i32 = family.all().iter().map(|rs| rs_replicas(rs)).sum();
    let min_available = replicas::replicas(d) - replicas::max_unavailable(d);
    let new_unavailable =
        family.new.as_ref().map_or(0, |rs| rs_replicas(rs) - rs.status.available_replicas.unwrap_or(0));
    let max_scaled_down = all_pods - min_available - new_unavailable;
    if max_scaled_down <= 0 {
        return false;
    }
    let cleaned = cleanup_unhealthy_replicas(store, d, &mut family.old, max_scaled_down);
    let scaled = scale_down_old_for_rolling_update(store, d, family);
    cleaned + scaled > 0
}

/// Removes old replicas that are not available anyway, oldest ReplicaSet first.
fn cleanup_unhealthy_replicas(store: &mut Store, d: &Deployment, old: &mut [ReplicaSet], max_cleanup: i32) -> i32 {
    let mut total = 0;
    for rs in old.iter_mut() {
        if total >= max_cleanup {
            break;
        }
        let spec = rs_replicas(rs);
        let available = rs.status.available_replicas.unwrap_or(0);
        if spec == 0 || spec == available {
            continue;
        }
        let count = (max_cleanup - total).min(spec - available);
        scale_replica_set(store, d, rs, spec - count);
        total += count;
    }
    total
}

/// `scaleDownOldReplicaSetsForRollingUpdate`: remove what is available beyond minAvailable.
fn scale_down_old_for_rolling_update(store: &mut Store, d: &Deployment, family: &mut Family) -> i32 {
    let min_available = replicas::replicas(d) - replicas::max_unavailable(d);
    let available: i32 = family.all().iter().map(|rs| rs.status.available_replicas.unwrap_or(0)).sum();
    if available <= min_available {
        return 0;
    }
    let to_remove = available - min_available;
    let mut total = 0;
    for rs in family.old.iter_mut() {
        if total >= to_remove {
            break;
        }
        let spec = rs_replicas(rs);
        if spec == 0 {
            continue;
        }
        let count = spec.min(to_remove - total);
        scale_replica_set(store, d, rs, spec - count);
        total += count;
    }
    total
}

/// Upstream `scale`: size the family for a new replica count, proportionally during a rollout.
pub fn scale(store: &mut Store, d: &Deployment, family: &mut Family) {
    let want = replicas::replicas(d);
    if let Some(only) = active_or_latest(family) {
        if rs_replicas(only) != want {
            let name = only.metadata.name.clone();
            with_replica_set(family, &name, |rs| scale_replica_set(store, d, rs, want));
        }
        return;
    }
    if family.new.as_ref().is_some_and(|rs| is_saturated(d, rs)) {
        for rs in family.old.iter_mut().filter(|rs| rs_replicas(rs) > 0) {
            scale_replica_set(store, d, rs, 0);
        }
        return;
    }
    if replicas::is_rolling(d) {
        scale_proportionally(store, d, family);
    }
}

fn scale_proportionally(store: &mut Store, d: &Deployment, family: &mut Family) {
    let mut active: Vec<ReplicaSet> = family.all().into_iter().filter(|rs| rs_replicas(rs) > 0).cloned().collect();
    let current: i32 = active.iter().map(rs_replicas).sum();
    let allowed = if replicas::replicas(d) > 0 { replicas::replicas(d) + replicas::max_surge(d) } else { 0 };
    let to_add = allowed - current;
    let created = |rs: &ReplicaSet| (rs.metadata.creation_timestamp, rs.metadata.name.clone());
    // Larger first; on ties newer first when growing, older first when shrinking.
    active.sort_by(|a, b| {
        rs_replicas(b)
            .cmp(&rs_replicas(a))
            .then_with(|| if to_add > 0 { created(b).cmp(&created(a)) } else { created(a).cmp(&created(b)) })
    });
    let mut added = 0;
    let mut sizes: Vec<i32> = Vec::with_capacity(active.len());
    for rs in &active {
        let proportion = if to_add != 0 { proportion(rs, d, to_add, added) } else { 0 };
        sizes.push(rs_replicas(rs) + proportion);
        added += proportion;
    }
    if let Some(first) = sizes.first_mut()
        && to_add != 0
    {
        *first = (*first + to_add - added).max(0);
    }
    for (rs, size) in active.iter().zip(sizes) {
        let name = rs.metadata.name.clone();
        with_replica_set(family, &name, |rs| scale_replica_set(store, d, rs, size));
    }
}

/// `GetProportion`: this ReplicaSet's share of the change, bounded by what is left to hand out.
fn proportion(rs: &ReplicaSet, d: &Deployment, to_add: i32, added: i32) -> i32 {
    if rs_replicas(rs) == 0 || to_add == 0 || to_add == added {
        return 0;
    }
    let fraction = fraction(rs, d);
    let allowed = to_add - added;
    if to_add > 0 { fraction.min(allowed) } else { fraction.max(allowed) }
}

/// `getReplicaSetFraction`: round(rs × (replicas + maxSurge) / max-replicas annotation) − rs.
fn fraction(rs: &ReplicaSet, d: &Deployment) -> i32 {
    let size = rs_replicas(rs);
    if replicas::replicas(d) == 0 {
        return -size;
    }
    let target = i64::from(replicas::replicas(d) + replicas::max_surge(d));
    let annotated = i64::from(replicas::max_replicas_annotation(rs).unwrap_or(d.status.replicas.unwrap_or(0)));
    if annotated == 0 {
        return 0;
    }
    // math.Round (half away from zero) of a non-negative ratio, in integers.
    let numerator = i64::from(size) * target;
    let rounded = (2 * numerator + annotated) / (2 * annotated);
    rounded as i32 - size
}

/// `FindActiveOrLatest`: the one ReplicaSet with replicas, or the newest when none has any.
fn active_or_latest(family: &Family) -> Option<&ReplicaSet> {
    let active: Vec<&ReplicaSet> = family.all().into_iter().filter(|rs| rs_replicas(rs) > 0).collect();
    match active.len() {
        0 => family.new.as_ref().or_else(|| family.old.last()),
        1 => Some(active[0]),
        _ => None,
    }
}

/// `IsSaturated`: the new ReplicaSet has every replica, sized for this count, all available.
fn is_saturated(d: &Deployment, rs: &ReplicaSet) -> bool {
    let want = replicas::replicas(d);
    rs_replicas(rs) == want
        && replicas::desired_annotation(rs) == Some(want)
        && rs.status.available_replicas.unwrap_or(0) == want
}

fn with_replica_set<R>(family: &mut Family, name: &str, f: impl FnOnce(&mut ReplicaSet) -> R) -> Option<R> {
    family.old.iter_mut().chain(family.new.as_mut()).find(|rs| rs.metadata.name == name).map(f)
}
