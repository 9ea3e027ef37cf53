//! Progress reporting: the Progressing and Available conditions, the progress deadline, and
//! when to look again. Mirrors pkg/controller/deployment/progress.go and the condition helpers
//! of deployment_util.go (`SetDeploymentCondition`, `DeploymentComplete`, `DeploymentTimedOut`).

use super::replicas;
use super::sync::{Family, calculate_status, write_status};
use crate::api::Deployment;
use crate::api::deployment::{DeploymentCondition, DeploymentStatus};
use crate::api::meta::Time;
use crate::sim::time::SimTime;
use crate::store::Store;

pub const PROGRESSING: &str = "Progressing";
pub const NEW_RS_AVAILABLE: &str = "NewReplicaSetAvailable";
pub const TIMED_OUT: &str = "ProgressDeadlineExceeded";

/// A condition stamped now; API times have whole seconds, so the deadline math does too.
pub fn condition(store: &Store, type_: &str, status: &str, reason: &str, message: &str) -> DeploymentCondition {
    let now = Time(SimTime(store.now().as_millis() / 1000 * 1000));
    DeploymentCondition {
        type_: type_.to_string(),
        status: status.to_string(),
        last_update_time: Some(now),
        last_transition_time: Some(now),
        reason: Some(reason.to_string()),
        message: Some(message.to_string()),
    }
}

pub fn get_condition<'a>(status: &'a DeploymentStatus, type_: &str) -> Option<&'a DeploymentCondition> {
    status.conditions.iter().find(|c| c.type_ == type_)
}

/// `SetDeploymentCondition`: same status and reason ⇒ unchanged (keeps lastUpdateTime);
/// same status ⇒ keeps lastTransitionTime.
pub fn set_condition(status: &mut DeploymentStatus, mut condition: DeploymentCondition) {
    if let Some(current) = get_condition(status, &condition.type_) {
        if current.status == condition.status && current.reason == condition.reason {
            return;
        }
        if current.status == condition.status {
            condition.last_transition_time = current.last_transition_time;
        }
    }
    status.conditions.retain(|c| c.type_ != condition.type_);
    status.conditions.push(condition);
}

fn remove_condition(status: &mut DeploymentStatus, type_: &str) {
    status.conditions.retain(|c| c.type_ != type_);
}

pub fn has_progress_deadline(d: &Deployment) -> bool {
    d.spec.progress_deadline_seconds.is_some_and(|s| s != i32::MAX)
}

/// Records `Progressing=True NewReplicaSetCreated` right after the new ReplicaSet is made.
pub fn new_replica_set_created(store: &mut Store, d: &mut Deployment, rs_name: &str) {
    if !has_progress_deadline(d) {
        return;
    }
    let message = format!("Created new replica set \"{rs_name}\"");
    let mut status = d.status.clone();
    set_condition(&mut status, condition(store, PROGRESSING, "True", "NewReplicaSetCreated", &message));
    write_status(store, d, status);
}

/// `checkPausedConditions`: Progressing=Unknown DeploymentPaused / DeploymentResumed.
pub fn check_paused_condition(store: &mut Store, d: &mut Deployment) {
    if !has_progress_deadline(d) {
        return;
    }
    let current = get_condition(&d.status, PROGRESSING);
    if current.is_some_and(|c| c.reason.as_deref() == Some(TIMED_OUT)) {
        return;
    }
    let paused_recorded = current.is_some_and(|c| c.reason.as_deref() == Some("DeploymentPaused"));
    let paused = d.spec.paused == Some(true);
    let (reason, message) = match (paused, paused_recorded) {
        (true, false) => ("DeploymentPaused", "Deployment is paused"),
        (false, true) => ("DeploymentResumed", "Deployment is resumed"),
        _ => return,
    };
    let mut status = d.status.clone();
    set_condition(&mut status, condition(store, PROGRESSING, "Unknown", reason, message));
    write_status(store, d, status);
}

/// `DeploymentComplete`: every replica updated and available, and the spec observed.
pub fn is_complete(d: &Deployment, status: &DeploymentStatus) -> bool {
    let want = replicas::replicas(d);
    status.updated_replicas.unwrap_or(0) == want
        && status.replicas.unwrap_or(0) == want
        && status.available_replicas.unwrap_or(0) == want
        && status.observed_generation.unwrap_or(0) >= d.metadata.generation
}

/// `DeploymentProgressing`: more updated, fewer old, more ready or more available than before.
fn is_progressing(d: &Deployment, new: &DeploymentStatus) -> bool {
    let old = &d.status;
    let old_old = old.replicas.unwrap_or(0) - old.updated_replicas.unwrap_or(0);
    let new_old = new.replicas.unwrap_or(0) - new.updated_replicas.unwrap_or(0);
    new.updated_replicas.unwrap_or(0) > old.updated_replicas.unwrap_or(0)
        || new_old < old_old
        || new.ready_replicas.unwrap_or(0) > old.ready_replicas.unwrap_or(0)
        || new.available_replicas.unwrap_or(0) > old.available_replicas.unwrap_or(0)
}

/// When the Progressing condition's deadline passes (lastUpdateTime + progressDeadlineSeconds).
fn deadline(d: &Deployment, status: &DeploymentStatus) -> Option<SimTime> {
    let seconds = u64::try_from(d.spec.progress_deadline_seconds?).ok()?;
    let since = get_condition(status, PROGRESSING)?.last_update_time?.0;
    Some(since.plus(crate::sim::time::Duration::from_secs(seconds)))
}

/// `DeploymentTimedOut`: the deadline is strictly before now.
fn timed_out(store: &Store, d: &Deployment, status: &DeploymentStatus) -> bool {
    if !has_progress_deadline(d) {
        return false;
    }
    match get_condition(status, PROGRESSING).and_then(|c| c.reason.as_deref()) {
        None | Some(NEW_RS_AVAILABLE) => false,
        Some(TIMED_OUT) => true,
        Some(_) => deadline(d, status).is_some_and(|at| at < store.now()),
    }
}

/// `syncRolloutStatus`: status plus Progressing; returns when to check the deadline again.
pub fn sync_rollout_status(store: &mut Store, d: &mut Deployment, family: &Family) -> Option<SimTime> {
    let mut status = calculate_status(store, d, family);
    if !has_progress_deadline(d) {
        remove_condition(&mut status, PROGRESSING);
    }
    let current = get_condition(&status, PROGRESSING).cloned();
    let rs_name = family.new.as_ref().map(|rs| rs.metadata.name.clone()).unwrap_or_default();
    let already_complete = status.replicas == status.updated_replicas
        && current.as_ref().is_some_and(|c| c.reason.as_deref() == Some(NEW_RS_AVAILABLE));
    if has_progress_deadline(d) && !already_complete {
        if is_complete(d, &status) {
            let message = format!("ReplicaSet \"{rs_name}\" has successfully progressed.");
            set_condition(&mut status, condition(store, PROGRESSING, "True", NEW_RS_AVAILABLE, &message));
        } else if is_progressing(d, &status) {
            let message = format!("ReplicaSet \"{rs_name}\" is progressing.");
            let mut fresh = condition(store, PROGRESSING, "True", "ReplicaSetUpdated", &message);
            if let Some(current) = current.as_ref().filter(|c| c.status == "True") {
                fresh.last_transition_time = current.last_transition_time;
            }
            remove_condition(&mut status, PROGRESSING);
            set_condition(&mut status, fresh);
        } else if timed_out(store, d, &status) {
            let message = format!("ReplicaSet \"{rs_name}\" has timed out progressing.");
            set_condition(&mut status, condition(store, PROGRESSING, "False", TIMED_OUT, &message));
        }
    }
    match replica_failure(family) {
        Some(failure) => set_condition(&mut status, failure),
        None => remove_condition(&mut status, REPLICA_FAILURE),
    }
    let requeue = requeue_stuck(d, &status);
    write_status(store, d, status);
    requeue
}

const REPLICA_FAILURE: &str = crate::controllers::replica_set::REPLICA_FAILURE;

/// `getReplicaFailures`: the new ReplicaSet's ReplicaFailure condition, else an old one's, as a
/// Deployment condition (`ReplicaSetToDeploymentCondition`: updated when it last changed).
fn replica_failure(family: &Family) -> Option<DeploymentCondition> {
    let mut sets: Vec<&crate::api::ReplicaSet> = family.new.iter().collect();
    sets.extend(family.old.iter());
    let found = sets.into_iter().find_map(|rs| rs.status.conditions.iter().find(|c| c.type_ == REPLICA_FAILURE))?;
    Some(DeploymentCondition {
        type_: found.type_.clone(),
        status: found.status.clone(),
        last_update_time: found.last_transition_time,
        last_transition_time: found.last_transition_time,
        reason: found.reason.clone(),
        message: found.message.clone(),
    })
}

/// `requeueStuckDeployment`: a rollout in progress is looked at again a second after its deadline.
fn requeue_stuck(d: &Deployment, status: &DeploymentStatus) -> Option<SimTime> {
    let current = get_condition(status, PROGRESSING)?;
    let reason = current.reason.as_deref();
    if !has_progress_deadline(d) || reason == Some(NEW_RS_AVAILABLE) || reason == Some(TIMED_OUT) {
        return None;
    }
    if is_complete(d, status) {
        return None;
    }
    Some(deadline(d, status)?.plus(crate::sim::time::Duration::from_secs(1)))
}
