//! Validation of ConfigMaps and Secrets (`ValidateConfigMap`, `ValidateSecret` and their
//! `…Update` in pkg/apis/core/validation/validation.go): keys a file name can be, the 1 MiB
//! limit, each built-in Secret type's required keys, and `immutable`.

use crate::api::secret::base64_decode;
use crate::api::string_map::StringMap;
use crate::api::{ConfigMap, Secret};
use crate::error::{FieldError, go_quote};

/// `core.MaxSecretSize` (and a ConfigMap's `RuntimeObjectsMaxSize`, the same 1 MiB).
const MAX_SIZE_BYTES: usize = 1024 * 1024;
/// A Secret's data shown in an error, never its content.
const REDACTED: &str = "\"<secret contents redacted>\"";
const IMMUTABLE: &str = "field is immutable when `immutable` is set";

pub fn config_map(cm: &ConfigMap, old: Option<&ConfigMap>) -> Vec<FieldError> {
    let mut causes = keys(cm.data.keys().chain(cm.binary_data.keys()));
    let size: usize = cm.data.iter().map(|(_, v)| v.len()).sum::<usize>()
        + cm.binary_data.iter().map(|(_, v)| base64_decode(v).map_or(v.len(), |b| b.len())).sum::<usize>();
    if size > MAX_SIZE_BYTES {
        causes.push(too_long(""));
    }
    if let Some(old) = old.filter(|o| o.immutable == Some(true)) {
        if cm.immutable != Some(true) {
            causes.push(FieldError::forbidden("immutable", IMMUTABLE));
        }
        if old.data != cm.data {
            causes.push(FieldError::forbidden("data", IMMUTABLE));
        }
        if old.binary_data != cm.binary_data {
            causes.push(FieldError::forbidden("binaryData", IMMUTABLE));
        }
    }
    causes
}

pub fn secret(secret: &Secret, old: Option<&Secret>) -> Vec<FieldError> {
    let mut causes = Vec::new();
    if let Some(old) = old {
        if old.type_ != secret.type_ {
            causes.push(FieldError::invalid(
                "type",
                go_quote(secret.type_.as_deref().unwrap_or("")),
                "field is immutable",
            ));
        }
        if old.immutable == Some(true) {
            if secret.immutable != Some(true) {
                causes.push(FieldError::forbidden("immutable", IMMUTABLE));
            }
            if old.data != secret.data {
                causes.push(FieldError::forbidden("data", IMMUTABLE));
            }
        }
    }
    causes.extend(keys(secret.data.keys()));
    let size: usize = secret.data.iter().map(|(_, v)| base64_decode(v).map_or(v.len(), |b| b.len())).sum();
    if size > MAX_SIZE_BYTES {
        causes.push(too_long("data"));
    }
    causes.extend(by_type(secret));
    causes
}

/// The keys each built-in type needs (`SecretTypeTLS`, `SecretTypeDockerConfigJson`…).
fn by_type(secret: &Secret) -> Vec<FieldError> {
    let data = &secret.data;
    let required = |key: &str| FieldError::required(format!("data[{key}]"), "");
    match secret.type_.as_deref().unwrap_or("") {
        "kubernetes.io/service-account-token" => {
            let name = secret.metadata.annotations.get("kubernetes.io/service-account.name");
            if name.is_none_or(str::is_empty) {
                return vec![FieldError::required("metadata.annotations[kubernetes.io/service-account.name]", "")];
            }
            Vec::new()
        }
        "kubernetes.io/dockercfg" => docker_config(data, ".dockercfg"),
        "kubernetes.io/dockerconfigjson" => docker_config(data, ".dockerconfigjson"),
        // Upstream builds these two paths from "data[%s]", which it never formats.
        "kubernetes.io/basic-auth" if data.get("username").is_none() && data.get("password").is_none() => {
            vec![FieldError::required("data[%s][username]", ""), FieldError::required("data[%s][password]", "")]
        }
        "kubernetes.io/ssh-auth" if data.get("ssh-privatekey").is_none_or(str::is_empty) => {
            vec![FieldError::required("data[%s][ssh-privatekey]", "")]
        }
        "kubernetes.io/tls" => {
            ["tls.crt", "tls.key"].into_iter().filter(|key| data.get(key).is_none()).map(required).collect()
        }
        _ => Vec::new(),
    }
}

/// A docker config Secret: its key present and holding a JSON object.
fn docker_config(data: &StringMap, key: &str) -> Vec<FieldError> {
    let Some(encoded) = data.get(key) else { return vec![FieldError::required(format!("data[{key}]"), "")] };
    let bytes = base64_decode(encoded).unwrap_or_default();
    match json_object_error(&bytes) {
        Some(error) => vec![FieldError::invalid(format!("data[{key}]"), REDACTED, error)],
        None => Vec::new(),
    }
}

/// Why `json.Unmarshal` into a `map[string]interface{}` fails, in encoding/json's words.
fn json_object_error(bytes: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(bytes);
    let first = text.trim_start().chars().next();
    let Some(first) = first else { return Some("unexpected end of JSON input".to_string()) };
    match serde_json::from_str::<serde_json::Value>(&text) {
        Ok(serde_json::Value::Object(_)) | Ok(serde_json::Value::Null) => None,
        Ok(other) => {
            let kind = match other {
                serde_json::Value::Array(_) => "array",
                serde_json::Value::String(_) => "string",
                serde_json::Value::Number(_) => "number",
                _ => "bool",
            };
            Some(format!("json: cannot unmarshal {kind} into Go value of type map[string]interface {{}}"))
        }
        Err(e) if e.is_eof() => Some("unexpected end of JSON input".to_string()),
        Err(_) if !"{[\"-0123456789tfn".contains(first) => {
            Some(format!("invalid character '{first}' looking for beginning of value"))
        }
        Err(e) => Some(format!("invalid JSON at line {} column {}", e.line(), e.column())),
    }
}

/// `IsConfigMapKey` for each key: what a file name in a volume can be.
fn keys<'a>(keys: impl Iterator<Item = &'a str>) -> Vec<FieldError> {
    let mut causes = Vec::new();
    for key in keys {
        let field = format!("data[{key}]");
        if key.len() > 253 {
            causes.push(FieldError::invalid(&field, go_quote(key), "must be no more than 253 characters"));
        }
        if key.is_empty() || !key.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b)) {
            causes.push(FieldError::invalid(
                &field,
                go_quote(key),
                "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
            ));
        }
        let dots = match key {
            "." => Some("must not be '.'"),
            ".." => Some("must not be '..'"),
            _ if key.starts_with("..") => Some("must not start with '..'"),
            _ => None,
        };
        causes.extend(dots.map(|message| FieldError::invalid(&field, go_quote(key), message)));
    }
    causes
}

fn too_long(field: &str) -> FieldError {
    FieldError::preformatted(field, format!("Too long: may not be more than {MAX_SIZE_BYTES} bytes"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::secret::base64_encode;

    fn secret_of(type_: &str, data: &[(&str, &str)]) -> Secret {
        let mut secret = Secret { type_: Some(type_.to_string()), ..Default::default() };
        for (k, v) in data {
            secret.data.insert(*k, base64_encode(v.as_bytes()));
        }
        secret
    }

    fn rendered(causes: Vec<FieldError>) -> Vec<String> {
        causes.iter().map(|c| format!("{}: {}", c.field, c.body())).collect()
    }

    /// A Secret's type, its data, and the causes upstream gives.
    type Row<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a [&'a str]);

    #[test]
    fn each_type_needs_its_keys_as_upstream_words_it() {
        let rows: &[Row<'_>] = &[
            ("Opaque", &[("anything", "x")], &[]),
            ("kubernetes.io/tls", &[("tls.crt", "c")], &["data[tls.key]: Required value"]),
            ("kubernetes.io/tls", &[("tls.crt", "c"), ("tls.key", "k")], &[]),
            ("kubernetes.io/dockerconfigjson", &[], &["data[.dockerconfigjson]: Required value"]),
            (
                "kubernetes.io/dockerconfigjson",
                &[(".dockerconfigjson", "oops")],
                &[
                    "data[.dockerconfigjson]: Invalid value: \"<secret contents redacted>\": invalid character 'o' looking for beginning of value",
                ],
            ),
            ("kubernetes.io/dockerconfigjson", &[(".dockerconfigjson", "{\"auths\":{}}")], &[]),
            (
                "kubernetes.io/basic-auth",
                &[],
                &["data[%s][username]: Required value", "data[%s][password]: Required value"],
            ),
            ("kubernetes.io/basic-auth", &[("password", "p")], &[]),
            ("kubernetes.io/ssh-auth", &[], &["data[%s][ssh-privatekey]: Required value"]),
            (
                "kubernetes.io/service-account-token",
                &[],
                &["metadata.annotations[kubernetes.io/service-account.name]: Required value"],
            ),
        ];
        for (type_, data, expected) in rows {
            assert_eq!(rendered(secret(&secret_of(type_, data), None)), *expected, "{type_}");
        }
    }

    #[test]
    fn an_immutable_secret_keeps_its_data_and_every_secret_its_type() {
        let mut old = secret_of("Opaque", &[("a", "1")]);
        old.immutable = Some(true);
        let mut changed = secret_of("kubernetes.io/tls", &[("a", "2")]);
        changed.immutable = Some(true);
        assert_eq!(
            rendered(secret(&changed, Some(&old))),
            [
                "type: Invalid value: \"kubernetes.io/tls\": field is immutable",
                "data: Forbidden: field is immutable when `immutable` is set",
                "data[tls.crt]: Required value",
                "data[tls.key]: Required value",
            ]
        );
    }

    #[test]
    fn keys_must_be_file_names() {
        let mut cm = ConfigMap::default();
        cm.data.insert("bad key", "x".to_string());
        cm.data.insert("..hidden", "x".to_string());
        assert_eq!(
            rendered(config_map(&cm, None)),
            [
                "data[..hidden]: Invalid value: \"..hidden\": must not start with '..'",
                "data[bad key]: Invalid value: \"bad key\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
            ]
        );
    }
}
