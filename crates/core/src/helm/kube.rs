//! Helm's kube client (pkg/kube/client.go) over the API door as the admin: a manifest built
//! into objects in the release's namespace, created with Helm's ownership marks, updated by
//! a three-way merge against the previous manifest, and deleted when a chart drops them.

use serde_json::{Map, Value};

use crate::api::{Kind, codec};
use crate::apiserver::Client;
use crate::error::ApiError;
use crate::sim::Sim;
use crate::store::DeleteOptions;

use super::render::split_manifests;

/// One object of a release's manifest.
#[derive(Clone, Debug, PartialEq)]
pub struct Resource {
    pub kind: Kind,
    pub namespace: String,
    pub name: String,
    pub document: Value,
}

impl Resource {
    fn same_object(&self, other: &Resource) -> bool {
        (self.kind, &self.namespace, &self.name) == (other.kind, &other.namespace, &other.name)
    }

    /// `Service "web" in namespace "default"`, as Helm's conflicts name an object.
    fn described(&self) -> String {
        format!("{} \"{}\" in namespace \"{}\"", self.kind.info().kind_name, self.name, self.namespace)
    }
}

/// Builds a manifest's objects; objects without a namespace go in `namespace`.
pub fn build(sim: &Sim, manifest: &str, namespace: &str) -> Result<Vec<Resource>, String> {
    let mut resources = Vec::new();
    for document in split_manifests(manifest) {
        let Some(mut value) = crate::manifest::parse_document(&document).map_err(|e| format!("error parsing : {e}"))?
        else {
            continue;
        };
        let kind = codec::kind_of(&value).ok().filter(|k| sim.store().serves(*k)).ok_or_else(|| {
            let name = value.pointer("/metadata/name").and_then(Value::as_str).unwrap_or("");
            let api_version = value.get("apiVersion").and_then(Value::as_str).unwrap_or("");
            let kind = value.get("kind").and_then(Value::as_str).unwrap_or("");
            format!(
                "unable to build kubernetes objects from release manifest: resource mapping not found for name: \"{name}\" namespace: \"\" from \"\": no matches for kind \"{kind}\" in version \"{api_version}\"\nensure CRDs are installed first"
            )
        })?;
        let info = kind.info();
        crate::kubectl::apply::set_namespace(&mut value, info.namespaced, Some(namespace))?;
        let name = value.pointer("/metadata/name").and_then(Value::as_str).unwrap_or("").to_string();
        let ns = value.pointer("/metadata/namespace").and_then(Value::as_str).unwrap_or("").to_string();
        resources.push(Resource { kind, namespace: ns, name, document: value });
    }
    Ok(resources)
}

/// Adds the label and annotations by which Helm knows it owns an object.
pub fn mark_owned(resources: &mut [Resource], release: &str, namespace: &str) {
    for resource in resources {
        let Some(meta) = resource.document.get_mut("metadata").and_then(Value::as_object_mut) else { continue };
        let labels = meta.entry("labels").or_insert_with(|| Value::Object(Map::new()));
        if let Some(labels) = labels.as_object_mut() {
            labels.insert("app.kubernetes.io/managed-by".into(), "Helm".into());
        }
        let annotations = meta.entry("annotations").or_insert_with(|| Value::Object(Map::new()));
        if let Some(annotations) = annotations.as_object_mut() {
            annotations.insert("meta.helm.sh/release-name".into(), release.into());
            annotations.insert("meta.helm.sh/release-namespace".into(), namespace.into());
        }
    }
}

fn client(sim: &mut Sim) -> Client<'_> {
    let user = sim.kubectl_user();
    Client::new(sim.store_mut(), user)
}

/// pkg/action/validate.go: an object that exists must already belong to this release.
pub fn check_ownership(sim: &mut Sim, resources: &[Resource], release: &str, namespace: &str) -> Result<(), String> {
    for resource in resources {
        let Ok(live) = client(sim).get(resource.kind, &resource.namespace, &resource.name) else { continue };
        let meta = live.metadata();
        let mut errors = Vec::new();
        if let Err(e) = require(meta.labels.get("app.kubernetes.io/managed-by"), "app.kubernetes.io/managed-by", "Helm")
        {
            errors.push(format!("label validation error: {e}"));
        }
        for (key, want) in [("meta.helm.sh/release-name", release), ("meta.helm.sh/release-namespace", namespace)] {
            if let Err(e) = require(meta.annotations.get(key), key, want) {
                errors.push(format!("annotation validation error: {e}"));
            }
        }
        if !errors.is_empty() {
            return Err(format!(
                "{} exists and cannot be imported into the current release: invalid ownership metadata; {}",
                resource.described(),
                errors.join("; ")
            ));
        }
    }
    Ok(())
}

fn require(actual: Option<&str>, key: &str, want: &str) -> Result<(), String> {
    match actual {
        None => Err(format!("missing key \"{key}\": must be set to \"{want}\"")),
        Some(v) if v != want => Err(format!("key \"{key}\" must equal \"{want}\": current value is \"{v}\"")),
        Some(_) => Ok(()),
    }
}

/// Creates every object, in the manifest's (install) order.
pub fn create(sim: &mut Sim, resources: &[Resource]) -> Result<(), String> {
    for resource in resources {
        create_one(sim, resource)?;
    }
    Ok(())
}

fn create_one(sim: &mut Sim, resource: &Resource) -> Result<(), String> {
    let object = codec::decode(resource.document.clone()).map_err(|e| e.to_string())?;
    client(sim).create(object).map(|_| ()).map_err(|e| api_message(&e))
}

/// Helm prints the API server's message without kubectl's `Error from server` prefix.
pub fn api_message(error: &ApiError) -> String {
    error.message()
}

/// Upgrade and rollback (client.go `Update`): creates what is new, patches what exists with
/// the change from `original` to `target`, deletes what `target` no longer has.
pub fn update(sim: &mut Sim, original: &[Resource], target: &[Resource]) -> Result<(), String> {
    for resource in target {
        let live = client(sim).get(resource.kind, &resource.namespace, &resource.name);
        match live {
            Err(_) => create_one(sim, resource)?,
            Ok(live) => {
                let before = original.iter().find(|o| o.same_object(resource)).map(|o| &o.document);
                let current = live.to_json_value();
                let patch = crate::kubectl::apply::three_way_merge_patch(before, &resource.document, &current);
                let mut patched = current;
                json_patch::merge(&mut patched, &patch);
                let object = codec::decode(patched).map_err(|e| e.to_string())?;
                client(sim).update(object).map_err(|e| {
                    format!(
                        "cannot patch \"{}\" with kind {}: {}",
                        resource.name,
                        resource.kind.info().kind_name,
                        api_message(&e)
                    )
                })?;
            }
        }
    }
    let removed: Vec<&Resource> = original.iter().filter(|o| !target.iter().any(|t| t.same_object(o))).collect();
    for resource in removed {
        // A failed delete of a dropped object does not fail the upgrade, as in Helm.
        let _ = client(sim).delete(resource.kind, &resource.namespace, &resource.name, &DeleteOptions::default());
    }
    Ok(())
}

/// Uninstall: deletes every object, last created first; returns the objects already gone.
pub fn delete(sim: &mut Sim, resources: &[Resource]) -> Vec<String> {
    let mut missing = Vec::new();
    for resource in resources.iter().rev() {
        let deleted = client(sim).delete(resource.kind, &resource.namespace, &resource.name, &DeleteOptions::default());
        if let Err(e) = deleted {
            missing.push(api_message(&e));
        }
    }
    missing
}
