//! StorageClass (storage.k8s.io/v1): a kind of storage a claim asks for by name — who
//! provisions it, what happens to its volumes when released, and when a claim is bound.

use super::meta::ObjectMeta;
use super::string_map::StringMap;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StorageClass {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub provisioner: String,
    #[serde(default, skip_serializing_if = "StringMap::is_empty")]
    pub parameters: StringMap,
    /// `Delete` (the default) or `Retain`: given to every volume provisioned for the class.
    pub reclaim_policy: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mount_options: Vec<String>,
    pub allow_volume_expansion: Option<bool>,
    /// `Immediate` (the default) or `WaitForFirstConsumer`.
    pub volume_binding_mode: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allowed_topologies: Vec<TopologySelectorTerm>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TopologySelectorTerm {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub match_label_expressions: Vec<TopologySelectorLabelRequirement>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TopologySelectorLabelRequirement {
    pub key: String,
    pub values: Vec<String>,
}

/// The annotation that makes a class the default (and its beta spelling, still honoured).
pub const IS_DEFAULT_CLASS_ANNOTATION: &str = "storageclass.kubernetes.io/is-default-class";
pub const BETA_IS_DEFAULT_CLASS_ANNOTATION: &str = "storageclass.beta.kubernetes.io/is-default-class";

/// `VolumeBindingMode` values (storage/v1).
pub const VOLUME_BINDING_IMMEDIATE: &str = "Immediate";
pub const VOLUME_BINDING_WAIT_FOR_FIRST_CONSUMER: &str = "WaitForFirstConsumer";

impl StorageClass {
    /// storage/util `IsDefaultAnnotation`: the annotation (either spelling) says "true".
    pub fn is_default(&self) -> bool {
        [IS_DEFAULT_CLASS_ANNOTATION, BETA_IS_DEFAULT_CLASS_ANNOTATION]
            .iter()
            .any(|key| self.metadata.annotations.get(key) == Some("true"))
    }

    /// Whether binding waits for a pod to be scheduled (`WaitForFirstConsumer`).
    pub fn waits_for_first_consumer(&self) -> bool {
        self.volume_binding_mode.as_deref() == Some(VOLUME_BINDING_WAIT_FOR_FIRST_CONSUMER)
    }
}
