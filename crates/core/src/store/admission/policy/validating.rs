//! `ValidatingAdmissionPolicy` (apiserver pkg/admission/plugin/policy/validating): every
//! policy whose matchConstraints select the request is evaluated once per matching binding and
//! parameter; a false validation is refused (`Deny`), warned about (`Warn`: a `Warning:` line)
//! or only counted (`Audit`: this lab keeps no audit log, so it does nothing). The first refusal
//! answers the request, worded as upstream's dispatcher.go words it.
//!
//! Not built: `auditAnnotations` are checked at write time but not evaluated.

use super::super::{Plugin, Request};
use super::expressions::{self, Returns};
use super::{Compiled, Inputs, collect_params, exempt};
use crate::api::ObjectMut;
use crate::api::validating_admission_policy::{
    ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding, Validation,
};
use crate::cel::{Activation, Program, Value};
use crate::error::{ApiError, PolicyDenial};
use crate::store::Store;

pub const PLUGIN: Plugin = Plugin { name: "ValidatingAdmissionPolicy", admit: None, validate: Some(validate) };

/// A refusal: its message (without the policy's name) and status reason.
struct Denial {
    policy: String,
    binding: Option<String>,
    message: String,
    reason: Option<String>,
}

fn validate(store: &Store, request: &Request<'_>, object: &ObjectMut<'_>) -> Result<(), ApiError> {
    if exempt(request.kind) || store.count::<ValidatingAdmissionPolicy>() == 0 {
        return Ok(());
    }
    let inputs = Inputs::new(store, request, object);
    let mut denials = Vec::new();
    for policy in store.list::<ValidatingAdmissionPolicy>(None) {
        if !inputs.matches(store, request, policy.spec.match_constraints.as_ref(), false) {
            continue;
        }
        let bindings = store.list::<ValidatingAdmissionPolicyBinding>(None);
        for binding in bindings.filter(|b| b.spec.policy_name == policy.metadata.name) {
            if inputs.matches(store, request, binding.spec.match_resources.as_ref(), true) {
                evaluate(store, request, &inputs, policy, binding, &mut denials);
            }
        }
    }
    match denials.into_iter().next() {
        Some(denial) => Err(refusal(request, denial)),
        None => Ok(()),
    }
}

/// Whether evaluation errors refuse (`Fail`, the default) or are ignored.
fn fails_closed(policy: &ValidatingAdmissionPolicy) -> bool {
    policy.spec.failure_policy.as_deref() != Some("Ignore")
}

/// One policy under one binding: its parameters, match conditions and validations.
fn evaluate(
    store: &Store,
    request: &Request<'_>,
    inputs: &Inputs,
    policy: &ValidatingAdmissionPolicy,
    binding: &ValidatingAdmissionPolicyBinding,
    denials: &mut Vec<Denial>,
) {
    let denial = |message: String, reason: Option<String>| Denial {
        policy: policy.metadata.name.clone(),
        binding: Some(binding.metadata.name.clone()),
        message,
        reason,
    };
    let spec = &policy.spec;
    let params = collect_params(store, spec.param_kind.as_ref(), binding.spec.param_ref.as_ref(), request.namespace);
    let params = match params {
        Ok(params) => params,
        Err(e) => {
            if fails_closed(policy) {
                denials.push(denial(format!("failed to configure binding: {e}"), None));
            }
            return;
        }
    };
    let compiled = Compiled::new(&spec.variables, &spec.match_conditions)
        .and_then(|c| validations(&spec.validations, &spec.variables).map(|v| (c, v)));
    let (compiled, programs) = match compiled {
        Ok(both) => both,
        Err(e) => {
            if fails_closed(policy) {
                denials.push(denial(e, None));
            }
            return;
        }
    };
    for param in &params {
        let mut vars = inputs.activation(param);
        match compiled.prepare(&mut vars, &spec.match_conditions) {
            Ok(true) => {}
            Ok(false) => continue,
            Err(e) => {
                if fails_closed(policy) {
                    denials.push(denial(e, None));
                }
                continue;
            }
        }
        for (validation, (program, message_program)) in spec.validations.iter().zip(&programs) {
            let Some((message, reason)) = decide(policy, validation, program, message_program.as_ref(), &vars) else {
                continue;
            };
            for action in &binding.spec.validation_actions {
                match action.as_str() {
                    "Deny" => denials.push(denial(message.clone(), reason.clone())),
                    "Warn" => store.warn(vec![format!(
                        "Validation failed for ValidatingAdmissionPolicy '{}' with binding '{}': {message}",
                        policy.metadata.name, binding.metadata.name
                    )]),
                    _ => {}
                }
            }
        }
    }
}

type Programs = (Program, Option<Program>);

fn validations(
    validations: &[Validation],
    variables: &[crate::api::admission_policy::Variable],
) -> Result<Vec<Programs>, String> {
    let env = expressions::env(variables);
    validations
        .iter()
        .map(|v| {
            let program = expressions::compile(&v.expression, &env, Returns::Bool)?;
            let message = (!v.message_expression.is_empty())
                .then(|| expressions::compile(&v.message_expression, &env, Returns::String))
                .transpose()?;
            Ok((program, message))
        })
        .collect()
}

/// One validation (validator.go): `None` admits; otherwise the refusal's message and reason.
fn decide(
    policy: &ValidatingAdmissionPolicy,
    validation: &Validation,
    program: &Program,
    message_program: Option<&Program>,
    vars: &Activation,
) -> Option<(String, Option<String>)> {
    match program.eval(vars) {
        Ok(Value::Bool(true)) => None,
        Err(e) => fails_closed(policy)
            .then(|| (format!("expression '{}' resulted in error: {e}", validation.expression), None)),
        Ok(_) => {
            let evaluated = message_program.and_then(|p| match p.eval(vars) {
                Ok(Value::String(s)) => Some(s.trim().to_string()).filter(|s| !s.is_empty() && !s.contains('\n')),
                _ => None,
            });
            let message = evaluated
                .or_else(|| Some(validation.message.trim().to_string()).filter(|m| !m.is_empty()))
                .unwrap_or_else(|| format!("failed expression: {}", validation.expression.trim()));
            Some((message, Some(validation.reason.clone().unwrap_or_else(|| "Invalid".into()))))
        }
    }
}

/// dispatcher.go's answer: `admission.NewForbidden` with the decision's reason (`Invalid` when
/// it has none), its message the forbidden one whatever the reason.
fn refusal(request: &Request<'_>, denial: Denial) -> ApiError {
    let cause = match &denial.binding {
        Some(b) => format!(
            "ValidatingAdmissionPolicy '{}' with binding '{b}' denied request: {}",
            denial.policy, denial.message
        ),
        None => format!("ValidatingAdmissionPolicy '{}' denied request: {}", denial.policy, denial.message),
    };
    let info = request.kind.info();
    let reason = match denial.reason.as_deref() {
        Some("Forbidden") => "Forbidden",
        Some("Unauthorized") => "Unauthorized",
        Some("RequestEntityTooLarge") => "RequestEntityTooLarge",
        _ => "Invalid",
    };
    ApiError::PolicyDenied(Box::new(PolicyDenial {
        reason,
        group: info.group.to_string(),
        resource: info.plural.to_string(),
        name: request.name.to_string(),
        message: format!("{} \"{}\" is forbidden: {cause}", info.plural_qualified(), request.name),
        cause,
    }))
}
