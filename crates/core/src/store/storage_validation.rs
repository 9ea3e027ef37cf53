//! Defaults and validation of the storage kinds, worded as upstream's pkg/apis/core/validation
//! (`ValidatePersistentVolumeClaim`, `ValidatePersistentVolume` and their updates) and
//! pkg/apis/storage/validation (`ValidateStorageClass`).

use crate::api::persistent_volume::{RECLAIM_DELETE, RECLAIM_RECYCLE, RECLAIM_RETAIN, VOLUME_PENDING};
use crate::api::persistent_volume_claim::{CLAIM_BOUND, CLAIM_PENDING, VOLUME_MODE_BLOCK, VOLUME_MODE_FILESYSTEM};
use crate::api::storage_class::{VOLUME_BINDING_IMMEDIATE, VOLUME_BINDING_WAIT_FOR_FIRST_CONSUMER};
use crate::api::{PersistentVolume, PersistentVolumeClaim, StorageClass};
use crate::error::{FieldError, go_quote};
use std::cmp::Ordering;

/// The access modes the API accepts, as `NotSupported` lists them (sorted).
const SUPPORTED_ACCESS_MODES: &[&str] = &["ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"];

const IMMUTABLE_CLAIM_SPEC: &str =
    "spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims";

/// `SetDefaults_PersistentVolumeClaim` and `SetDefaults_PersistentVolumeClaimSpec`.
pub fn default_claim(claim: &mut PersistentVolumeClaim) {
    claim.spec.volume_mode.get_or_insert_with(|| VOLUME_MODE_FILESYSTEM.to_string());
    claim.status.phase.get_or_insert_with(|| CLAIM_PENDING.to_string());
}

/// `SetDefaults_PersistentVolume`: Retain, Filesystem, and a new volume is Pending.
pub fn default_volume(volume: &mut PersistentVolume) {
    volume.spec.persistent_volume_reclaim_policy.get_or_insert_with(|| RECLAIM_RETAIN.to_string());
    volume.spec.volume_mode.get_or_insert_with(|| VOLUME_MODE_FILESYSTEM.to_string());
    volume.status.phase.get_or_insert_with(|| VOLUME_PENDING.to_string());
}

/// storage/v1 `SetDefaults_StorageClass`: Delete and Immediate.
pub fn default_storage_class(class: &mut StorageClass) {
    class.reclaim_policy.get_or_insert_with(|| RECLAIM_DELETE.to_string());
    class.volume_binding_mode.get_or_insert_with(|| VOLUME_BINDING_IMMEDIATE.to_string());
}

pub fn persistent_volume_claim(claim: &PersistentVolumeClaim, old: Option<&PersistentVolumeClaim>) -> Vec<FieldError> {
    let mut causes = claim_spec(claim);
    if let Some(old) = old {
        causes.extend(claim_update(claim, old));
    }
    causes
}

/// `ValidatePersistentVolumeClaimSpec`.
fn claim_spec(claim: &PersistentVolumeClaim) -> Vec<FieldError> {
    let spec = &claim.spec;
    let mut causes = access_modes("spec.accessModes", &spec.access_modes, "at least 1 access mode is required");
    if let Some(selector) = &spec.selector {
        for (path, message) in selector.validate("spec.selector") {
            causes.push(FieldError::preformatted(path, message));
        }
    }
    match claim.requested_storage() {
        None => causes.push(FieldError::required("spec.resources[storage]", "")),
        Some(size) if size.cmp_value(&crate::api::quantity::Quantity::zero()) != Ordering::Greater => {
            causes.push(FieldError::invalid("spec.resources[storage]", size.to_string(), "must be greater than zero"));
        }
        Some(_) => {}
    }
    causes.extend(volume_mode("spec.volumeMode", spec.volume_mode.as_deref()));
    causes
}

/// `ValidatePersistentVolumeClaimUpdate`: the spec is fixed but for a bound claim's requests,
/// and binding (setting `volumeName` on a claim without one).
fn claim_update(claim: &PersistentVolumeClaim, old: &PersistentVolumeClaim) -> Vec<FieldError> {
    let mut comparable = claim.spec.clone();
    if old.spec.volume_name.is_none() {
        comparable.volume_name = None;
    }
    let bound = old.phase() == CLAIM_BOUND;
    if bound {
        comparable.resources.requests = old.spec.resources.requests.clone();
        comparable.volume_attributes_class_name = old.spec.volume_attributes_class_name.clone();
    }
    let mut old_spec = old.spec.clone();
    if old.spec.volume_name.is_none() {
        old_spec.volume_name = None;
    }
    if comparable != old_spec {
        return vec![FieldError::forbidden("spec", IMMUTABLE_CLAIM_SPEC)];
    }
    match (claim.requested_storage(), old.requested_storage()) {
        (Some(new), Some(previous)) if bound && new.cmp_value(previous) == Ordering::Less => {
            vec![FieldError::forbidden("spec.resources.requests.storage", "field can not be less than status.capacity")]
        }
        _ => Vec::new(),
    }
}

/// `ValidatePersistentVolumeSpec` for the sources a lab has.
pub fn persistent_volume(volume: &PersistentVolume) -> Vec<FieldError> {
    let spec = &volume.spec;
    let mut causes = access_modes("spec.accessModes", &spec.access_modes, "");
    if spec.capacity.is_empty() {
        causes.push(FieldError::required("spec.capacity", ""));
    } else if !spec.capacity.contains_key("storage") || spec.capacity.len() > 1 {
        let given = spec.capacity.keys().map(|k| go_quote(k)).collect::<Vec<_>>().join(", ");
        causes.push(FieldError::not_supported("spec.capacity", &given, &["storage"]));
    }
    if let Some(policy) = spec.persistent_volume_reclaim_policy.as_deref()
        && !matches!(policy, RECLAIM_DELETE | RECLAIM_RECYCLE | RECLAIM_RETAIN)
    {
        causes.push(FieldError::not_supported(
            "spec.persistentVolumeReclaimPolicy",
            policy,
            &[RECLAIM_DELETE, RECLAIM_RECYCLE, RECLAIM_RETAIN],
        ));
    }
    let sources = [spec.host_path.is_some(), spec.local.is_some(), spec.nfs.is_some(), spec.csi.is_some()];
    match sources.iter().filter(|set| **set).count() {
        0 => causes.push(FieldError::required("spec", "must specify a volume type")),
        1 => {}
        _ => causes.push(FieldError::forbidden("spec.hostPath", "may not specify more than 1 volume type")),
    }
    if spec.host_path.as_ref().is_some_and(|h| h.path.is_empty()) {
        causes.push(FieldError::required("spec.hostPath.path", ""));
    }
    if spec.local.is_some() && spec.node_affinity.is_none() {
        causes.push(FieldError::required("spec.nodeAffinity", "Local volume requires node affinity"));
    }
    causes.extend(volume_mode("spec.volumeMode", spec.volume_mode.as_deref()));
    causes
}

/// `ValidateStorageClass` and, on update, `ValidateStorageClassUpdate`.
pub fn storage_class(class: &StorageClass, old: Option<&StorageClass>) -> Vec<FieldError> {
    let mut causes = Vec::new();
    if class.provisioner.is_empty() {
        causes.push(FieldError::required("provisioner", ""));
    }
    if let Some(policy) = class.reclaim_policy.as_deref()
        && !matches!(policy, RECLAIM_DELETE | RECLAIM_RETAIN)
    {
        causes.push(FieldError::not_supported("reclaimPolicy", policy, &[RECLAIM_DELETE, RECLAIM_RETAIN]));
    }
    if let Some(mode) = class.volume_binding_mode.as_deref()
        && !matches!(mode, VOLUME_BINDING_IMMEDIATE | VOLUME_BINDING_WAIT_FOR_FIRST_CONSUMER)
    {
        causes.push(FieldError::not_supported(
            "volumeBindingMode",
            mode,
            &[VOLUME_BINDING_IMMEDIATE, VOLUME_BINDING_WAIT_FOR_FIRST_CONSUMER],
        ));
    }
    if let Some(old) = old {
        if old.parameters != class.parameters {
            causes.push(FieldError::forbidden("parameters", "updates to parameters are forbidden."));
        }
        if old.provisioner != class.provisioner {
            causes.push(FieldError::forbidden("provisioner", "updates to provisioner are forbidden."));
        }
        if old.reclaim_policy != class.reclaim_policy {
            causes.push(FieldError::forbidden("reclaimPolicy", "updates to reclaimPolicy are forbidden."));
        }
        if old.volume_binding_mode != class.volume_binding_mode {
            let value = go_quote(class.volume_binding_mode.as_deref().unwrap_or(""));
            causes.push(FieldError::invalid("volumeBindingMode", value, "field is immutable"));
        }
    }
    causes
}

fn access_modes(field: &str, modes: &[String], required_detail: &str) -> Vec<FieldError> {
    let mut causes = Vec::new();
    if modes.is_empty() {
        causes.push(FieldError::required(field, required_detail));
    }
    for mode in modes {
        if !SUPPORTED_ACCESS_MODES.contains(&mode.as_str()) {
            causes.push(FieldError::not_supported(field, mode, SUPPORTED_ACCESS_MODES));
        }
    }
    let once_pod = modes.iter().any(|m| m == "ReadWriteOncePod");
    if once_pod && modes.iter().any(|m| m != "ReadWriteOncePod" && SUPPORTED_ACCESS_MODES.contains(&m.as_str())) {
        causes.push(FieldError::forbidden(field, "may not use ReadWriteOncePod with other access modes"));
    }
    causes
}

fn volume_mode(field: &str, mode: Option<&str>) -> Vec<FieldError> {
    match mode {
        Some(mode) if mode != VOLUME_MODE_FILESYSTEM && mode != VOLUME_MODE_BLOCK => {
            vec![FieldError::not_supported(field, mode, &[VOLUME_MODE_BLOCK, VOLUME_MODE_FILESYSTEM])]
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claim(yaml: &str) -> PersistentVolumeClaim {
        let value: serde_json::Value = serde_yaml::from_str(yaml).unwrap();
        let mut claim: PersistentVolumeClaim = serde_json::from_value(value).unwrap();
        default_claim(&mut claim);
        claim
    }

    fn messages(errors: Vec<FieldError>) -> Vec<String> {
        errors.iter().map(|e| format!("{}: {}", e.field, e.body())).collect()
    }

    #[test]
    fn a_claim_needs_access_modes_and_a_size() {
        let bad = claim("metadata: {name: bad}\nspec: {resources: {}}\n");
        assert_eq!(
            messages(persistent_volume_claim(&bad, None)),
            [
                "spec.accessModes: Required value: at least 1 access mode is required",
                "spec.resources[storage]: Required value"
            ]
        );
        let good = claim("spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n");
        assert!(persistent_volume_claim(&good, None).is_empty());
        assert_eq!(good.spec.volume_mode.as_deref(), Some("Filesystem"));
    }

    #[test]
    fn a_bound_claim_may_grow_but_not_change_otherwise() {
        let mut bound = claim("spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n");
        bound.status.phase = Some(CLAIM_BOUND.to_string());
        let mut grown = bound.clone();
        grown.spec.resources.requests.insert("storage".into(), "2Gi".parse().unwrap());
        assert!(persistent_volume_claim(&grown, Some(&bound)).is_empty());
        let mut changed = bound.clone();
        changed.spec.access_modes = vec!["ReadWriteMany".into()];
        assert_eq!(
            messages(persistent_volume_claim(&changed, Some(&bound))),
            [
                "spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims"
            ]
        );
    }

    #[test]
    fn a_class_defaults_to_delete_and_immediate() {
        let mut class = StorageClass { provisioner: "example.com/nfs".into(), ..Default::default() };
        default_storage_class(&mut class);
        assert_eq!(class.reclaim_policy.as_deref(), Some("Delete"));
        assert_eq!(class.volume_binding_mode.as_deref(), Some("Immediate"));
        assert!(storage_class(&class, None).is_empty());
        assert_eq!(messages(storage_class(&StorageClass::default(), None)), ["provisioner: Required value"]);
    }
}
