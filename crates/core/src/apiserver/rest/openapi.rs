//! OpenAPI v3 as kube-apiserver publishes it (`/openapi/v3` and one document per group
//! version), generated from the kind table and the schema `kubectl explain` walks: paths whose
//! operations carry `x-kubernetes-group-version-kind` and the `fieldValidation` parameter (so
//! kubectl leaves validation to the server and sends `fieldValidation=Strict`), and
//! `components.schemas` for `kubectl explain`. Request bodies are left out on purpose: kubectl
//! then computes client-side apply's strategic merge patch from its compiled-in types.

use crate::api::{RESOURCES, ResourceInfo};
use crate::kubectl::explain::{FieldDef, schema};
use crate::store::Store;
use serde_json::{Map, Value, json};

const PREFIX: &str = "io.k8s.kubelab.";

/// `api/v1` or `apis/<group>/<version>`: a group version's key in the root document.
fn key(r: &ResourceInfo) -> String {
    if r.group.is_empty() { format!("api/{}", r.version) } else { format!("apis/{}/{}", r.group, r.version) }
}

fn served(store: &Store) -> impl Iterator<Item = &'static ResourceInfo> + '_ {
    RESOURCES.iter().filter(|r| store.serves(r.kind))
}

/// `/openapi/v3`: where each group version's document is.
pub fn root(store: &Store) -> Value {
    let mut paths = Map::new();
    for r in served(store) {
        let key = key(r);
        paths.insert(key.clone(), json!({"serverRelativeURL": format!("/openapi/v3/{key}")}));
    }
    json!({"paths": paths})
}

/// `/openapi/v3/<key>`, `None` for a group version the lab does not serve.
pub fn document(store: &Store, wanted: &str) -> Option<Value> {
    let resources: Vec<&ResourceInfo> = served(store).filter(|r| key(r) == wanted).collect();
    if resources.is_empty() {
        return None;
    }
    let mut paths = Map::new();
    let mut schemas = Map::new();
    for r in &resources {
        let gvk = json!({"group": r.group, "version": r.version, "kind": r.kind_name});
        let base = format!("/{}", key(r));
        let collection = if r.namespaced {
            format!("{base}/namespaces/{{namespace}}/{}", r.plural)
        } else {
            format!("{base}/{}", r.plural)
        };
        paths.insert(collection.clone(), json!({"get": operation(&gvk, "list"), "post": operation(&gvk, "create")}));
        paths.insert(
            format!("{collection}/{{name}}"),
            json!({
                "get": operation(&gvk, "read"),
                "put": operation(&gvk, "replace"),
                "patch": operation(&gvk, "patch"),
                "delete": operation(&gvk, "delete"),
            }),
        );
        add_schemas(r, &gvk, &mut schemas);
    }
    let info = json!({"title": "Kubernetes", "version": crate::version::KUBERNETES_VERSION});
    Some(json!({"openapi": "3.0.0", "info": info, "paths": paths, "components": {"schemas": schemas}}))
}

fn operation(gvk: &Value, action: &str) -> Value {
    let mut parameters = vec![json!({"name": "pretty", "in": "query", "schema": {"type": "string"}})];
    if matches!(action, "create" | "replace" | "patch") {
        for name in ["dryRun", "fieldManager", "fieldValidation"] {
            parameters.push(json!({"name": name, "in": "query", "schema": {"type": "string"}}));
        }
    }
    json!({
        "x-kubernetes-action": action,
        "x-kubernetes-group-version-kind": gvk,
        "parameters": parameters,
        "responses": {"200": {"description": "OK"}},
    })
}

/// The kind's type and every type it reaches, named `io.k8s.kubelab.<Type>`.
fn add_schemas(r: &ResourceInfo, gvk: &Value, schemas: &mut Map<String, Value>) {
    let Ok(schema) = schema() else { return };
    let Some(top) = schema.kinds.get(r.kind_name) else { return };
    let mut pending = vec![top.clone()];
    while let Some(name) = pending.pop() {
        if schemas.contains_key(&format!("{PREFIX}{name}")) {
            continue;
        }
        let Some(type_def) = schema.types.get(&name) else { continue };
        let mut properties = Map::new();
        let mut required = Vec::new();
        for field in &type_def.fields {
            let element = field.type_.trim_start_matches("[]").trim_start_matches("map[string]");
            if schema.types.contains_key(element) {
                pending.push(element.to_string());
            }
            if field.required {
                required.push(field.name.clone());
            }
            properties.insert(field.name.clone(), property(field, |t| schema.types.contains_key(t)));
        }
        let mut value = json!({"type": "object", "description": type_def.description, "properties": properties});
        if !required.is_empty() {
            value["required"] = json!(required);
        }
        if name == *top {
            value["x-kubernetes-group-version-kind"] = json!([gvk]);
        }
        schemas.insert(format!("{PREFIX}{name}"), value);
    }
}

/// One field's schema: a primitive, a list, a map, or a reference to a named type.
fn property(field: &FieldDef, named: impl Fn(&str) -> bool) -> Value {
    let of = |type_: &str| -> Value {
        match type_ {
            "string" => json!({"type": "string"}),
            "integer" => json!({"type": "integer", "format": "int32"}),
            "boolean" => json!({"type": "boolean"}),
            t if named(t) => json!({"allOf": [{"$ref": format!("#/components/schemas/{PREFIX}{t}")}]}),
            _ => json!({"type": "object"}),
        }
    };
    let mut value = if let Some(element) = field.type_.strip_prefix("[]") {
        json!({"type": "array", "items": of(element)})
    } else if let Some(element) = field.type_.strip_prefix("map[string]") {
        json!({"type": "object", "additionalProperties": of(element)})
    } else {
        of(&field.type_)
    };
    value["description"] = json!(field.description);
    if !field.enum_.is_empty() {
        value["enum"] = json!(field.enum_);
    }
    value
}

/// `/openapi/v2`, as kubectl asks for it (gnostic's protobuf `openapi_v2.Document`): only a
/// swagger version and an info block. kubectl reads it only when the v3 documents say a kind
/// is not served, to validate a manifest of an unknown kind on its own side, and a document
/// without definitions leaves that to the API server (which then says the kind is not
/// served), as a real server's document without the kind does.
pub fn v2_document() -> Vec<u8> {
    fn field(number: u8, bytes: &[u8]) -> Vec<u8> {
        let mut out = vec![(number << 3) | 2, bytes.len() as u8];
        out.extend_from_slice(bytes);
        out
    }
    let info = [field(1, b"Kubernetes"), field(2, crate::version::KUBERNETES_VERSION.as_bytes())].concat();
    [field(1, b"2.0"), field(2, &info), field(8, b"")].concat()
}

/// The Content-Type kube-openapi answers `/openapi/v2` with (kubectl asks for `…spec.v2@v1.0+protobuf`).
pub const V2_PROTOBUF: &str = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::ClusterSpec;
    use crate::sim::Sim;

    #[test]
    fn every_patch_of_apps_v1_takes_field_validation_and_names_its_kind() {
        let sim = Sim::new(1, &ClusterSpec::default());
        assert_eq!(root(sim.store())["paths"]["apis/apps/v1"]["serverRelativeURL"], "/openapi/v3/apis/apps/v1");
        let doc = document(sim.store(), "apis/apps/v1").unwrap();
        let patch = &doc["paths"]["/apis/apps/v1/namespaces/{namespace}/deployments/{name}"]["patch"];
        assert_eq!(
            patch["x-kubernetes-group-version-kind"],
            json!({"group": "apps", "version": "v1", "kind": "Deployment"})
        );
        assert!(patch["parameters"].as_array().unwrap().iter().any(|p| p["name"] == "fieldValidation"));
        let deployment = &doc["components"]["schemas"]["io.k8s.kubelab.Deployment"];
        assert_eq!(deployment["x-kubernetes-group-version-kind"][0]["kind"], "Deployment");
        assert!(
            doc["components"]["schemas"]["io.k8s.kubelab.DeploymentStrategy"]["properties"]["type"]["enum"].is_array()
        );
        assert_eq!(document(sim.store(), "apis/nothing/v1"), None);
    }
}
