//! `kubectl get` rows of the storage kinds, as printers.go's printPersistentVolume,
//! printPersistentVolumeClaim and printStorageClass make them.

use crate::api::persistent_volume_claim::access_modes_string;
use crate::api::quantity::Quantity;
use crate::api::{PersistentVolume, PersistentVolumeClaim, StorageClass};

/// An unset volume mode or attributes class prints as `<unset>`.
fn unset(value: Option<&String>) -> String {
    value.cloned().unwrap_or_else(|| "<unset>".to_string())
}

/// A deleted object still held by a finalizer prints as `Terminating`.
fn phase(deleting: bool, phase: &str) -> String {
    if deleting { "Terminating".to_string() } else { phase.to_string() }
}

pub fn persistent_volume_row(volume: &PersistentVolume, age: String) -> (Vec<String>, Vec<String>) {
    let spec = &volume.spec;
    let claim = spec.claim_ref.as_ref().map_or(String::new(), |r| {
        format!("{}/{}", r.namespace.as_deref().unwrap_or(""), r.name.as_deref().unwrap_or(""))
    });
    let size = volume.capacity().cloned().unwrap_or_else(Quantity::zero).to_string();
    let cells = vec![
        size,
        access_modes_string(&spec.access_modes),
        spec.persistent_volume_reclaim_policy.clone().unwrap_or_default(),
        phase(volume.metadata.deletion_timestamp.is_some(), volume.phase()),
        claim,
        volume.class().to_string(),
        unset(spec.volume_attributes_class_name.as_ref()),
        volume.status.reason.clone().unwrap_or_default(),
        age,
    ];
    (cells, vec![unset(spec.volume_mode.as_ref())])
}

/// A claim shows capacity and access modes only once bound to a volume, and then from its
/// status.
pub fn persistent_volume_claim_row(claim: &PersistentVolumeClaim, age: String) -> (Vec<String>, Vec<String>) {
    let spec = &claim.spec;
    let volume = spec.volume_name.clone().unwrap_or_default();
    let (capacity, modes) = if volume.is_empty() {
        (String::new(), String::new())
    } else {
        let size = claim.status.capacity.get("storage").cloned().unwrap_or_else(Quantity::zero);
        (size.to_string(), access_modes_string(&claim.status.access_modes))
    };
    let cells = vec![
        phase(claim.metadata.deletion_timestamp.is_some(), claim.phase()),
        volume,
        capacity,
        modes,
        claim.class().to_string(),
        unset(spec.volume_attributes_class_name.as_ref()),
        age,
    ];
    (cells, vec![unset(spec.volume_mode.as_ref())])
}

/// The whole row, NAME included: the default class's name carries ` (default)`.
pub fn storage_class_row(class: &StorageClass, name: String, age: String) -> Vec<String> {
    let name = if class.is_default() { format!("{name} (default)") } else { name };
    vec![
        name,
        class.provisioner.clone(),
        class.reclaim_policy.clone().unwrap_or_else(|| "Delete".to_string()),
        class.volume_binding_mode.clone().unwrap_or_else(|| "Immediate".to_string()),
        class.allow_volume_expansion.unwrap_or(false).to_string(),
        age,
    ]
}
