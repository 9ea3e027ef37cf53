//! Kubernetes protobuf request bodies (what `kubectl create <generator>` sends) decoded to API JSON.
//!
//! A body is the magic `k8s\0` and a `runtime.Unknown` {1: typeMeta {1: apiVersion, 2: kind},
//! 2: raw (the object's message), 3: contentEncoding, 4: contentType}. The object's message is
//! decoded by the schema table (`schema`) into the JSON `kubectl get -o json` shows, with
//! apiVersion and kind, ready for the strict JSON decoder (`crate::api::codec::decode`).

mod object;
mod schema;
mod wire;

#[cfg(test)]
mod tests;

use serde_json::Value;

/// The media type of Kubernetes protobuf.
const MEDIA_TYPE: &str = "application/vnd.kubernetes.protobuf";

/// The four bytes every Kubernetes protobuf body starts with.
const MAGIC: &[u8] = b"k8s\0";

/// Whether a Content-Type is Kubernetes protobuf.
pub fn is_protobuf(content_type: &str) -> bool {
    let media_type = content_type.split(';').next().unwrap_or_default().trim();
    media_type.eq_ignore_ascii_case(MEDIA_TYPE)
}

/// The object in a `k8s\0`-prefixed protobuf body, as the JSON the API serves (with apiVersion and kind).
pub fn decode(body: &[u8]) -> Result<Value, String> {
    let unknown = body.strip_prefix(MAGIC).ok_or("protobuf body does not start with the k8s\\0 magic")?;
    let envelope = envelope(unknown)?;
    if !envelope.content_encoding.is_empty() {
        return Err(format!("protobuf content encoding {:?} is not supported", envelope.content_encoding));
    }
    let (api_version, kind) = (envelope.api_version, envelope.kind);
    let message = schema::kind(&api_version, &kind)
        .ok_or_else(|| format!("no protobuf decoding for apiVersion {api_version:?}, kind {kind:?}"))?;
    let mut map = object::object(message, envelope.raw).map_err(|e| format!("decoding protobuf {kind}{e}"))?;
    map.insert("apiVersion".to_string(), Value::String(api_version));
    map.insert("kind".to_string(), Value::String(kind));
    Ok(Value::Object(map))
}

/// The fields of a `runtime.Unknown` that decoding needs.
struct Envelope<'a> {
    api_version: String,
    kind: String,
    raw: &'a [u8],
    content_encoding: String,
}

/// Reads a `runtime.Unknown` (contentType, field 4, is not needed: the raw bytes are protobuf).
fn envelope(bytes: &[u8]) -> Result<Envelope<'_>, String> {
    let mut envelope =
        Envelope { api_version: String::new(), kind: String::new(), raw: &[], content_encoding: String::new() };
    for item in wire::fields(bytes) {
        match item.map_err(|e| format!("protobuf envelope: {e}"))? {
            (1, wire::Wire::Bytes(type_meta)) => (envelope.api_version, envelope.kind) = read_type_meta(type_meta)?,
            (2, wire::Wire::Bytes(raw)) => envelope.raw = raw,
            (3, wire::Wire::Bytes(encoding)) => envelope.content_encoding = String::from_utf8_lossy(encoding).into(),
            _ => {}
        }
    }
    Ok(envelope)
}

/// Reads a `runtime.TypeMeta` {1: apiVersion, 2: kind}.
fn read_type_meta(bytes: &[u8]) -> Result<(String, String), String> {
    let (mut api_version, mut kind) = (String::new(), String::new());
    for item in wire::fields(bytes) {
        match item.map_err(|e| format!("protobuf typeMeta: {e}"))? {
            (1, wire::Wire::Bytes(text)) => api_version = String::from_utf8_lossy(text).into(),
            (2, wire::Wire::Bytes(text)) => kind = String::from_utf8_lossy(text).into(),
            _ => {}
        }
    }
    Ok((api_version, kind))
}
