//! Defaults and validation of the admission policy kinds (pkg/apis/admissionregistration/v1
//! defaults.go and validation/validation.go): the fields a learner gets wrong first, and each
//! CEL expression compiled as the API server compiles it at write time.

use super::admission::policy::expressions::{self, Returns};
use crate::api::admission_policy::{MatchCondition, MatchResources, ParamRef, Variable};
use crate::api::mutating_admission_policy::{MutatingAdmissionPolicy, MutatingAdmissionPolicyBinding};
use crate::api::validating_admission_policy::{ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding};
use crate::cel::Env;
use crate::error::FieldError;

/// `SetDefaults_MatchResources` and `SetDefaults_Rule`.
fn default_match(m: &mut MatchResources) {
    m.match_policy.get_or_insert_with(|| "Equivalent".into());
    m.namespace_selector.get_or_insert_with(Default::default);
    m.object_selector.get_or_insert_with(Default::default);
    for rule in m.resource_rules.iter_mut().chain(m.exclude_resource_rules.iter_mut()) {
        rule.scope.get_or_insert_with(|| "*".into());
    }
}

/// `SetDefaults_ValidatingAdmissionPolicySpec`.
pub fn default_validating(policy: &mut ValidatingAdmissionPolicy) {
    policy.spec.failure_policy.get_or_insert_with(|| "Fail".into());
    policy.spec.match_constraints.iter_mut().for_each(default_match);
}

pub fn default_validating_binding(binding: &mut ValidatingAdmissionPolicyBinding) {
    binding.spec.match_resources.iter_mut().for_each(default_match);
}

/// `SetDefaults_MutatingAdmissionPolicySpec`; `reinvocationPolicy` is `Never` unless set.
pub fn default_mutating(policy: &mut MutatingAdmissionPolicy) {
    policy.spec.failure_policy.get_or_insert_with(|| "Fail".into());
    policy.spec.reinvocation_policy.get_or_insert_with(|| "Never".into());
    policy.spec.match_constraints.iter_mut().for_each(default_match);
}

pub fn default_mutating_binding(binding: &mut MutatingAdmissionPolicyBinding) {
    binding.spec.match_resources.iter_mut().for_each(default_match);
}

/// Compiles `expression` at `field`, reporting upstream's `Invalid value: "<expr>": <detail>`.
fn expression(field: String, expression: &str, env: &Env, returns: Returns, causes: &mut Vec<FieldError>) {
    if expression.trim().is_empty() {
        causes.push(FieldError::required(field, ""));
    } else if let Err(detail) = expressions::compile(expression, env, returns) {
        causes.push(FieldError::invalid(field, crate::error::go_quote(expression), detail));
    }
}

fn one_of(field: &str, value: Option<&String>, supported: &[&str], causes: &mut Vec<FieldError>) {
    if let Some(v) = value.filter(|v| !supported.contains(&v.as_str())) {
        causes.push(FieldError::not_supported(field, v, supported));
    }
}

/// What both policies check alike: matchConstraints, failurePolicy, variables, matchConditions.
fn common(
    match_constraints: Option<&MatchResources>,
    failure_policy: Option<&String>,
    variables: &[Variable],
    conditions: &[MatchCondition],
    env: &Env,
    causes: &mut Vec<FieldError>,
) {
    match match_constraints {
        Some(m) if !m.resource_rules.is_empty() => match_resources("spec.matchConstraints", m, causes),
        _ => causes.push(FieldError::required("spec.matchConstraints.resourceRules", "")),
    }
    one_of("spec.failurePolicy", failure_policy, &["Fail", "Ignore"], causes);
    for (i, v) in variables.iter().enumerate() {
        if v.name.is_empty() {
            causes.push(FieldError::required(format!("spec.variables[{i}].name"), ""));
        }
        expression(format!("spec.variables[{i}].expression"), &v.expression, env, Returns::Any, causes);
    }
    for (i, c) in conditions.iter().enumerate() {
        if c.name.is_empty() {
            causes.push(FieldError::required(format!("spec.matchConditions[{i}].name"), ""));
        }
        expression(format!("spec.matchConditions[{i}].expression"), &c.expression, env, Returns::Bool, causes);
    }
}

/// `validateNamedRuleWithOperations` and the selectors, in brief.
fn match_resources(path: &str, m: &MatchResources, causes: &mut Vec<FieldError>) {
    const OPERATIONS: &[&str] = &["*", "CONNECT", "CREATE", "DELETE", "UPDATE"];
    for (list, rules) in [("resourceRules", &m.resource_rules), ("excludeResourceRules", &m.exclude_resource_rules)] {
        for (i, rule) in rules.iter().enumerate() {
            let at = format!("{path}.{list}[{i}]");
            if rule.operations.is_empty() {
                causes.push(FieldError::required(format!("{at}.operations"), ""));
            }
            for (j, op) in rule.operations.iter().enumerate() {
                one_of(&format!("{at}.operations[{j}]"), Some(op), OPERATIONS, causes);
            }
            for (name, list) in [("apiGroups", &rule.api_groups), ("apiVersions", &rule.api_versions)] {
                if list.is_empty() {
                    causes.push(FieldError::required(format!("{at}.{name}"), ""));
                }
            }
            if rule.resources.is_empty() {
                causes.push(FieldError::required(format!("{at}.resources"), ""));
            }
            one_of(&format!("{at}.scope"), rule.scope.as_ref(), &["*", "Cluster", "Namespaced"], causes);
        }
    }
    one_of(&format!("{path}.matchPolicy"), m.match_policy.as_ref(), &["Equivalent", "Exact"], causes);
}

/// `ValidateValidatingAdmissionPolicy`.
pub fn validating(policy: &ValidatingAdmissionPolicy) -> Vec<FieldError> {
    let spec = &policy.spec;
    let mut causes = Vec::new();
    let env = expressions::env(&spec.variables);
    if let Some(kind) = &spec.param_kind {
        for (field, value) in [("apiVersion", &kind.api_version), ("kind", &kind.kind)] {
            if value.is_empty() {
                causes.push(FieldError::required(format!("spec.paramKind.{field}"), ""));
            }
        }
    }
    let (variables, conditions) = (&spec.variables, &spec.match_conditions);
    common(spec.match_constraints.as_ref(), spec.failure_policy.as_ref(), variables, conditions, &env, &mut causes);
    if spec.validations.is_empty() && spec.audit_annotations.is_empty() {
        causes.push(FieldError::required(
            "spec.validations",
            "validations or auditAnnotations must contain at least one item",
        ));
    }
    const REASONS: &[&str] = &["Unauthorized", "Forbidden", "Invalid", "RequestEntityTooLarge"];
    for (i, v) in spec.validations.iter().enumerate() {
        expression(format!("spec.validations[{i}].expression"), &v.expression, &env, Returns::Bool, &mut causes);
        if !v.message_expression.is_empty() {
            let field = format!("spec.validations[{i}].messageExpression");
            expression(field, &v.message_expression, &env, Returns::String, &mut causes);
        }
        one_of(&format!("spec.validations[{i}].reason"), v.reason.as_ref(), REASONS, &mut causes);
    }
    for (i, a) in spec.audit_annotations.iter().enumerate() {
        let field = format!("spec.auditAnnotations[{i}].valueExpression");
        expression(field, &a.value_expression, &env, Returns::Any, &mut causes);
    }
    causes
}

fn param_ref(param_ref: Option<&ParamRef>, causes: &mut Vec<FieldError>) {
    let Some(p) = param_ref else { return };
    if p.name.is_empty() == p.selector.is_none() {
        causes.push(FieldError::forbidden("spec.paramRef.name", "one of name or selector must be specified"));
    }
    match &p.parameter_not_found_action {
        None => causes.push(FieldError::required("spec.paramRef.parameterNotFoundAction", "")),
        action => one_of("spec.paramRef.parameterNotFoundAction", action.as_ref(), &["Deny", "Allow"], causes),
    }
}

/// `ValidateValidatingAdmissionPolicyBinding`.
pub fn validating_binding(binding: &ValidatingAdmissionPolicyBinding) -> Vec<FieldError> {
    let spec = &binding.spec;
    let mut causes = Vec::new();
    if spec.policy_name.is_empty() {
        causes.push(FieldError::required("spec.policyName", ""));
    }
    param_ref(spec.param_ref.as_ref(), &mut causes);
    if let Some(m) = &spec.match_resources {
        match_resources("spec.matchResouces", m, &mut causes);
    }
    let mut seen: Vec<&str> = Vec::new();
    for (i, action) in spec.validation_actions.iter().enumerate() {
        one_of(&format!("spec.validationActions[{i}]"), Some(action), &["Audit", "Deny", "Warn"], &mut causes);
        if seen.contains(&action.as_str()) {
            causes.push(FieldError::duplicate(format!("spec.validationActions[{i}]"), action));
        }
        seen.push(action);
    }
    if seen.contains(&"Deny") && seen.contains(&"Warn") {
        let value = format!(
            "[]v1.ValidationAction{{{}}}",
            spec.validation_actions.iter().map(|a| format!("{a:?}")).collect::<Vec<_>>().join(", ")
        );
        causes.push(FieldError::invalid(
            "spec.validationActions",
            value,
            "must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)",
        ));
    }
    if seen.is_empty() {
        causes.push(FieldError::required("spec.validationActions", "at least one validation action is required"));
    }
    causes
}

/// `ValidateMutatingAdmissionPolicy`.
pub fn mutating(policy: &MutatingAdmissionPolicy) -> Vec<FieldError> {
    let spec = &policy.spec;
    let mut causes = Vec::new();
    let env = expressions::env(&spec.variables);
    let (variables, conditions) = (&spec.variables, &spec.match_conditions);
    common(spec.match_constraints.as_ref(), spec.failure_policy.as_ref(), variables, conditions, &env, &mut causes);
    if spec.mutations.is_empty() {
        causes.push(FieldError::required("spec.mutations", "mutations must contain at least one item"));
    }
    for (i, m) in spec.mutations.iter().enumerate() {
        let at = format!("spec.mutations[{i}]");
        let (patch, returns, name) = match m.patch_type.as_str() {
            "ApplyConfiguration" => (&m.apply_configuration, Returns::Object, "applyConfiguration"),
            "JSONPatch" => (&m.json_patch, Returns::JsonPatches, "jsonPatch"),
            "" => {
                causes.push(FieldError::required(format!("{at}.patchType"), ""));
                continue;
            }
            other => {
                causes.push(FieldError::not_supported(
                    format!("{at}.patchType"),
                    other,
                    &["ApplyConfiguration", "JSONPatch"],
                ));
                continue;
            }
        };
        match patch {
            Some(p) => expression(format!("{at}.{name}.expression"), &p.expression, &env, returns, &mut causes),
            None => causes.push(FieldError::required(
                format!("{at}.{name}"),
                format!("{name} is required when patchType is {}", m.patch_type),
            )),
        }
    }
    let reinvocation = spec.reinvocation_policy.as_ref();
    one_of("spec.reinvocationPolicy", reinvocation, &["IfNeeded", "Never"], &mut causes);
    causes
}

/// `ValidateMutatingAdmissionPolicyBinding`.
pub fn mutating_binding(binding: &MutatingAdmissionPolicyBinding) -> Vec<FieldError> {
    let spec = &binding.spec;
    let mut causes = Vec::new();
    if spec.policy_name.is_empty() {
        causes.push(FieldError::required("spec.policyName", ""));
    }
    param_ref(spec.param_ref.as_ref(), &mut causes);
    if let Some(m) = &spec.match_resources {
        match_resources("spec.matchResouces", m, &mut causes);
    }
    causes
}
