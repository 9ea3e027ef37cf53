//! `metadata.managedFields` and server-side apply: which field manager owns which fields of
//! an object (`fieldsV1` field sets), kept up to date by the API's writes and used by apply
//! to merge, prune and detect conflicts, as kube-apiserver's fieldmanager with
//! structured-merge-diff does.
//!
//! Kept only for writes through the API door that name a field manager (the HTTP API always
//! does: the `fieldManager` parameter, else what upstream derives from kubectl's user agent).
//! The controllers' typed writes, status-subresource writes and the lab's own clients record
//! nothing, so a lab of thousands of controller-made pods carries no field sets; fields they
//! change stay with whoever owned them. An apply to the status subresource merges as a
//! strategic patch, owning nothing. Upstream also caps update managers at ten
//! (`ancient-changes`); this does not. Which lists are keyed, sets or atomic is judged by
//! field name (`schema.rs`), not read from the OpenAPI schema.

mod apply;
mod compare;
mod conflict;
mod field_set;
pub mod fields_v1;
mod ignored;
mod list_element;
mod managers;
mod merge;
pub mod path_element;
mod remove;
mod schema;
mod to_field_set;
mod update;

pub use field_set::FieldSet;
pub use managers::{Managed, Manager, Operation};
pub use to_field_set::to_field_set;

use crate::api::managed_fields_entry::ManagedFieldsEntry;
use crate::api::meta::Time;
use crate::api::{Kind, Object};
use crate::error::ApiError;
use serde_json::Value;

/// The manager a request without `fieldManager` writes as: upstream takes the user agent up
/// to its first `/`. The lab's HTTP layer does not see the user agent; its clients are kubectl
/// (`kubectl/v1.36.0 (linux/amd64) kubernetes/…`), so this is `kubectl`.
pub const USER_AGENT_MANAGER: &str = "kubectl";

/// A manager writing objects of `kind`, through `subresource` (`""` for the object itself).
pub fn manager(name: &str, operation: Operation, kind: Kind, subresource: &str) -> Manager {
    let api_version = kind.info().api_version();
    Manager { name: name.to_string(), operation, api_version, subresource: subresource.to_string() }
}

/// The managed fields after `new` (defaulted, as it will be stored) replaces `old` (absent for
/// a create). `new`'s own managedFields, when it carries some, are the starting point (a
/// client may rewrite them); else `old`'s.
pub fn on_update(old: Option<&Object>, new: &Object, manager: &Manager, now: Time) -> Vec<ManagedFieldsEntry> {
    let sent = &new.metadata().managed_fields;
    let base = match old {
        Some(old) if sent.is_empty() => &old.metadata().managed_fields,
        _ => sent,
    };
    let mut managed = Managed::decode(base);
    let old = old.map_or_else(|| Value::Object(Default::default()), json_of);
    update::update(&mut managed, &old, &json_of(new), manager, now);
    managed.encode()
}

/// The object (as JSON, with its managedFields) after `manager` applies `config` over `live`
/// (absent: the apply creates it).
pub fn on_apply(
    live: Option<&Object>,
    mut config: Value,
    manager: &Manager,
    force: bool,
    now: Time,
) -> Result<Value, ApiError> {
    if config.pointer("/metadata/managedFields").is_some_and(|m| !m.is_null()) {
        return Err(ApiError::BadRequest { message: "metadata.managedFields must be nil".into() });
    }
    if let Value::Object(map) = &mut config {
        map.remove("status");
    }
    let mut managed = live.map(|l| Managed::decode(&l.metadata().managed_fields)).unwrap_or_default();
    let live = live.map_or_else(|| Value::Object(Default::default()), json_of);
    let mut merged = apply::apply(&mut managed, (&live, &config), manager, force, now)?;
    let entries = serde_json::to_value(managed.encode()).unwrap_or(Value::Null);
    if let Some(Value::Object(meta)) = merged.get_mut("metadata") {
        meta.insert("managedFields".into(), entries);
    }
    Ok(merged)
}

fn json_of(object: &Object) -> Value {
    ignored::without_managed_fields(object.to_json_value())
}
