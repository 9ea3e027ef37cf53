//! What ValidatingAdmissionPolicy and MutatingAdmissionPolicy (admissionregistration.k8s.io/v1)
//! share: which requests they match, their parameters, variables and match conditions
//! (k8s.io/api/admissionregistration/v1 types.go).

use super::label_selector::LabelSelector;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// `MatchResources`: which requests a policy (or a binding, narrowing its policy) applies to.
#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MatchResources {
    pub namespace_selector: Option<LabelSelector>,
    pub object_selector: Option<LabelSelector>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resource_rules: Vec<NamedRuleWithOperations>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exclude_resource_rules: Vec<NamedRuleWithOperations>,
    /// `Exact` or `Equivalent` (the default).
    pub match_policy: Option<String>,
}

/// `NamedRuleWithOperations`: operations on resources, optionally only some names.
#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NamedRuleWithOperations {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resource_names: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub operations: Vec<String>,
    #[serde(default, rename = "apiGroups", skip_serializing_if = "Vec::is_empty")]
    pub api_groups: Vec<String>,
    #[serde(default, rename = "apiVersions", skip_serializing_if = "Vec::is_empty")]
    pub api_versions: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<String>,
    /// `Cluster`, `Namespaced` or `*` (the default).
    pub scope: Option<String>,
}

/// `ParamKind`: the kind of the object a binding's paramRef names.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ParamKind {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
}

/// `ParamRef`: which parameter object(s) a binding evaluates its policy with.
#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ParamRef {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    pub selector: Option<LabelSelector>,
    /// `Allow` or `Deny`; required.
    pub parameter_not_found_action: Option<String>,
}

/// `MatchCondition`: a CEL expression that must be true for the policy to apply.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MatchCondition {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub expression: String,
}

/// `Variable`: a named CEL expression, available to later ones as `variables.<name>`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Variable {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub expression: String,
}
