//! ServiceAccount (core/v1): the identity a pod's processes run as
//! (`system:serviceaccount:<namespace>:<name>`), which RBAC bindings name as subjects.

use super::endpoint_slice::ObjectReference;
use super::meta::ObjectMeta;
use super::pod::LocalObjectReference;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ServiceAccount {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub secrets: Vec<ObjectReference>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub image_pull_secrets: Vec<LocalObjectReference>,
    pub automount_service_account_token: Option<bool>,
}
