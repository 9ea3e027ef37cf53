//! The content hash a generated ConfigMap or Secret's name ends with (api/hasher/hasher.go,
//! builtins/HashTransformer.go): the sha256 of the object's kind and data (and a Secret's
//! type) as Go's `json.Marshal` encodes them, its first ten hex digits with `0 1 3 a e` swapped for
//! `g h k m t` so the suffix never reads as a word or a number. New data ⇒ a new name ⇒ a new
//! pod template in whatever refers to it ⇒ a rollout.

use super::Resource;
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

/// HashTransformer: every generated object still asking for a suffix gets `NAME-HASH`.
pub fn add_hashes(resources: &mut [Resource]) {
    for resource in resources.iter_mut().filter(|r| r.needs_hash) {
        let suffix = hash(&resource.object);
        let name = format!("{}-{suffix}", resource.name());
        resource.rename(name);
        resource.needs_hash = false;
    }
}

/// Hasher.Hash for a ConfigMap or Secret (any other kind hashes its whole object). The
/// encoded `name` is always empty: hasher.go looks up `metadata/name` as one field name, finds
/// nothing and encodes `""` — so a hash never changes with prefixes, suffixes or namespaces.
pub fn hash(object: &Value) -> String {
    let field = |path: &str| object.pointer(path).cloned().unwrap_or(json!(""));
    let kind = object.get("kind").and_then(Value::as_str).unwrap_or("");
    let mut encoded = Map::new();
    match kind {
        "ConfigMap" => {
            encoded.insert("kind".into(), json!("ConfigMap"));
            encoded.insert("name".into(), json!(""));
            encoded.insert("data".into(), field("/data"));
            if let Some(binary @ Value::Object(_)) = object.get("binaryData") {
                encoded.insert("binaryData".into(), binary.clone());
            }
        }
        "Secret" => {
            encoded.insert("kind".into(), json!("Secret"));
            encoded.insert("type".into(), field("/type"));
            encoded.insert("name".into(), json!(""));
            encoded.insert("data".into(), field("/data"));
            if let Some(string_data @ Value::Object(_)) = object.get("stringData") {
                encoded.insert("stringData".into(), string_data.clone());
            }
        }
        _ => return encode(&hex256(&go_json(object))),
    }
    encode(&hex256(&go_json(&Value::Object(encoded))))
}

/// hasher.go `encode`: the first ten hex digits, with the look-alike ones swapped.
pub fn encode(hex: &str) -> String {
    hex.chars()
        .take(10)
        .map(|c| match c {
            '0' => 'g',
            '1' => 'h',
            '3' => 'k',
            'a' => 'm',
            'e' => 't',
            other => other,
        })
        .collect()
}

fn hex256(text: &str) -> String {
    Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// What Go's `json.Marshal` writes for a map-of-interface value: keys sorted by bytes, no
/// spaces, and `<`, `>`, `&`, U+2028 and U+2029 escaped (its HTML-safe default).
pub fn go_json(value: &Value) -> String {
    let text = serde_json::to_string(&sorted(value)).unwrap_or_default();
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            other => out.push(other),
        }
    }
    out
}

/// The value with every map's keys in byte order (whatever order serde_json keeps).
fn sorted(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            Value::Object(entries.into_iter().map(|(k, v)| (k.clone(), sorted(v))).collect())
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_config_map_hashes_as_kustomize_does() {
        // kubectl 1.36 `kubectl kustomize` of `configMapGenerator: [{name: empty}]` prints
        // `empty-6ct58987ht`: no data hashes as `"data":""`.
        let empty = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "empty"}});
        assert_eq!(hash(&empty), "6ct58987ht");
        let secret = json!({"kind": "Secret", "type": "kubernetes.io/tls", "metadata": {"name": "tls"},
            "data": {"tls.crt": "YQ==", "tls.key": "Yg=="}});
        assert_eq!(hash(&secret), "m6h7bkm2dg");
    }

    #[test]
    fn go_escapes_html_characters() {
        assert_eq!(go_json(&json!({"b": "<&>", "a": 1})), r#"{"a":1,"b":"\u003c\u0026\u003e"}"#);
        assert_eq!(encode("0123456789abcdef"), "gh2k456789");
        assert_eq!(encode("a1e3b"), "mhtkb");
    }
}
