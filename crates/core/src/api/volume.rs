//! Pod volumes (core/v1 `Volume`): the sources a lab uses — emptyDir, configMap, secret,
//! persistentVolumeClaim, hostPath, projected, downwardAPI.

use super::quantity::Quantity;
use super::shared::Shared;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Volume {
    pub name: String,
    pub empty_dir: Option<EmptyDirVolumeSource>,
    pub config_map: Option<ConfigMapVolumeSource>,
    pub secret: Option<SecretVolumeSource>,
    pub persistent_volume_claim: Option<PersistentVolumeClaimVolumeSource>,
    pub host_path: Option<HostPathVolumeSource>,
    pub projected: Option<ProjectedVolumeSource>,
    #[serde(rename = "downwardAPI")]
    pub downward_api: Option<DownwardApiVolumeSource>,
}

impl Volume {
    /// How many sources are set (exactly one is valid).
    pub fn source_count(&self) -> usize {
        [
            self.empty_dir.is_some(),
            self.config_map.is_some(),
            self.secret.is_some(),
            self.persistent_volume_claim.is_some(),
            self.host_path.is_some(),
            self.projected.is_some(),
            self.downward_api.is_some(),
        ]
        .into_iter()
        .filter(|set| *set)
        .count()
    }
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EmptyDirVolumeSource {
    pub medium: Option<String>,
    pub size_limit: Option<Quantity>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KeyToPath {
    pub key: String,
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<i32>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConfigMapVolumeSource {
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<KeyToPath>,
    pub default_mode: Option<i32>,
    pub optional: Option<bool>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SecretVolumeSource {
    pub secret_name: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<KeyToPath>,
    pub default_mode: Option<i32>,
    pub optional: Option<bool>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PersistentVolumeClaimVolumeSource {
    pub claim_name: String,
    pub read_only: Option<bool>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HostPathVolumeSource {
    pub path: String,
    #[serde(rename = "type")]
    pub type_: Option<String>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProjectedVolumeSource {
    /// Shared: every pod's token volume projects the same three sources.
    #[serde(default, skip_serializing_if = "Shared::is_empty_vec")]
    pub sources: Shared<Vec<VolumeProjection>>,
    pub default_mode: Option<i32>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VolumeProjection {
    pub config_map: Option<ConfigMapVolumeSource>,
    pub secret: Option<SecretProjection>,
    #[serde(rename = "downwardAPI")]
    pub downward_api: Option<DownwardApiVolumeSource>,
    pub service_account_token: Option<ServiceAccountTokenProjection>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SecretProjection {
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<KeyToPath>,
    pub optional: Option<bool>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ServiceAccountTokenProjection {
    pub audience: Option<String>,
    pub expiration_seconds: Option<i64>,
    pub path: String,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DownwardApiVolumeSource {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<DownwardApiVolumeFile>,
    pub default_mode: Option<i32>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DownwardApiVolumeFile {
    pub path: String,
    pub field_ref: Option<super::container::ObjectFieldSelector>,
    pub resource_field_ref: Option<super::container::ResourceFieldSelector>,
    pub mode: Option<i32>,
}
