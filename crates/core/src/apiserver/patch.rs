//! The patch types the API server accepts, by Content-Type: JSON merge patch (RFC 7386),
//! strategic merge patch (`kubectl patch`'s default and client-side `kubectl apply`'s), JSON
//! patch (RFC 6902), and server-side apply's configuration. Mirrors
//! staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go.

use crate::error::ApiError;
use crate::kubectl::strategic_merge;
use serde_json::Value;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PatchType {
    #[default]
    Merge,
    Strategic,
    Json,
    /// Server-side apply (`application/apply-patch+yaml`): the applier's intent, merged into
    /// the live object (created when absent).
    Apply,
}

impl PatchType {
    /// The patch type a request's Content-Type names, `None` for an unsupported one.
    pub fn from_content_type(content_type: &str) -> Option<PatchType> {
        match content_type.split(';').next().unwrap_or("").trim() {
            "application/merge-patch+json" => Some(PatchType::Merge),
            "application/strategic-merge-patch+json" => Some(PatchType::Strategic),
            "application/json-patch+json" => Some(PatchType::Json),
            "application/apply-patch+yaml" | "application/apply-patch+cbor" => Some(PatchType::Apply),
            _ => None,
        }
    }
}

/// `original` with `patch` applied.
pub fn apply(patch_type: PatchType, original: &Value, patch: &Value) -> Result<Value, ApiError> {
    let mut patched = original.clone();
    match patch_type {
        PatchType::Merge => json_patch::merge(&mut patched, patch),
        PatchType::Strategic | PatchType::Apply => strategic_merge::apply(&mut patched, patch),
        PatchType::Json => {
            let operations: json_patch::Patch =
                serde_json::from_value(patch.clone()).map_err(|e| ApiError::BadRequest {
                    message: format!("json: cannot unmarshal into Go value of type jsonpatch.Patch: {e}"),
                })?;
            json_patch::patch(&mut patched, &operations)
                .map_err(|e| ApiError::BadRequest { message: format!("the patch cannot be applied: {e}") })?;
        }
    }
    Ok(patched)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_patch_type_changes_the_image() {
        let live = json!({"spec": {"containers": [{"name": "hello", "image": "hello:v1"}, {"name": "log", "image": "busybox"}]}});
        let strategic = json!({"spec": {"containers": [{"name": "hello", "image": "hello:v2"}]}});
        let merged = apply(PatchType::Strategic, &live, &strategic).unwrap();
        assert_eq!(merged["spec"]["containers"][1]["name"], "log", "strategic merges containers by name");
        let replaced = apply(PatchType::Merge, &live, &strategic).unwrap();
        assert_eq!(replaced["spec"]["containers"].as_array().unwrap().len(), 1, "a merge patch replaces lists");
        let ops = json!([{"op": "replace", "path": "/spec/containers/0/image", "value": "hello:v3"}]);
        assert_eq!(apply(PatchType::Json, &live, &ops).unwrap()["spec"]["containers"][0]["image"], "hello:v3");
        assert_eq!(PatchType::from_content_type("application/json-patch+json; charset=utf-8"), Some(PatchType::Json));
    }
}
