//! `MutatingAdmissionPolicy` (apiserver pkg/admission/plugin/policy/mutating): every policy
//! whose matchConstraints select the request runs its mutations in order, once per matching
//! binding and parameter. `ApplyConfiguration` merges the `Object{…}` it builds into the object
//! (maps merge, everything else is replaced: a structural merge, not server-side apply's
//! list-map merging); `JSONPatch` applies RFC 6902 operations. A policy with
//! `reinvocationPolicy: IfNeeded` runs once more when a later policy changed the object.

use super::super::{Plugin, Request};
use super::expressions::{self, Returns, to_json};
use super::{Compiled, Inputs, collect_params, exempt};
use crate::api::ObjectMut;
use crate::api::mutating_admission_policy::{MutatingAdmissionPolicy, MutatingAdmissionPolicyBinding, Mutation};
use crate::cel::{Program, Value};
use crate::error::{ApiError, PolicyDenial};
use crate::store::Store;
use serde_json::Value as Json;

pub const PLUGIN: Plugin = Plugin { name: "MutatingAdmissionPolicy", admit: Some(admit), validate: None };

fn admit(store: &Store, request: &Request<'_>, object: &mut ObjectMut<'_>) -> Result<(), ApiError> {
    if exempt(request.kind) || store.count::<MutatingAdmissionPolicy>() == 0 {
        return Ok(());
    }
    let mut changed_by: Vec<String> = Vec::new();
    let policies: Vec<&MutatingAdmissionPolicy> = store.list::<MutatingAdmissionPolicy>(None).collect();
    for policy in &policies {
        if run_policy(store, request, object, policy)? {
            changed_by.push(policy.metadata.name.clone());
        }
    }
    // Reinvocation: a policy that asks for it runs again if another one changed the object after it.
    if !changed_by.is_empty() {
        for (i, policy) in policies.iter().enumerate() {
            let later_change = policies[i + 1..].iter().any(|p| changed_by.contains(&p.metadata.name));
            if policy.spec.reinvocation_policy.as_deref() == Some("IfNeeded") && later_change {
                run_policy(store, request, object, policy)?;
            }
        }
    }
    Ok(())
}

/// Runs one policy under each of its matching bindings; whether it changed the object.
fn run_policy(
    store: &Store,
    request: &Request<'_>,
    object: &mut ObjectMut<'_>,
    policy: &MutatingAdmissionPolicy,
) -> Result<bool, ApiError> {
    let mut changed = false;
    let inputs = Inputs::new(store, request, object);
    if !inputs.matches(store, request, policy.spec.match_constraints.as_ref(), false) {
        return Ok(false);
    }
    let bindings: Vec<&MutatingAdmissionPolicyBinding> = store
        .list::<MutatingAdmissionPolicyBinding>(None)
        .filter(|b| b.spec.policy_name == policy.metadata.name)
        .filter(|b| inputs.matches(store, request, b.spec.match_resources.as_ref(), true))
        .collect();
    for binding in bindings {
        let fail = |e: String| -> Result<bool, ApiError> {
            if policy.spec.failure_policy.as_deref() == Some("Ignore") {
                return Ok(false);
            }
            // The generic policy dispatcher's answer: NewForbidden's details, the policy's message.
            let message = format!(
                "policy '{}' with binding '{}' denied request: {e}",
                policy.metadata.name, binding.metadata.name
            );
            let info = request.kind.info();
            Err(ApiError::PolicyDenied(Box::new(PolicyDenial {
                reason: "Invalid",
                group: info.group.to_string(),
                resource: info.plural.to_string(),
                name: request.name.to_string(),
                cause: message.clone(),
                message,
            })))
        };
        let spec = &policy.spec;
        let params =
            match collect_params(store, spec.param_kind.as_ref(), binding.spec.param_ref.as_ref(), request.namespace) {
                Ok(p) => p,
                Err(e) => {
                    fail(format!("failed to configure binding: {e}"))?;
                    continue;
                }
            };
        for param in &params {
            match mutate_once(store, request, object, policy, param) {
                Ok(c) => changed |= c,
                Err(e) => {
                    fail(e)?;
                }
            }
        }
    }
    Ok(changed)
}

/// The policy's mutations, in order, with one parameter; whether the object changed.
fn mutate_once(
    store: &Store,
    request: &Request<'_>,
    object: &mut ObjectMut<'_>,
    policy: &MutatingAdmissionPolicy,
    param: &Value,
) -> Result<bool, String> {
    let spec = &policy.spec;
    let compiled = Compiled::new(&spec.variables, &spec.match_conditions)?;
    let mut inputs = Inputs::new(store, request, object);
    let mut vars = inputs.activation(param);
    if !compiled.prepare(&mut vars, &spec.match_conditions)? {
        return Ok(false);
    }
    let before = inputs.object.clone();
    let env = expressions::env(&spec.variables);
    for mutation in &spec.mutations {
        let (program, source) = program(mutation, &env)?;
        let value = program.eval(&vars).map_err(|e| format!("expression '{source}' resulted in error: {e}"))?;
        match mutation.patch_type.as_str() {
            "JSONPatch" => json_patch(&mut inputs.object, &value)?,
            _ => merge(&mut inputs.object, &to_json(&value)),
        }
        vars = inputs.activation(param);
        compiled.prepare(&mut vars, &[])?;
    }
    if inputs.object == before {
        return Ok(false);
    }
    object.replace_from_json(inputs.object).map_err(|e| format!("error applying patch: {e}"))?;
    Ok(true)
}

fn program<'m>(mutation: &'m Mutation, env: &crate::cel::Env) -> Result<(Program, &'m str), String> {
    let (patch, returns) = match mutation.patch_type.as_str() {
        "JSONPatch" => (&mutation.json_patch, Returns::JsonPatches),
        _ => (&mutation.apply_configuration, Returns::Object),
    };
    let source = patch.as_ref().map_or("", |p| p.expression.as_str());
    Ok((expressions::compile(source, env, returns)?, source))
}

/// The apply configuration's structural merge: objects merge key by key, a `null` removes,
/// anything else replaces.
fn merge(target: &mut Json, patch: &Json) {
    match (target, patch) {
        (Json::Object(t), Json::Object(p)) => {
            for (k, v) in p {
                match v {
                    Json::Null => {
                        t.remove(k);
                    }
                    _ => merge(t.entry(k.clone()).or_insert(Json::Null), v),
                }
            }
        }
        (t, p) => {
            if let (Json::Null, Json::Object(_)) = (&*t, p) {
                *t = Json::Object(Default::default());
                return merge(t, p);
            }
            *t = p.clone();
        }
    }
}

/// RFC 6902 operations (`add`, `remove`, `replace`, `copy`, `move`, `test`) from `JSONPatch{…}` values.
fn json_patch(target: &mut Json, patches: &Value) -> Result<(), String> {
    let Value::List(items) = patches else {
        return Err("type mismatch: JSONPatchType.expression should evaluate to array".into());
    };
    for item in items.iter() {
        let Value::Object(p) = item else {
            return Err("type mismatch: JSONPatchType.expression should evaluate to array of JSONPatch".into());
        };
        let field = |name: &str| match p.get(name) {
            Some(Value::String(s)) => s.to_string(),
            _ => String::new(),
        };
        let (op, path, from) = (field("op"), field("path"), field("from"));
        let value = p.get("value").map(to_json).unwrap_or(Json::Null);
        apply_op(target, &op, &path, &from, value).map_err(|e| format!("JSON Patch: {e}"))?;
    }
    Ok(())
}

fn apply_op(target: &mut Json, op: &str, path: &str, from: &str, value: Json) -> Result<(), String> {
    match op {
        "add" => add(target, path, value),
        "remove" => remove(target, path).map(|_| ()),
        "replace" => {
            remove(target, path)?;
            add(target, path, value)
        }
        "copy" => {
            let v = target.pointer(from).cloned().ok_or_else(|| format!("copy from path {from:?} does not exist"))?;
            add(target, path, v)
        }
        "move" => {
            let v = remove(target, from)?;
            add(target, path, v)
        }
        "test" => match target.pointer(path) {
            Some(v) if *v == value => Ok(()),
            _ => Err(format!("testing value {path} failed: test failed")),
        },
        other => Err(format!("Unexpected kind: {other}")),
    }
}

/// Splits a JSON pointer into its parent and last token, unescaped (`~1` is `/`, `~0` is `~`).
fn split(path: &str) -> Result<(&str, String), String> {
    let (parent, last) = path.rsplit_once('/').ok_or_else(|| format!("invalid path {path:?}"))?;
    Ok((parent, last.replace("~1", "/").replace("~0", "~")))
}

fn add(target: &mut Json, path: &str, value: Json) -> Result<(), String> {
    let (parent, key) = split(path)?;
    match target.pointer_mut(parent) {
        Some(Json::Object(map)) => {
            map.insert(key, value);
            Ok(())
        }
        Some(Json::Array(items)) => {
            let index =
                if key == "-" { items.len() } else { key.parse().map_err(|_| format!("invalid index {key:?}"))? };
            if index > items.len() {
                return Err(format!("add operation does not apply: doc is missing path: {path:?}"));
            }
            items.insert(index, value);
            Ok(())
        }
        _ => Err(format!("add operation does not apply: doc is missing path: {path:?}")),
    }
}

fn remove(target: &mut Json, path: &str) -> Result<Json, String> {
    let (parent, key) = split(path)?;
    let missing = || format!("remove operation does not apply: doc is missing path: {path:?}");
    match target.pointer_mut(parent) {
        Some(Json::Object(map)) => map.remove(&key).ok_or_else(missing),
        Some(Json::Array(items)) => {
            let index: usize = key.parse().map_err(|_| missing())?;
            (index < items.len()).then(|| items.remove(index)).ok_or_else(missing)
        }
        _ => Err(missing()),
    }
}
