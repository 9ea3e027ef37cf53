//! The protection controllers (pkg/controller/volume/pvcprotection, pvprotection): a deleted
//! claim keeps its `kubernetes.io/pvc-protection` finalizer while a pod that has not finished
//! uses it, and a deleted volume its `kubernetes.io/pv-protection` while it is bound.

use crate::api::persistent_volume::{PV_PROTECTION_FINALIZER, VOLUME_BOUND};
use crate::api::persistent_volume_claim::PVC_PROTECTION_FINALIZER;
use crate::api::{PersistentVolume, PersistentVolumeClaim, Pod};
use crate::store::{Store, UserInfo};

pub fn sync(store: &mut Store) {
    store.act_as(UserInfo::controller("pvc-protection-controller"));
    let claims: Vec<PersistentVolumeClaim> = store
        .list::<PersistentVolumeClaim>(None)
        .filter(|c| {
            c.metadata.deletion_timestamp.is_some()
                && c.metadata.finalizers.iter().any(|f| f == PVC_PROTECTION_FINALIZER)
        })
        .cloned()
        .collect();
    for mut claim in claims {
        if !in_use(store, &claim) {
            claim.metadata.finalizers.retain(|f| f != PVC_PROTECTION_FINALIZER);
            let _ = store.update(claim);
        }
    }
    store.act_as(UserInfo::controller("pv-protection-controller"));
    let volumes: Vec<PersistentVolume> = store
        .list::<PersistentVolume>(None)
        .filter(|v| {
            v.metadata.deletion_timestamp.is_some()
                && v.metadata.finalizers.iter().any(|f| f == PV_PROTECTION_FINALIZER)
        })
        .cloned()
        .collect();
    for mut volume in volumes {
        if volume.phase() != VOLUME_BOUND {
            volume.metadata.finalizers.retain(|f| f != PV_PROTECTION_FINALIZER);
            let _ = store.update(volume);
        }
    }
}

/// `podUsesPVC` over the claim's namespace: a pod that names it and has not finished.
fn in_use(store: &Store, claim: &PersistentVolumeClaim) -> bool {
    let namespace = &claim.metadata.namespace;
    store.list::<Pod>(Some(namespace)).any(|pod| {
        let finished = matches!(pod.status.phase.as_deref(), Some("Succeeded" | "Failed"));
        !finished
            && pod
                .spec
                .volumes
                .iter()
                .any(|v| v.persistent_volume_claim.as_ref().is_some_and(|c| c.claim_name == claim.metadata.name))
    })
}
