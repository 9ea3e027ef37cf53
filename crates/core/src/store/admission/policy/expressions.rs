//! The CEL environment admission policies compile against (apiserver
//! pkg/admission/plugin/cel/compile.go): `object`, `oldObject`, `request`, `params`,
//! `namespaceObject` and `variables`, plus the `Object.*` and `JSONPatch` types mutations
//! construct; and the conversions between JSON objects and CEL values.
//!
//! Not declared: `authorizer` (the evaluator has no authorizer library), so an expression
//! naming it fails to compile with `undeclared reference to 'authorizer'`.

use crate::api::admission_policy::Variable;
use crate::cel::{self, Activation, Env, MapKey, MapValue, ObjectType, Program, Type, Value};
use serde_json::{Map, Value as Json};

/// What an expression must evaluate to (the `ReturnTypes` of its upstream accessor).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Returns {
    /// Validations and match conditions.
    Bool,
    /// `messageExpression`.
    String,
    /// Variables: anything.
    Any,
    /// An `ApplyConfiguration`: an `Object{…}`.
    Object,
    /// A `JSONPatch`: a list of `JSONPatch{…}`.
    JsonPatches,
}

/// The environment of a policy with these variables; `variables.<name>` of each is `dyn`.
pub fn env(variables: &[Variable]) -> Env {
    let mut env = Env::new();
    for name in ["object", "oldObject", "request", "params", "namespaceObject"] {
        env.declare(name, Type::Dyn);
    }
    let fields = variables.iter().map(|v| (v.name.as_str(), Type::Dyn)).collect();
    env.declare("variables", Type::Object(ObjectType::new("kubernetes.variables", fields)));
    env.declare_open_struct_root("Object").declare_struct(json_patch_type());
    env
}

fn json_patch_type() -> ObjectType {
    ObjectType::new(
        "JSONPatch",
        vec![("op", Type::String), ("path", Type::String), ("from", Type::String), ("value", Type::Dyn)],
    )
}

/// Compiles one expression; the error is upstream's `Detail` (`compilation failed: ERROR: …`,
/// `must evaluate to bool but got int`).
pub fn compile(expression: &str, env: &Env, returns: Returns) -> Result<Program, String> {
    let program = cel::compile(expression, env).map_err(|e| format!("compilation failed: {e}"))?;
    let got = program.result_type();
    let ok = match returns {
        Returns::Any => true,
        Returns::Bool => *got == Type::Bool,
        Returns::String => *got == Type::String,
        Returns::Object => matches!(got, Type::Object(o) if o.name == "Object"),
        Returns::JsonPatches => {
            matches!(got, Type::List(e) if matches!(&**e, Type::Object(o) if o.name == "JSONPatch"))
        }
    };
    if ok {
        return Ok(program);
    }
    let want = match returns {
        Returns::Bool => "bool",
        Returns::String => "string",
        Returns::Object => "Object",
        _ => "list(JSONPatch)",
    };
    Err(format!("must evaluate to {want} but got {}", got))
}

/// A JSON value as CEL sees it: objects are maps with string keys, whole numbers ints.
pub fn to_cel(json: &Json) -> Value {
    match json {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => n.as_i64().map(Value::Int).unwrap_or_else(|| Value::Double(n.as_f64().unwrap_or(0.0))),
        Json::String(s) => Value::string(s),
        Json::Array(items) => Value::list(items.iter().map(to_cel).collect()),
        Json::Object(map) => {
            let mut m = MapValue::new();
            for (k, v) in map {
                m.insert(k.as_str(), to_cel(v));
            }
            Value::map(m)
        }
    }
}

/// A CEL value as JSON: constructed objects become JSON objects of their fields.
pub fn to_json(value: &Value) -> Json {
    match value {
        Value::Null => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Int(i) => Json::from(*i),
        Value::Uint(u) => Json::from(*u),
        Value::Double(d) => serde_json::Number::from_f64(*d).map_or(Json::Null, Json::Number),
        Value::String(s) => Json::String(s.to_string()),
        Value::Bytes(b) => Json::String(String::from_utf8_lossy(b).into_owned()),
        Value::List(items) => Json::Array(items.iter().map(to_json).collect()),
        Value::Map(m) => Json::Object(m.iter().map(|(k, v)| (map_key(k), to_json(v))).collect::<Map<String, Json>>()),
        Value::Object(o) => Json::Object(o.fields().map(|(k, v)| (k.clone(), to_json(v))).collect()),
        Value::Quantity(q) => Json::String(q.to_string()),
        Value::Semver(s) => Json::String(s.to_string()),
        Value::Type(t) => Json::String(t.to_string()),
    }
}

fn map_key(k: &MapKey) -> String {
    k.to_string()
}

/// `variables`: each evaluated in order, so later ones may use earlier ones; one that fails
/// is left out (reading it then fails with `no such key`).
pub fn bind_variables(vars: &mut Activation, variables: &[(String, Program)]) {
    let mut values = cel::ObjectValue::new("kubernetes.variables");
    for (name, program) in variables {
        vars.insert("variables", Value::object(values.clone()));
        if let Ok(v) = program.eval(vars) {
            values = values.with(name, v);
        }
    }
    vars.insert("variables", Value::object(values));
}
