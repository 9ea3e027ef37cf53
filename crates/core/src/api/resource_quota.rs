//! ResourceQuota (core/v1): a namespace's ceiling on compute resources and object counts. The
//! ResourceQuota admission plugin refuses what would pass `status.hard` and charges
//! `status.used`; the resource quota controller recalculates `status` from what exists.

use super::container::ResourceList;
use super::meta::ObjectMeta;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResourceQuota {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default, skip_serializing_if = "ResourceQuotaSpec::is_empty")]
    pub spec: ResourceQuotaSpec,
    #[serde(default, skip_serializing_if = "ResourceQuotaStatus::is_empty")]
    pub status: ResourceQuotaStatus,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResourceQuotaSpec {
    #[serde(default, skip_serializing_if = "ResourceList::is_empty")]
    pub hard: ResourceList,
    /// `Terminating`, `NotTerminating`, `BestEffort`, `NotBestEffort`, `PriorityClass`,
    /// `CrossNamespacePodAffinity`: every one must match an object for the quota to track it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scopes: Vec<String>,
    pub scope_selector: Option<ScopeSelector>,
}

impl ResourceQuotaSpec {
    pub fn is_empty(&self) -> bool {
        *self == ResourceQuotaSpec::default()
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ScopeSelector {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub match_expressions: Vec<ScopedResourceSelectorRequirement>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ScopedResourceSelectorRequirement {
    #[serde(default)]
    pub scope_name: String,
    /// `In`, `NotIn`, `Exists` or `DoesNotExist`.
    #[serde(default)]
    pub operator: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResourceQuotaStatus {
    #[serde(default, skip_serializing_if = "ResourceList::is_empty")]
    pub hard: ResourceList,
    #[serde(default, skip_serializing_if = "ResourceList::is_empty")]
    pub used: ResourceList,
}

impl ResourceQuotaStatus {
    pub fn is_empty(&self) -> bool {
        self.hard.is_empty() && self.used.is_empty()
    }
}

impl ResourceQuota {
    /// Every scope the quota names, from `spec.scopes` and `spec.scopeSelector` alike
    /// (upstream `getScopeSelectorsFromQuota`: a listed scope is an `Exists` requirement).
    pub fn scope_selectors(&self) -> Vec<ScopedResourceSelectorRequirement> {
        let listed = self.spec.scopes.iter().map(|scope| ScopedResourceSelectorRequirement {
            scope_name: scope.clone(),
            operator: "Exists".to_string(),
            values: Vec::new(),
        });
        let selected = self.spec.scope_selector.iter().flat_map(|s| s.match_expressions.iter().cloned());
        listed.chain(selected).collect()
    }
}
