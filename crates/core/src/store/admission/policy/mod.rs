//! What the ValidatingAdmissionPolicy and MutatingAdmissionPolicy plugins share (apiserver
//! pkg/admission/plugin/policy/generic): a request's CEL inputs (`object`, `oldObject`,
//! `request`, `namespaceObject`), the binding's parameters (`generic.CollectParams`) and the
//! match conditions. Each plugin is its own file; matching and the CEL environment too.

pub mod expressions;
mod matching;
pub mod mutating;
pub mod validating;

#[cfg(test)]
mod tests;

use super::Request;
use crate::api::admission_policy::{MatchCondition, MatchResources, ParamKind, ParamRef, Variable};
use crate::api::string_map::StringMap;
use crate::api::{Kind, Namespace, ObjectMut};
use crate::cel::{Activation, MapValue, Program, Value};
use crate::store::Store;
use crate::store::kinds::dispatch_get;
use expressions::{Returns, to_cel};
use matching::Subject;
use serde_json::Value as Json;

/// Policies never judge the policy kinds themselves (upstream's `IsExemptAdmissionConfigurationResource`).
fn exempt(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::ValidatingAdmissionPolicy
            | Kind::ValidatingAdmissionPolicyBinding
            | Kind::MutatingAdmissionPolicy
            | Kind::MutatingAdmissionPolicyBinding
    )
}

/// One request's CEL inputs, built once for every policy that matches it.
pub struct Inputs {
    pub object: Json,
    old_object: Option<Json>,
    request: Value,
    namespace_object: Value,
}

impl Inputs {
    pub fn new(store: &Store, request: &Request<'_>, object: &ObjectMut<'_>) -> Inputs {
        let object = object.to_json_value();
        let old_object = match request.operation {
            super::Operation::Update => {
                dispatch_get(store, request.kind, request.namespace, request.name).ok().map(|o| o.to_json_value())
            }
            _ => None,
        };
        let namespace_object = match request.kind {
            Kind::Namespace => Value::Null,
            _ => store
                .try_get::<Namespace>("", request.namespace)
                .map_or(Value::Null, |ns| to_cel(&crate::api::codec::to_json_value(ns))),
        };
        Inputs { request: request_value(request), object, old_object, namespace_object }
    }

    fn labels(json: &Json) -> StringMap {
        json.pointer("/metadata/labels").and_then(|l| serde_json::from_value(l.clone()).ok()).unwrap_or_default()
    }

    /// Whether `m` selects this request (`narrowing`: a binding's matchResources).
    pub fn matches(&self, store: &Store, request: &Request<'_>, m: Option<&MatchResources>, narrowing: bool) -> bool {
        let Some(m) = m else { return narrowing };
        let labels = Inputs::labels(&self.object);
        let old_labels = self.old_object.as_ref().map(Inputs::labels);
        let subject = Subject { request, labels: &labels, old_labels: old_labels.as_ref() };
        matching::matches(store, &subject, m, narrowing)
    }

    /// The activation for one parameter object (`Value::Null` when the policy has none).
    pub fn activation(&self, params: &Value) -> Activation {
        let mut vars = Activation::new();
        vars.insert("object", to_cel(&self.object))
            .insert("oldObject", self.old_object.as_ref().map_or(Value::Null, to_cel))
            .insert("request", self.request.clone())
            .insert("params", params.clone())
            .insert("namespaceObject", self.namespace_object.clone());
        vars
    }
}

/// `request` (admission.k8s.io/v1 `AdmissionRequest` as CEL sees it).
fn request_value(request: &Request<'_>) -> Value {
    let info = request.kind.info();
    let kind = MapValue::new()
        .with("group", Value::string(info.group))
        .with("version", Value::string(info.version))
        .with("kind", Value::string(info.kind_name));
    let resource = MapValue::new()
        .with("group", Value::string(info.group))
        .with("version", Value::string(info.version))
        .with("resource", Value::string(info.plural));
    let groups = request.user.groups.iter().map(|g| Value::string(g)).collect();
    let user = MapValue::new().with("username", Value::string(&request.user.name)).with("groups", Value::list(groups));
    let mut map = MapValue::new()
        .with("kind", Value::map(kind.clone()))
        .with("resource", Value::map(resource.clone()))
        .with("requestKind", Value::map(kind))
        .with("requestResource", Value::map(resource))
        .with("name", Value::string(request.name))
        .with("namespace", Value::string(request.namespace))
        .with("operation", Value::string(matching::operation_name(request.operation)))
        .with("userInfo", Value::map(user))
        .with("dryRun", Value::Bool(false));
    if !request.subresource.is_empty() {
        map.insert("subResource", Value::string(request.subresource));
    }
    Value::map(map)
}

/// `generic.CollectParams`: the parameter objects one binding evaluates its policy with;
/// `[null]` when the policy takes none. Errors read as upstream's.
pub fn collect_params(
    store: &Store,
    kind: Option<&ParamKind>,
    param_ref: Option<&ParamRef>,
    namespace: &str,
) -> Result<Vec<Value>, String> {
    let (Some(kind), Some(param_ref)) = (kind, param_ref) else { return Ok(vec![Value::Null]) };
    let info = Kind::from_kind_name(&kind.kind)
        .map(Kind::info)
        .filter(|info| info.api_version() == kind.api_version && store.serves(info.kind))
        .ok_or_else(|| {
            format!("paramKind kind `&ParamKind{{APIVersion:{},Kind:{},}}` not known", kind.api_version, kind.kind)
        })?;
    let namespace = if !info.namespaced {
        if !param_ref.namespace.is_empty() {
            return Err("paramRef.namespace must not be provided for a cluster-scoped `paramKind`".into());
        }
        ""
    } else if !param_ref.namespace.is_empty() {
        param_ref.namespace.as_str()
    } else if namespace.is_empty() {
        return Err("cannot use namespaced paramRef in policy binding that matches cluster-scoped resources".into());
    } else {
        namespace
    };
    let params: Vec<Value> = if !param_ref.name.is_empty() {
        dispatch_get(store, info.kind, namespace, &param_ref.name)
            .into_iter()
            .map(|o| to_cel(&o.to_json_value()))
            .collect()
    } else if let Some(selector) = &param_ref.selector {
        let ns = info.namespaced.then_some(namespace);
        let labels = selector.to_selector().map_err(|e| e.message().to_string())?;
        let fields = crate::store::FieldSelector::everything();
        crate::store::kinds::dispatch_list(store, info.kind, ns, &labels, &fields)
            .iter()
            .map(|o| to_cel(&o.to_json_value()))
            .collect()
    } else {
        return Err("one of name or selector must be provided".into());
    };
    if params.is_empty() && param_ref.parameter_not_found_action.as_deref() == Some("Deny") {
        return Err("no params found for policy binding with `Deny` parameterNotFoundAction".into());
    }
    Ok(params)
}

/// A policy's compiled variables and match conditions.
pub struct Compiled {
    variables: Vec<(String, Program)>,
    conditions: Vec<Program>,
}

impl Compiled {
    /// Compiles what every evaluation of the policy needs; the error is the first that fails.
    pub fn new(variables: &[Variable], conditions: &[MatchCondition]) -> Result<Compiled, String> {
        let env = expressions::env(variables);
        let variables = variables
            .iter()
            .map(|v| expressions::compile(&v.expression, &env, Returns::Any).map(|p| (v.name.clone(), p)))
            .collect::<Result<_, _>>()?;
        let conditions = conditions
            .iter()
            .map(|c| expressions::compile(&c.expression, &env, Returns::Bool))
            .collect::<Result<_, _>>()?;
        Ok(Compiled { variables, conditions })
    }

    /// Binds `variables` into `vars`, then runs the match conditions: `Ok(false)` when one is
    /// false, the errors (joined as Go's aggregate prints them) when none is false but some failed.
    pub fn prepare(&self, vars: &mut Activation, sources: &[MatchCondition]) -> Result<bool, String> {
        expressions::bind_variables(vars, &self.variables);
        let mut errors = Vec::new();
        for (program, source) in self.conditions.iter().zip(sources) {
            match program.eval(vars) {
                Ok(Value::Bool(false)) => return Ok(false),
                Ok(_) => {}
                Err(e) => errors.push(format!("expression '{}' resulted in error: {e}", source.expression)),
            }
        }
        match errors.as_slice() {
            [] => Ok(true),
            [one] => Err(one.clone()),
            many => Err(format!("[{}]", many.join(", "))),
        }
    }
}
