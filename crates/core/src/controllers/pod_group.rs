//! The PodGroup controller of kubernetes-sigs/scheduler-plugins (pkg/controllers,
//! `PodGroupReconciler`): a gang's status from its members — Pending until `minMember` pods
//! exist, Scheduling until that many run, Running, then Finished or Failed — with the counts
//! `kubectl get podgroups` shows. One step per reconcile, as upstream's: each status write makes
//! the next pass look again. Does nothing while the `coscheduling` add-on is not installed.

use crate::api::pod_group::POD_GROUP_LABEL;
use crate::api::{Kind, Pod, PodGroup};
use crate::store::Store;

pub const PENDING: &str = "Pending";
pub const SCHEDULING: &str = "Scheduling";
pub const RUNNING: &str = "Running";
pub const FINISHED: &str = "Finished";
pub const FAILED: &str = "Failed";

#[derive(Clone, Debug, Default)]
pub struct PodGroupController;

impl PodGroupController {
    pub fn sync(&mut self, store: &mut Store) {
        if !store.serves(Kind::PodGroup) {
            return;
        }
        let groups: Vec<PodGroup> = store.list::<PodGroup>(None).cloned().collect();
        for group in groups {
            if let Some(updated) = reconcile(store, &group) {
                let _ = store.update_status(updated);
            }
        }
    }
}

/// Upstream `Reconcile`: the group's next status, or None when it stays as it is.
fn reconcile(store: &Store, group: &PodGroup) -> Option<PodGroup> {
    let phase = group.status.phase.as_deref().unwrap_or_default();
    if phase == FINISHED || phase == FAILED || group.metadata.deletion_timestamp.is_some() {
        return None;
    }
    let members: Vec<&Pod> = store
        .list::<Pod>(Some(&group.metadata.namespace))
        .filter(|p| p.metadata.labels.get(POD_GROUP_LABEL) == Some(group.metadata.name.as_str()))
        .collect();
    let min_member = group.spec.min_member.unwrap_or(0);
    let mut next = group.clone();
    let status = &mut next.status;
    match phase {
        "" => status.phase = Some(PENDING.into()),
        PENDING => {
            if members.len() >= min_member as usize {
                status.phase = Some(SCHEDULING.into());
                status.occupied_by = occupied_by(members.first().copied());
            }
        }
        _ => {
            let count = |wanted: &str| members.iter().filter(|p| p.phase() == wanted).count() as i32;
            let (running, succeeded, failed) = (count("Running"), count("Succeeded"), count("Failed"));
            (status.running, status.succeeded, status.failed) = (Some(running), Some(succeeded), Some(failed));
            status.phase = Some(
                if members.len() < min_member as usize {
                    PENDING
                } else if succeeded >= min_member {
                    FINISHED
                } else if failed != 0 && failed + running + succeeded >= min_member {
                    FAILED
                } else if succeeded + running >= min_member {
                    RUNNING
                } else {
                    SCHEDULING
                }
                .into(),
            );
        }
    }
    (next != *group).then_some(next)
}

/// Upstream `fillOccupiedObj`: the first member's owners, `namespace/name`, sorted.
fn occupied_by(pod: Option<&Pod>) -> Option<String> {
    let pod = pod?;
    let mut owners: Vec<String> =
        pod.metadata.owner_references.iter().map(|o| format!("{}/{}", pod.metadata.namespace, o.name)).collect();
    owners.sort();
    (!owners.is_empty()).then(|| owners.join(","))
}
