//! `DefaultStorageClass` (plugin/pkg/admission/storage/storageclass/setdefault): a new claim
//! that names no class gets the default one. A claim that asks for `""` keeps it: that is how a
//! claim asks for a volume of no class.

use super::{Operation, Plugin, Request};
use crate::api::{ObjectMut, StorageClass};
use crate::error::ApiError;
use crate::store::Store;

pub const PLUGIN: Plugin = Plugin { name: "DefaultStorageClass", admit: Some(admit), validate: None };

fn admit(store: &Store, request: &Request<'_>, object: &mut ObjectMut<'_>) -> Result<(), ApiError> {
    if let ObjectMut::PersistentVolumeClaim(claim) = object
        && request.operation == Operation::Create
        && claim.spec.storage_class_name.is_none()
        && let Some(class) = default_class(store)
    {
        claim.spec.storage_class_name = Some(class.metadata.name.clone());
    }
    Ok(())
}

/// storage/util `GetDefaultClass`: of the classes marked default, the newest (then by name).
pub fn default_class(store: &Store) -> Option<&StorageClass> {
    store.list::<StorageClass>(None).filter(|c| c.is_default()).max_by(|a, b| {
        let created = |c: &StorageClass| c.metadata.creation_timestamp.map(|t| t.0);
        created(a).cmp(&created(b)).then_with(|| b.metadata.name.cmp(&a.metadata.name))
    })
}
