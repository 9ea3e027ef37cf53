//! The PV controller's binder (pkg/controller/volume/persistentvolume/pv_controller.go):
//! `syncClaim` finds a pending claim the smallest available volume that fits — same class,
//! every access mode asked for, enough capacity, the selector — or leaves it to its class's
//! provisioner, or to the first pod that uses it when the class waits for one; `syncVolume`
//! keeps each volume's phase and releases one whose claim is gone.

use crate::api::endpoint_slice::ObjectReference;
use crate::api::persistent_volume::{VOLUME_AVAILABLE, VOLUME_BOUND, VOLUME_RELEASED};
use crate::api::persistent_volume_claim::{
    ANN_BETA_STORAGE_PROVISIONER, ANN_BIND_COMPLETED, ANN_BOUND_BY_CONTROLLER, ANN_SELECTED_NODE,
    ANN_STORAGE_PROVISIONER, CLAIM_BOUND, CLAIM_PENDING,
};
use crate::api::{PersistentVolume, PersistentVolumeClaim, StorageClass};
use crate::store::event_recorder::{EventType, object_reference};
use crate::store::{Store, UserInfo};
use std::cmp::Ordering;

/// The component its Events name (the binder runs as `persistent-volume-binder`).
const COMPONENT: &str = "persistentvolume-controller";

/// Syncs the named claims (every claim when `None`), then every volume.
pub fn sync(store: &mut Store, claims: Option<&Vec<(String, String)>>) {
    store.act_as(UserInfo::controller("persistent-volume-binder"));
    let keys: Vec<(String, String)> = match claims {
        Some(keys) => keys.clone(),
        None => store
            .list::<PersistentVolumeClaim>(None)
            .map(|c| (c.metadata.namespace.clone(), c.metadata.name.clone()))
            .collect(),
    };
    for (namespace, name) in keys {
        if let Some(claim) = store.try_get::<PersistentVolumeClaim>(&namespace, &name).cloned() {
            sync_claim(store, claim);
        }
    }
    let volumes: Vec<PersistentVolume> = store.list::<PersistentVolume>(None).cloned().collect();
    for volume in volumes {
        sync_volume(store, volume);
    }
}

/// Whether a claim still waits for a volume (the resync then comes back for it).
pub fn any_pending(store: &Store) -> bool {
    store
        .list::<PersistentVolumeClaim>(None)
        .any(|c| c.phase() == CLAIM_PENDING && c.metadata.deletion_timestamp.is_none())
}

fn event(store: &mut Store, claim: &PersistentVolumeClaim, type_: EventType, reason: &str, message: String) {
    store.record_event_from(COMPONENT, object_reference(claim), type_, reason, message);
}

fn sync_claim(store: &mut Store, claim: PersistentVolumeClaim) {
    if claim.metadata.deletion_timestamp.is_some() || claim.phase() == CLAIM_BOUND {
        return;
    }
    let class = store.try_get::<StorageClass>("", claim.class()).cloned();
    let waits = class.as_ref().is_some_and(StorageClass::waits_for_first_consumer);
    let selected_node = claim.metadata.annotations.get(ANN_SELECTED_NODE).map(str::to_string);
    if let Some(volume) = find_volume(store, &claim, selected_node.as_deref())
        && (!waits || selected_node.is_some() || pre_bound(&volume, &claim))
    {
        return bind(store, volume, claim);
    }
    if waits && selected_node.is_none() {
        return match unscheduled_user(store, &claim) {
            Some(pod) => {
                let message = format!("waiting for pod {pod} to be scheduled");
                event(store, &claim, EventType::Normal, "WaitForPodScheduled", message)
            }
            None => {
                let message = "waiting for first consumer to be created before binding".to_string();
                event(store, &claim, EventType::Normal, "WaitForFirstConsumer", message)
            }
        };
    }
    match class {
        Some(class) if !claim.class().is_empty() => provision(store, claim, &class),
        None if !claim.class().is_empty() => {
            let message = format!("storageclass.storage.k8s.io {:?} not found", claim.class());
            event(store, &claim, EventType::Warning, "ProvisioningFailed", message);
        }
        _ => {
            let message = "no persistent volumes available for this claim and no storage class is set".to_string();
            event(store, &claim, EventType::Normal, "FailedBinding", message);
        }
    }
}

/// `findNonScheduledPodsByPVC`: a pod that uses the claim and has no node yet.
fn unscheduled_user(store: &Store, claim: &PersistentVolumeClaim) -> Option<String> {
    store
        .list::<crate::api::Pod>(Some(&claim.metadata.namespace))
        .filter(|pod| pod.node_name().is_none())
        .find(|pod| {
            pod.spec
                .volumes
                .iter()
                .any(|v| v.persistent_volume_claim.as_ref().is_some_and(|c| c.claim_name == claim.metadata.name))
        })
        .map(|pod| pod.metadata.name.clone())
}

/// `provisionClaim` for an external provisioner: the claim is marked for it, and waits.
fn provision(store: &mut Store, mut claim: PersistentVolumeClaim, class: &StorageClass) {
    let annotations = &mut claim.metadata.annotations;
    if annotations.get(ANN_STORAGE_PROVISIONER) != Some(class.provisioner.as_str()) {
        annotations.insert(ANN_STORAGE_PROVISIONER.to_string(), class.provisioner.clone());
        annotations.insert(ANN_BETA_STORAGE_PROVISIONER.to_string(), class.provisioner.clone());
        match store.update(claim) {
            Ok(updated) => claim = updated,
            Err(_) => return,
        }
    }
    let message = format!(
        "Waiting for a volume to be created either by the external provisioner '{}' or manually by the system administrator. If volume creation is delayed, please verify that your external provisioner is running and correctly registered.",
        class.provisioner
    );
    event(store, &claim, EventType::Normal, "ExternalProvisioning", message);
}

/// A volume already pointing at this claim (a provisioned one, or one an administrator
/// pre-bound).
fn pre_bound(volume: &PersistentVolume, claim: &PersistentVolumeClaim) -> bool {
    volume.spec.claim_ref.as_ref().is_some_and(|r| {
        r.namespace.as_deref() == Some(claim.metadata.namespace.as_str())
            && r.name.as_deref() == Some(claim.metadata.name.as_str())
            && r.uid.is_none_or(|uid| uid == claim.metadata.uid)
    })
}

/// `findBestMatchForClaim`: the claim's own volume if it names or is named by one, else the
/// smallest available volume that fits.
fn find_volume(store: &Store, claim: &PersistentVolumeClaim, node: Option<&str>) -> Option<PersistentVolume> {
    if let Some(name) = claim.spec.volume_name.as_deref().filter(|n| !n.is_empty()) {
        return store.try_get::<PersistentVolume>("", name).cloned();
    }
    let volumes = store.list::<PersistentVolume>(None).filter(|v| v.metadata.deletion_timestamp.is_none());
    let mut candidates: Vec<&PersistentVolume> = Vec::new();
    for volume in volumes {
        if pre_bound(volume, claim) {
            return Some(volume.clone());
        }
        if volume.spec.claim_ref.is_none() && fits(volume, claim, node) {
            candidates.push(volume);
        }
    }
    candidates
        .into_iter()
        .min_by(|a, b| compare_size(a, b).then_with(|| a.metadata.name.cmp(&b.metadata.name)))
        .cloned()
}

fn compare_size(a: &PersistentVolume, b: &PersistentVolume) -> Ordering {
    match (a.capacity(), b.capacity()) {
        (Some(a), Some(b)) => a.cmp_value(b),
        _ => Ordering::Equal,
    }
}

/// `checkVolumeSatisfyClaim` and the selector, class and node checks around it.
fn fits(volume: &PersistentVolume, claim: &PersistentVolumeClaim, node: Option<&str>) -> bool {
    let big_enough = match (volume.capacity(), claim.requested_storage()) {
        (Some(size), Some(wanted)) => size.cmp_value(wanted) != Ordering::Less,
        _ => false,
    };
    let modes = claim.spec.access_modes.iter().all(|m| volume.spec.access_modes.contains(m));
    // A claim without a selector takes any volume.
    let selector = claim.spec.selector.as_ref().is_none_or(|s| s.matches(&volume.metadata.labels));
    let mode = volume.spec.volume_mode == claim.spec.volume_mode;
    let on_node = match (node, volume.pinned_node()) {
        (Some(node), Some(pinned)) => node == pinned,
        _ => true,
    };
    big_enough && modes && selector && mode && on_node && volume.class() == claim.class()
}

/// `bind`: the volume to the claim, its phase, the claim to the volume, the claim's status —
/// four writes, as upstream makes them.
fn bind(store: &mut Store, mut volume: PersistentVolume, mut claim: PersistentVolumeClaim) {
    if volume.spec.claim_ref.as_ref().is_none_or(|r| r.uid != Some(claim.metadata.uid)) {
        if volume.spec.claim_ref.is_none() {
            volume.metadata.annotations.insert(ANN_BOUND_BY_CONTROLLER.to_string(), "yes".to_string());
        }
        volume.spec.claim_ref = Some(claim_reference(&claim));
        match store.update(volume) {
            Ok(updated) => volume = updated,
            Err(_) => return,
        }
    }
    if volume.phase() != VOLUME_BOUND {
        volume.status.phase = Some(VOLUME_BOUND.to_string());
        volume.status.last_phase_transition_time = Some(crate::api::meta::Time(store.now()));
        let _ = store.update_status(volume.clone());
    }
    if claim.spec.volume_name.as_deref() != Some(volume.metadata.name.as_str())
        || claim.metadata.annotations.get(ANN_BIND_COMPLETED).is_none()
    {
        if claim.spec.volume_name.is_none() {
            claim.metadata.annotations.insert(ANN_BOUND_BY_CONTROLLER.to_string(), "yes".to_string());
        }
        claim.metadata.annotations.insert(ANN_BIND_COMPLETED.to_string(), "yes".to_string());
        claim.spec.volume_name = Some(volume.metadata.name.clone());
        match store.update(claim) {
            Ok(updated) => claim = updated,
            Err(_) => return,
        }
    }
    claim.status.phase = Some(CLAIM_BOUND.to_string());
    claim.status.access_modes = volume.spec.access_modes.clone();
    claim.status.capacity = volume.spec.capacity.clone();
    let _ = store.update_status(claim);
}

/// The claimRef a bound volume carries.
pub(super) fn claim_reference(claim: &PersistentVolumeClaim) -> ObjectReference {
    ObjectReference {
        kind: Some("PersistentVolumeClaim".to_string()),
        namespace: Some(claim.metadata.namespace.clone()),
        name: Some(claim.metadata.name.clone()),
        uid: Some(claim.metadata.uid),
        api_version: Some("v1".to_string()),
        resource_version: Some(claim.metadata.resource_version.0.to_string()),
        field_path: None,
    }
}

/// `syncVolume`: Available without a claim, Bound with its claim, Released once the claim it
/// was bound to is gone (a Retain volume stays so; a Delete volume goes with its provisioner).
fn sync_volume(store: &mut Store, mut volume: PersistentVolume) {
    if volume.metadata.deletion_timestamp.is_some() {
        return;
    }
    let wanted = match &volume.spec.claim_ref {
        None => VOLUME_AVAILABLE,
        Some(reference) => {
            let namespace = reference.namespace.as_deref().unwrap_or("");
            let claim = store.try_get::<PersistentVolumeClaim>(namespace, reference.name.as_deref().unwrap_or(""));
            match claim {
                Some(claim) if reference.uid.is_none_or(|uid| uid == claim.metadata.uid) => {
                    if claim.spec.volume_name.as_deref() == Some(volume.metadata.name.as_str()) {
                        VOLUME_BOUND
                    } else {
                        return;
                    }
                }
                // Its claim is gone: a volume never bound yet (a provisioned one whose
                // claim went first) is released all the same.
                _ => VOLUME_RELEASED,
            }
        }
    };
    if volume.phase() != wanted && volume.phase() != crate::api::persistent_volume::VOLUME_FAILED {
        volume.status.phase = Some(wanted.to_string());
        volume.status.last_phase_transition_time = Some(crate::api::meta::Time(store.now()));
        let _ = store.update_status(volume);
    }
}
