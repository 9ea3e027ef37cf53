//! CustomResourceDefinition (apiextensions.k8s.io/v1): a kind an add-on brings. The kinds the
//! lab can serve this way are in the kind table, marked `crd`; each is served once its CRD (named
//! `<plural>.<group>`) is installed and Established, as kube-apiserver's apiextensions server
//! starts serving a CRD's resource, and its objects go when the CRD does.

use super::meta::{ObjectMeta, Time};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_with::skip_serializing_none;

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CustomResourceDefinition {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: CustomResourceDefinitionSpec,
    #[serde(default)]
    pub status: CustomResourceDefinitionStatus,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CustomResourceDefinitionSpec {
    #[serde(default)]
    pub group: String,
    #[serde(default)]
    pub names: CustomResourceDefinitionNames,
    /// `Namespaced` or `Cluster`.
    #[serde(default)]
    pub scope: String,
    #[serde(default)]
    pub versions: Vec<CustomResourceDefinitionVersion>,
    pub conversion: Option<Value>,
    pub preserve_unknown_fields: Option<bool>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CustomResourceDefinitionNames {
    #[serde(default)]
    pub plural: String,
    pub singular: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub short_names: Vec<String>,
    #[serde(default)]
    pub kind: String,
    pub list_kind: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub categories: Vec<String>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CustomResourceDefinitionVersion {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub served: bool,
    #[serde(default)]
    pub storage: bool,
    pub deprecated: Option<bool>,
    pub deprecation_warning: Option<String>,
    /// `openAPIV3Schema`, kept as written.
    pub schema: Option<Value>,
    pub subresources: Option<Value>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub additional_printer_columns: Vec<Value>,
    pub selectable_fields: Option<Value>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CustomResourceDefinitionStatus {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<CustomResourceDefinitionCondition>,
    pub accepted_names: Option<CustomResourceDefinitionNames>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stored_versions: Vec<String>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CustomResourceDefinitionCondition {
    #[serde(rename = "type")]
    pub type_: String,
    pub status: String,
    pub last_transition_time: Option<Time>,
    pub reason: Option<String>,
    pub message: Option<String>,
}

impl CustomResourceDefinition {
    /// Whether the API server serves its resource (`Established` is True).
    pub fn is_established(&self) -> bool {
        self.status.conditions.iter().any(|c| c.type_ == "Established" && c.status == "True")
    }
}
