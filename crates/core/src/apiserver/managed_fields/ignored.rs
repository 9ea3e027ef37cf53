//! The fields no manager owns: apiVersion, kind, the object's identity and bookkeeping in
//! metadata (upstream's stripMetaManager) and status, which a write to the main resource
//! resets (upstream's resetFieldsStrategy).

use super::field_set::FieldSet;
use super::path_element::field;
use serde_json::Value;

const META: [&str; 9] = [
    "name",
    "namespace",
    "creationTimestamp",
    "selfLink",
    "uid",
    "clusterName",
    "generation",
    "managedFields",
    "resourceVersion",
];

pub fn strip(set: FieldSet) -> FieldSet {
    let mut set = set.without_child(&field("apiVersion")).without_child(&field("kind")).without_child(&field("status"));
    for name in META {
        set = set.without_member(&[field("metadata"), field(name)]);
    }
    set.without_member(&[field("metadata")])
}

/// An object's JSON without its managedFields, which are no field of the object's own.
pub fn without_managed_fields(mut object: Value) -> Value {
    if let Some(Value::Object(meta)) = object.get_mut("metadata") {
        meta.remove("managedFields");
    }
    object
}
