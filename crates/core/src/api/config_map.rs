//! ConfigMap (core/v1): non-secret configuration as key/value pairs.

use super::meta::ObjectMeta;
use super::string_map::StringMap;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConfigMap {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default, skip_serializing_if = "StringMap::is_empty")]
    pub data: StringMap,
    #[serde(default, skip_serializing_if = "StringMap::is_empty")]
    pub binary_data: StringMap,
    pub immutable: Option<bool>,
}
