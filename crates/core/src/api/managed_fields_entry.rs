//! `metav1.ManagedFieldsEntry`: one field manager's claim on an object's fields, as
//! `metadata.managedFields` carries it (the field set stays the raw `fieldsV1` JSON here; the
//! API server's `managed_fields` module reads and writes it).

use super::meta::Time;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One entry of `metadata.managedFields`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ManagedFieldsEntry {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub manager: String,
    /// `Apply` or `Update`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub operation: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<Time>,
    /// Always `FieldsV1`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub fields_type: String,
    #[serde(default, rename = "fieldsV1", skip_serializing_if = "Option::is_none")]
    pub fields_v1: Option<Value>,
    /// `""` for the main resource, or `status`, `scale`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub subresource: String,
}
