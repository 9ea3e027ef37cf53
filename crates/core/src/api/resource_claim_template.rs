//! ResourceClaimTemplate (resource.k8s.io/v1, namespaced): the claim a pod gets a copy of, one
//! per pod (the resourceclaim controller creates `<pod>-<claim>-<random>` from it and deletes it
//! with the pod), where a ResourceClaim named in the pod would be shared.

use super::meta::ObjectMeta;
use super::resource_claim::ResourceClaimSpec;
use super::string_map::StringMap;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResourceClaimTemplate {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: ResourceClaimTemplateSpec,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResourceClaimTemplateSpec {
    /// Labels and annotations copied onto each claim made from the template.
    #[serde(default, skip_serializing_if = "TemplateMeta::is_empty")]
    pub metadata: TemplateMeta,
    #[serde(default)]
    pub spec: ResourceClaimSpec,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TemplateMeta {
    #[serde(default, skip_serializing_if = "StringMap::is_empty")]
    pub labels: StringMap,
    #[serde(default, skip_serializing_if = "StringMap::is_empty")]
    pub annotations: StringMap,
}

impl TemplateMeta {
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty() && self.annotations.is_empty()
    }
}
