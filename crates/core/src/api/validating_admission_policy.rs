//! ValidatingAdmissionPolicy and its binding (admissionregistration.k8s.io/v1, cluster-scoped):
//! CEL validations the API server runs in-process on the requests a binding selects.

use super::admission_policy::{MatchCondition, MatchResources, ParamKind, ParamRef, Variable};
use super::condition::Condition;
use super::meta::ObjectMeta;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ValidatingAdmissionPolicy {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: ValidatingAdmissionPolicySpec,
    pub status: Option<ValidatingAdmissionPolicyStatus>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ValidatingAdmissionPolicySpec {
    pub param_kind: Option<ParamKind>,
    pub match_constraints: Option<MatchResources>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub validations: Vec<Validation>,
    /// `Fail` (the default) or `Ignore`: what an evaluation error does.
    pub failure_policy: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub audit_annotations: Vec<AuditAnnotation>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub match_conditions: Vec<MatchCondition>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variables: Vec<Variable>,
}

/// `Validation`: an expression that must be true, and how a refusal reads.
#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Validation {
    #[serde(default)]
    pub expression: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// `Unauthorized`, `Forbidden`, `Invalid` (the refusal's default) or `RequestEntityTooLarge`.
    pub reason: Option<String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message_expression: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AuditAnnotation {
    #[serde(default)]
    pub key: String,
    #[serde(default)]
    pub value_expression: String,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ValidatingAdmissionPolicyStatus {
    pub observed_generation: Option<i64>,
    pub type_checking: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ValidatingAdmissionPolicyBinding {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: ValidatingAdmissionPolicyBindingSpec,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ValidatingAdmissionPolicyBindingSpec {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub policy_name: String,
    pub param_ref: Option<ParamRef>,
    pub match_resources: Option<MatchResources>,
    /// `Deny`, `Warn` and/or `Audit`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub validation_actions: Vec<String>,
}
