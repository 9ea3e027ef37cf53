//! `StorageObjectInUseProtection` (plugin/pkg/admission/storage/storageobjectinuseprotection):
//! every new claim and volume carries its protection finalizer, so deleting one still in use
//! leaves it Terminating until the protection controllers let it go.

use super::{Operation, Plugin, Request};
use crate::api::ObjectMut;
use crate::api::persistent_volume::PV_PROTECTION_FINALIZER;
use crate::api::persistent_volume_claim::PVC_PROTECTION_FINALIZER;
use crate::error::ApiError;
use crate::store::Store;

pub const PLUGIN: Plugin = Plugin { name: "StorageObjectInUseProtection", admit: Some(admit), validate: None };

fn admit(_store: &Store, request: &Request<'_>, object: &mut ObjectMut<'_>) -> Result<(), ApiError> {
    if request.operation != Operation::Create {
        return Ok(());
    }
    let (finalizers, finalizer) = match object {
        ObjectMut::PersistentVolumeClaim(claim) => (&mut claim.metadata.finalizers, PVC_PROTECTION_FINALIZER),
        ObjectMut::PersistentVolume(volume) => (&mut volume.metadata.finalizers, PV_PROTECTION_FINALIZER),
        _ => return Ok(()),
    };
    if !finalizers.iter().any(|f| f == finalizer) {
        finalizers.push(finalizer.to_string());
    }
    Ok(())
}
