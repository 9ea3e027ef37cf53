//! `fieldValidation`: what the API server does with fields an object's type does not have.
//! `Strict` refuses the object, naming every such field; `Warn` (the server's default when a
//! client names none, as the Python client does) drops them and says so in `Warning`
//! headers; `Ignore` drops them silently. kubectl 1.36 asks for `Strict` (its `--validate`).
//! Mirrors the apiserver's `fieldValidation` handling in endpoints/handlers/create.go.

use crate::api::Object;
use crate::api::codec::{self, DecodeError};
use crate::error::ApiError;
use serde_json::Value;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FieldValidation {
    Ignore,
    Warn,
    /// What kubectl asks for, so what the lab's own kubectl gets.
    #[default]
    Strict,
}

impl FieldValidation {
    /// The query parameter's value; an unknown one is refused as upstream refuses it.
    pub fn parse(value: Option<&str>) -> Result<FieldValidation, ApiError> {
        match value.unwrap_or("") {
            "" | "Warn" => Ok(FieldValidation::Warn),
            "Strict" => Ok(FieldValidation::Strict),
            "Ignore" => Ok(FieldValidation::Ignore),
            other => Err(ApiError::BadRequest {
                message: format!(
                    "fieldValidation: Unsupported value: {other:?}: supported values: \"Ignore\", \"Strict\", \"Warn\""
                ),
            }),
        }
    }
}

/// The most unknown fields looked for in one object before the rest are left to the error.
const MOST_UNKNOWN: usize = 64;

/// Decodes `value` as `validation` asks: the object and the warnings to send with it.
pub fn decode(mut value: Value, validation: FieldValidation) -> Result<(Object, Vec<String>), ApiError> {
    let mut unknown = Vec::new();
    loop {
        match codec::decode(value.clone()) {
            Ok(object) if unknown.is_empty() => return Ok((object, Vec::new())),
            Ok(object) => return finish(object, unknown, validation),
            Err(DecodeError::Strict { detail, .. }) if unknown.len() < MOST_UNKNOWN => {
                let Some(field) = unknown_field(&detail) else { return Err(refusal(&value)) };
                if !remove(&mut value, &field) {
                    return Err(refusal(&value));
                }
                unknown.push(field);
            }
            Err(error) => return Err(ApiError::BadRequest { message: error.to_string() }),
        }
    }
}

fn finish(
    object: Object,
    unknown: Vec<String>,
    validation: FieldValidation,
) -> Result<(Object, Vec<String>), ApiError> {
    let named: Vec<String> = unknown.iter().map(|field| format!("unknown field \"{field}\"")).collect();
    match validation {
        FieldValidation::Ignore => Ok((object, Vec::new())),
        FieldValidation::Warn => Ok((object, named)),
        FieldValidation::Strict => {
            let info = object.kind().info();
            let (kind, version) = (info.kind_name, info.version);
            Err(ApiError::BadRequest {
                message: format!(
                    "{kind} in version \"{version}\" cannot be handled as a {kind}: strict decoding error: {}",
                    named.join(", ")
                ),
            })
        }
    }
}

/// The decoder's own error for what is left (not an unknown field this can take out).
fn refusal(value: &Value) -> ApiError {
    match codec::decode(value.clone()) {
        Err(error) => ApiError::BadRequest { message: error.to_string() },
        Ok(_) => ApiError::BadRequest { message: "the object cannot be decoded".into() },
    }
}

/// `strict decoding error: unknown field "spec.replicass"` → `spec.replicass`.
fn unknown_field(detail: &str) -> Option<String> {
    let rest = detail.strip_prefix("strict decoding error: unknown field \"")?;
    Some(rest.strip_suffix('"')?.to_string())
}

/// Takes out the field at a decoder path (`spec.template.spec.containers[0].imagee`).
fn remove(value: &mut Value, path: &str) -> bool {
    let mut segments: Vec<&str> = path.split('.').collect();
    let Some(last) = segments.pop() else { return false };
    let mut at = value;
    for segment in segments {
        let Some(next) = step(at, segment) else { return false };
        at = next;
    }
    let (name, index) = split_index(last);
    match index {
        None => at.as_object_mut().and_then(|map| map.remove(name)).is_some(),
        Some(_) => false,
    }
}

fn step<'v>(value: &'v mut Value, segment: &str) -> Option<&'v mut Value> {
    let (name, index) = split_index(segment);
    let field = value.as_object_mut()?.get_mut(name)?;
    match index {
        Some(i) => field.as_array_mut()?.get_mut(i),
        None => Some(field),
    }
}

/// `containers[0]` → (`containers`, Some(0)).
fn split_index(segment: &str) -> (&str, Option<usize>) {
    match segment.strip_suffix(']').and_then(|s| s.split_once('[')) {
        Some((name, index)) => (name, index.parse().ok()),
        None => (segment, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn deployment() -> Value {
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
            "spec": {"replicass": 2, "selector": {"matchLabels": {"app": "web"}},
                "template": {"metadata": {"labels": {"app": "web"}},
                    "spec": {"containers": [{"name": "web", "image": "hello:v1", "imagee": "x"}]}}}})
    }

    #[test]
    fn strict_names_every_unknown_field_and_warn_drops_them() {
        let refused = decode(deployment(), FieldValidation::Strict).unwrap_err().to_string();
        assert_eq!(
            refused,
            "Error from server (BadRequest): Deployment in version \"v1\" cannot be handled as a Deployment: strict decoding error: unknown field \"spec.replicass\", unknown field \"spec.template.spec.containers[0].imagee\""
        );
        let (object, warnings) = decode(deployment(), FieldValidation::Warn).unwrap();
        assert_eq!(
            warnings,
            ["unknown field \"spec.replicass\"", "unknown field \"spec.template.spec.containers[0].imagee\""]
        );
        assert_eq!(object.to_json_value()["spec"]["template"]["spec"]["containers"][0]["image"], "hello:v1");
        let (_, quiet) = decode(deployment(), FieldValidation::Ignore).unwrap();
        assert!(quiet.is_empty());
    }

    #[test]
    fn a_wrong_type_is_refused_whatever_is_asked() {
        let mut value = deployment();
        value["spec"]["replicas"] = json!("three");
        assert!(decode(value, FieldValidation::Ignore).is_err());
        assert!(FieldValidation::parse(Some("Loose")).is_err());
        assert_eq!(FieldValidation::parse(None).unwrap(), FieldValidation::Warn);
    }
}
