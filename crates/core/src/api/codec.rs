//! Encoding and strict decoding of objects: JSON values in, typed objects out, with the API
//! server's wording for what goes wrong (`strict decoding error: unknown field "spec.replica"`).
//!
//! Mirrors the apiserver's serializer with strict field validation (the kubectl 1.27+ default).

use super::{Kind, Object, Resource, strict_decoder};
use serde::Serialize;
use serde_json::{Map, Value};
use std::fmt;

/// Why a manifest could not become an object.
#[derive(Clone, Debug, PartialEq)]
pub enum DecodeError {
    /// The document is not a JSON object, or lacks apiVersion/kind.
    MissingTypeInfo { missing: Vec<&'static str> },
    /// apiVersion/kind name nothing the cluster serves.
    NoKindMatch { kind: String, api_version: String },
    /// The API server could not decode the object (unknown field, wrong type).
    Strict { kind: &'static str, version: &'static str, detail: String },
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::MissingTypeInfo { missing } => {
                let errors: Vec<String> = missing.iter().map(|m| format!("{m} not set")).collect();
                match errors.as_slice() {
                    [one] => write!(f, "error validating data: {one}"),
                    many => write!(f, "error validating data: [{}]", many.join(", ")),
                }
            }
            DecodeError::NoKindMatch { kind, api_version } => {
                write!(f, "no matches for kind \"{kind}\" in version \"{api_version}\"")
            }
            DecodeError::Strict { kind, version, detail } => {
                write!(f, "{kind} in version \"{version}\" cannot be handled as a {kind}: {detail}")
            }
        }
    }
}

/// Serializes an object with its `apiVersion` and `kind`. Keys come out sorted, as kubectl's
/// printers show them (they go through a Go map).
pub fn to_json_value<T: Resource>(object: &T) -> Value {
    let info = T::KIND.info();
    let mut value = serde_json::to_value(object).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut value {
        map.insert("apiVersion".into(), Value::String(info.api_version()));
        map.insert("kind".into(), Value::String(info.kind_name.to_string()));
    }
    value
}

/// Reads `apiVersion` and `kind` and checks the cluster serves that pair.
pub fn kind_of(value: &Value) -> Result<Kind, DecodeError> {
    let map = value.as_object();
    let field = |name: &str| map.and_then(|m| m.get(name)).and_then(Value::as_str).unwrap_or("");
    let (api_version, kind_name) = (field("apiVersion"), field("kind"));
    let mut missing = Vec::new();
    if api_version.is_empty() {
        missing.push("apiVersion");
    }
    if kind_name.is_empty() {
        missing.push("kind");
    }
    if !missing.is_empty() {
        return Err(DecodeError::MissingTypeInfo { missing });
    }
    let no_match = || DecodeError::NoKindMatch { kind: kind_name.to_string(), api_version: api_version.to_string() };
    let kind = Kind::from_kind_name(kind_name).ok_or_else(no_match)?;
    if kind.info().api_version() != api_version {
        return Err(no_match());
    }
    Ok(kind)
}

/// Decodes a manifest document into a typed object, rejecting unknown fields.
pub fn decode(value: Value) -> Result<Object, DecodeError> {
    let kind = kind_of(&value)?;
    let Value::Object(mut map) = value else {
        return Err(DecodeError::MissingTypeInfo { missing: vec!["apiVersion", "kind"] });
    };
    map.remove("apiVersion");
    map.remove("kind");
    crate::for_each_kind!(decode_arms, kind, map)
}

/// Decodes into one kind (the value may still carry apiVersion/kind; they are checked and dropped).
pub fn decode_typed<T: Resource>(value: Value) -> Result<T, DecodeError> {
    let object = decode(value)?;
    let info = T::KIND.info();
    T::from_object(object).ok_or(DecodeError::Strict {
        kind: info.kind_name,
        version: info.version,
        detail: "the object's kind changed".to_string(),
    })
}

fn decode_as<T: Resource>(map: Map<String, Value>) -> Result<Object, DecodeError> {
    let info = T::KIND.info();
    strict_decoder::from_value::<T>(Value::Object(map)).map(Resource::into_object).map_err(|err| DecodeError::Strict {
        kind: info.kind_name,
        version: info.version,
        detail: describe_decode_error(&err, err.message()),
    })
}

/// Words a serde error the way the apiserver's decoder does.
fn describe_decode_error(err: &strict_decoder::PathError, message: &str) -> String {
    let path = &err.path();
    if let Some(rest) = message.strip_prefix("unknown field `") {
        let field = rest.split('`').next().unwrap_or(rest);
        let full = if path.is_empty() || path == "." {
            field.to_string()
        } else if path.ends_with(field) {
            path.to_string()
        } else {
            format!("{path}.{field}")
        };
        return format!("strict decoding error: unknown field \"{full}\"");
    }
    if let Some(rest) = message.strip_prefix("invalid type: ") {
        // "invalid type: string \"three\", expected i32" → Go's json wording.
        let (found, expected) = rest.split_once(", expected ").unwrap_or((rest, "a value"));
        let found_kind = found.split_whitespace().next().unwrap_or(found);
        return format!(
            "json: cannot unmarshal {} into Go struct field {} of type {}",
            go_value_kind(found_kind),
            err.go_field(),
            go_struct_type(expected).unwrap_or_else(|| go_type_name(expected).to_string())
        );
    }
    // Quantity errors read bare upstream (the unmarshaller does not name the field).
    if path.is_empty() || path == "." || message.starts_with("quantities must match") {
        message.to_string()
    } else {
        format!("{path}: {message}")
    }
}

/// encoding/json's name for what it found: serde says "sequence", "map", "integer", "boolean".
fn go_value_kind(found: &str) -> &str {
    match found {
        "sequence" => "array",
        "map" => "object",
        "integer" | "floating" => "number",
        "boolean" => "bool",
        _ => found,
    }
}

fn go_type_name(expected: &str) -> &str {
    match expected {
        "i32" => "int32",
        "i64" => "int64",
        "u32" | "u64" => "int64",
        "a boolean" => "bool",
        "a string" => "string",
        "a sequence" => "array",
        _ if expected.starts_with("a map") => "map[string]string",
        _ => expected,
    }
}

/// A struct's Go type as encoding/json names it (`struct PodSpec` → `v1.PodSpec`).
fn go_struct_type(expected: &str) -> Option<String> {
    expected.strip_prefix("struct ").map(|name| format!("v1.{name}"))
}

/// Serializes any serde value to a JSON value (used for merge patches on typed objects).
pub fn to_value<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// The `match` behind `decode`: one arm per row of the kind table.
#[doc(hidden)]
#[macro_export]
macro_rules! decode_arms {
    (($kind:expr, $map:expr) $($name:ident => $field:ident $row:tt),* $(,)?) => {
        match $kind {
            $($crate::api::Kind::$name => decode_as::<$crate::api::$name>($map),)*
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn deployment_with_spec(spec: Value) -> Value {
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "hello"}, "spec": spec})
    }

    #[test]
    fn unknown_fields_are_named_by_their_full_path() {
        let err = decode(deployment_with_spec(json!({"replica": 3}))).unwrap_err();
        assert_eq!(
            err.to_string(),
            "Deployment in version \"v1\" cannot be handled as a Deployment: strict decoding error: unknown field \"spec.replica\""
        );
        let nested = json!({"template": {"spec": {"containers": [{"name": "a", "imagee": "x"}]}}});
        let err = decode(deployment_with_spec(nested)).unwrap_err();
        assert!(err.to_string().ends_with("unknown field \"spec.template.spec.containers[0].imagee\""), "{err}");
    }

    #[test]
    fn an_array_where_an_object_belongs_reads_like_go_json() {
        let err = decode(deployment_with_spec(json!({"template": {"spec": [1, 2]}}))).unwrap_err();
        assert_eq!(
            err.to_string(),
            "Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal array into Go struct field PodTemplateSpec.spec.template.spec of type v1.PodSpec"
        );
    }

    #[test]
    fn wrong_types_read_like_go_json_errors() {
        let err = decode(deployment_with_spec(json!({"replicas": "three"}))).unwrap_err();
        assert_eq!(
            err.to_string(),
            "Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32"
        );
        // YAML 1.1's `value: yes`, as upstream words it (the index and map keys are not named).
        let env = json!({"template": {"spec": {"containers": [{"name": "a", "image": "x", "env": [{"name": "E", "value": true}]}],
                                               "nodeSelector": {"disk": "ssd"}}}});
        assert_eq!(
            decode(deployment_with_spec(env)).unwrap_err().to_string(),
            "Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal bool into Go struct field EnvVar.spec.template.spec.containers.env.value of type string"
        );
        let selector = json!({"template": {"spec": {"containers": [], "nodeSelector": {"disk": true}}}});
        assert_eq!(
            decode(deployment_with_spec(selector)).unwrap_err().to_string(),
            "Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal bool into Go struct field PodSpec.spec.template.spec.nodeSelector of type string"
        );
    }

    #[test]
    fn type_information_is_checked_first() {
        let err = decode(json!({"metadata": {"name": "x"}})).unwrap_err();
        assert_eq!(err.to_string(), "error validating data: [apiVersion not set, kind not set]");
        let err = decode(json!({"apiVersion": "v1", "kind": "Deployment"})).unwrap_err();
        assert_eq!(err.to_string(), "no matches for kind \"Deployment\" in version \"v1\"");
    }

    #[test]
    fn objects_encode_with_type_information_and_sorted_keys() {
        let object = decode(
            json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"b": "2", "a": "1"}}),
        )
        .unwrap();
        let text = serde_json::to_string(&object.to_json_value()).unwrap();
        assert_eq!(text, r#"{"apiVersion":"v1","data":{"a":"1","b":"2"},"kind":"ConfigMap","metadata":{"name":"c"}}"#);
    }
}
