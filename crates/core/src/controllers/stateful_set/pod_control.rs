//! Creating and deleting a StatefulSet's pods and their claims, with the events upstream's
//! `StatefulPodControl` records, and the claims' ownerReferences that carry out the
//! persistentVolumeClaimRetentionPolicy. Mirrors pkg/controller/statefulset/stateful_pod_control.go
//! and stateful_set_utils.go (`updateClaimOwnerRefForSetAndPod`).

use super::identity;
use crate::api::meta::{OwnerReference, Uid};
use crate::api::persistent_volume_claim::PersistentVolumeClaim;
use crate::api::stateful_set::DELETE;
use crate::api::{Pod, StatefulSet};
use crate::error::ApiError;
use crate::store::event_recorder::{EventType, object_reference};
use crate::store::{DeleteOptions, Store};

/// `recordPodEvent`: `SuccessfulCreate` "create Pod web-0 in StatefulSet web successful", or
/// `FailedCreate` with the error.
fn record_pod_event(store: &mut Store, set: &StatefulSet, verb: &str, pod: &str, result: &Result<(), ApiError>) {
    let set_name = &set.metadata.name;
    let (type_, reason, message) = match result {
        Ok(()) => (EventType::Normal, "Successful", format!("{verb} Pod {pod} in StatefulSet {set_name} successful")),
        Err(err) => (
            EventType::Warning,
            "Failed",
            format!("{verb} Pod {pod} in StatefulSet {set_name} failed error: {}", err.message()),
        ),
    };
    store.record_event(object_reference(set), type_, &format!("{reason}{}", title(verb)), message);
}

/// `recordClaimEvent`.
fn record_claim_event(store: &mut Store, set: &StatefulSet, pod: &str, claim: &str, result: &Result<(), ApiError>) {
    let set_name = &set.metadata.name;
    let (type_, reason, message) = match result {
        Ok(()) => (
            EventType::Normal,
            "SuccessfulCreate",
            format!("create Claim {claim} Pod {pod} in StatefulSet {set_name} success"),
        ),
        Err(err) => (
            EventType::Warning,
            "FailedCreate",
            format!("create Claim {claim} for Pod {pod} in StatefulSet {set_name} failed error: {}", err.message()),
        ),
    };
    store.record_event(object_reference(set), type_, reason, message);
}

fn title(verb: &str) -> String {
    let mut chars = verb.chars();
    chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
}

/// `CreateStatefulPod`: the pod's missing claims first, then the pod, then the claims'
/// ownerReferences as the retention policy wants them.
pub fn create_pod(store: &mut Store, set: &StatefulSet, pod: Pod, ordinal: i32) -> Result<(), ApiError> {
    let name = pod.metadata.name.clone();
    if let Err(err) = create_missing_claims(store, set, &name, ordinal) {
        record_pod_event(store, set, "create", &name, &Err(err.clone()));
        return Err(err);
    }
    let created = store.create(pod);
    if let Err(ApiError::AlreadyExists { .. }) = created {
        return created.map(|_| ());
    }
    let result = created.map(|pod| update_claims_for_retention(store, set, &pod, ordinal));
    record_pod_event(store, set, "create", &name, &result);
    result
}

/// `createPersistentVolumeClaims`: each claim the pod needs that does not exist yet.
pub fn create_missing_claims(store: &mut Store, set: &StatefulSet, pod: &str, ordinal: i32) -> Result<(), ApiError> {
    for claim in identity::claims_for(set, ordinal) {
        let namespace = claim.metadata.namespace.clone();
        let claim_name = claim.metadata.name.clone();
        match store.try_get::<PersistentVolumeClaim>(&namespace, &claim_name) {
            Some(existing) if existing.metadata.deletion_timestamp.is_some() => {
                return Err(ApiError::BadRequest { message: format!("pvc {claim_name} is being deleted") });
            }
            Some(_) => {}
            None => {
                let result = store.create(claim).map(|_| ());
                if !matches!(result, Err(ApiError::AlreadyExists { .. })) {
                    record_claim_event(store, set, pod, &claim_name, &result);
                }
                result?;
            }
        }
    }
    Ok(())
}

/// `DeleteStatefulPod`.
pub fn delete_pod(store: &mut Store, set: &StatefulSet, pod: &str) -> Result<(), ApiError> {
    let result = store.delete::<Pod>(&set.metadata.namespace, pod, &DeleteOptions::default()).map(|_| ());
    record_pod_event(store, set, "delete", pod, &result);
    result
}

/// `UpdatePodClaimForRetentionPolicy`: sets or clears the set's and the pod's ownerReferences
/// on each of the pod's claims as `updateClaimOwnerRefForSetAndPod` decides. With Retain for
/// both (the default) a claim has no owner and outlives both.
pub fn update_claims_for_retention(store: &mut Store, set: &StatefulSet, pod: &Pod, ordinal: i32) {
    let (when_scaled, when_deleted) = set.spec.retention();
    let scaled_down = !identity::in_ordinal_range(set, ordinal);
    let set_owns = when_deleted == DELETE && !(when_scaled == DELETE && scaled_down);
    let pod_owns = when_scaled == DELETE && scaled_down;
    for wanted in identity::claims_for(set, ordinal) {
        let namespace = &set.metadata.namespace;
        let Some(claim) = store.try_get::<PersistentVolumeClaim>(namespace, &wanted.metadata.name) else { continue };
        let mut claim = claim.clone();
        let refs = &mut claim.metadata.owner_references;
        let before = refs.clone();
        set_owner(refs, set_owns, owner_ref("apps/v1", "StatefulSet", &set.metadata.name, set.metadata.uid));
        set_owner(refs, pod_owns, owner_ref("v1", "Pod", &pod.metadata.name, pod.metadata.uid));
        if *refs != before {
            let _ = store.update(claim);
        }
    }
}

/// `setOwnerRef` / `removeOwnerRef`: a plain reference, neither controller nor blocking.
fn set_owner(refs: &mut Vec<OwnerReference>, wanted: bool, owner: OwnerReference) {
    let present = refs.iter().any(|r| r.uid == owner.uid);
    if wanted && !present {
        refs.push(owner);
    } else if !wanted && present {
        refs.retain(|r| r.uid != owner.uid);
    }
}

fn owner_ref(api_version: &str, kind: &str, name: &str, uid: Uid) -> OwnerReference {
    OwnerReference {
        api_version: api_version.to_string(),
        kind: kind.to_string(),
        name: name.to_string(),
        uid,
        controller: None,
        block_owner_deletion: None,
    }
}
