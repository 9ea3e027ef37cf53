//! LimitRange (core/v1): per-container and per-pod bounds in a namespace, and the requests
//! and limits the LimitRanger admission plugin fills in where a container sets none.

use super::container::ResourceList;
use super::meta::ObjectMeta;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LimitRange {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: LimitRangeSpec,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LimitRangeSpec {
    #[serde(default)]
    pub limits: Vec<LimitRangeItem>,
}

/// One bound: `type` is `Container`, `Pod` or `PersistentVolumeClaim`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LimitRangeItem {
    #[serde(rename = "type", default)]
    pub type_: String,
    #[serde(default, skip_serializing_if = "ResourceList::is_empty")]
    pub max: ResourceList,
    #[serde(default, skip_serializing_if = "ResourceList::is_empty")]
    pub min: ResourceList,
    #[serde(default, skip_serializing_if = "ResourceList::is_empty")]
    pub default: ResourceList,
    #[serde(default, skip_serializing_if = "ResourceList::is_empty")]
    pub default_request: ResourceList,
    #[serde(default, skip_serializing_if = "ResourceList::is_empty")]
    pub max_limit_request_ratio: ResourceList,
}

pub const LIMIT_TYPE_CONTAINER: &str = "Container";
pub const LIMIT_TYPE_POD: &str = "Pod";
pub const LIMIT_TYPE_PERSISTENT_VOLUME_CLAIM: &str = "PersistentVolumeClaim";
