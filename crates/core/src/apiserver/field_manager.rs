//! The API server's field manager at the door: who a write is made by (`fieldManager`), and
//! the object's `metadata.managedFields` brought up to date before the store takes the write;
//! server-side apply's merge. Upstream: apiserver's endpoints/handlers (create.go, update.go,
//! patch.go calling `FieldManager.UpdateNoErrors` and `FieldManager.Apply`).

use super::managed_fields::{self, Operation};
use super::request::Request;
use crate::api::meta::Time;
use crate::api::{Kind, Object, codec};
use crate::error::{ApiError, FieldError};
use crate::store::{Store, kinds};
use serde_json::Value;

/// The manager of an update-like write, when it records one: a named field manager writing to
/// the object itself or one of its subresources other than status.
fn updater(request: &Request, kind: Kind) -> Option<managed_fields::Manager> {
    let name = request.options.field_manager.as_deref()?;
    (request.subresource != "status")
        .then(|| managed_fields::manager(name, Operation::Update, kind, &request.subresource))
}

/// A create's or update's object with its managed fields (an update whose body carries none
/// keeps the live object's, as upstream's `decodeLiveOrNew`).
pub fn on_write(store: &Store, request: &Request, kind: Kind, object: &mut Object) {
    let live = store.get_object(kind, &request.namespace, &request.name).ok().filter(|_| !request.name.is_empty());
    let Some(manager) = updater(request, kind) else {
        if let Some(live) = live.filter(|_| object.metadata().managed_fields.is_empty()) {
            object.metadata_mut().managed_fields = live.metadata().managed_fields.clone();
        }
        return;
    };
    let defaulted = kinds::dispatch_defaults(object.clone());
    object.metadata_mut().managed_fields =
        managed_fields::on_update(live.as_ref(), &defaulted, &manager, Time(store.now()));
}

/// A JSON merge patch that also sets the managed fields the patched object will have.
pub fn merge_patch_with_managed_fields(store: &Store, request: &Request, kind: Kind, patch: Value) -> Value {
    let Some(manager) = updater(request, kind) else { return patch };
    let Ok(live) = store.get_object(kind, &request.namespace, &request.name) else { return patch };
    let mut patched = live.to_json_value();
    json_patch::merge(&mut patched, &patch);
    let Ok(new) = codec::decode(patched) else { return patch };
    let entries = managed_fields::on_update(Some(&live), &kinds::dispatch_defaults(new), &manager, Time(store.now()));
    let mut patch = patch;
    if let Some(Value::Object(map)) = Some(&mut patch) {
        let meta = map.entry("metadata").or_insert_with(|| Value::Object(Default::default()));
        if let Value::Object(meta) = meta {
            meta.insert("managedFields".into(), serde_json::to_value(entries).unwrap_or(Value::Null));
        }
    }
    patch
}

/// The object a strategic or JSON patch produced, with its managed fields.
pub fn on_patched(store: &Store, request: &Request, kind: Kind, live: &Object, object: &mut Object) {
    let Some(manager) = updater(request, kind) else { return };
    let defaulted = kinds::dispatch_defaults(object.clone());
    object.metadata_mut().managed_fields =
        managed_fields::on_update(Some(live), &defaulted, &manager, Time(store.now()));
}

/// Server-side apply of `config` over `live` (absent: created), by the request's manager.
pub fn apply(
    store: &Store,
    request: &Request,
    kind: Kind,
    live: Option<&Object>,
    config: &Value,
) -> Result<Object, ApiError> {
    let Some(name) = request.options.field_manager.as_deref() else {
        let cause = FieldError::required("fieldManager", "is required for apply patch");
        return Err(ApiError::invalid("PatchOptions.meta.k8s.io", "", vec![cause]));
    };
    check_version(kind, config)?;
    let manager = managed_fields::manager(name, Operation::Apply, kind, &request.subresource);
    let now = Time(store.now());
    let merged = managed_fields::on_apply(live, config.clone(), &manager, request.options.force, now)?;
    codec::decode(merged).map_err(|e| ApiError::BadRequest { message: e.to_string() })
}

/// The configuration must be of the endpoint's version (upstream structuredMergeManager.Apply)
/// and kind.
fn check_version(kind: Kind, config: &Value) -> Result<(), ApiError> {
    let info = kind.info();
    let (expected, field) = (info.api_version(), |name: &str| config.get(name).and_then(Value::as_str).unwrap_or(""));
    if field("apiVersion") != expected {
        let message = format!(
            "Incorrect version specified in apply patch. Specified patch version: {}, expected: {expected}",
            field("apiVersion")
        );
        return Err(ApiError::BadRequest { message });
    }
    if field("kind") != info.kind_name {
        let message = format!("the kind in the apply patch ({}) is not {}", field("kind"), info.kind_name);
        return Err(ApiError::BadRequest { message });
    }
    Ok(())
}
