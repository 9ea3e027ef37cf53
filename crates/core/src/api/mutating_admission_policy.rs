//! MutatingAdmissionPolicy and its binding (admissionregistration.k8s.io/v1 in v1.36,
//! cluster-scoped): CEL mutations (an apply configuration or a JSON patch) the API server runs
//! in-process on the requests a binding selects.

use super::admission_policy::{MatchCondition, MatchResources, ParamKind, ParamRef, Variable};
use super::meta::ObjectMeta;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MutatingAdmissionPolicy {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: MutatingAdmissionPolicySpec,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MutatingAdmissionPolicySpec {
    pub param_kind: Option<ParamKind>,
    pub match_constraints: Option<MatchResources>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variables: Vec<Variable>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mutations: Vec<Mutation>,
    /// `Fail` (the default) or `Ignore`.
    pub failure_policy: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub match_conditions: Vec<MatchCondition>,
    /// `Never` (the default) or `IfNeeded`.
    pub reinvocation_policy: Option<String>,
}

/// `Mutation`: `ApplyConfiguration` or `JSONPatch`, with its expression.
#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Mutation {
    #[serde(default)]
    pub patch_type: String,
    pub apply_configuration: Option<PatchExpression>,
    #[serde(rename = "jsonPatch")]
    pub json_patch: Option<PatchExpression>,
}

/// `ApplyConfiguration` and `JSONPatch`: both one CEL expression.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PatchExpression {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub expression: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MutatingAdmissionPolicyBinding {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: MutatingAdmissionPolicyBindingSpec,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MutatingAdmissionPolicyBindingSpec {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub policy_name: String,
    pub param_ref: Option<ParamRef>,
    pub match_resources: Option<MatchResources>,
}
