//! Aggregated discovery (`apidiscovery.k8s.io/v2`): `/api` and `/apis` answer every group's
//! resources in one document when the client asks for it, as kubectl 1.36 does first, so
//! discovery is two requests instead of one per group. Built from the legacy lists
//! (`discovery.rs`), so the two forms cannot disagree
//! (staging/src/k8s.io/apiserver/pkg/endpoints/discovery/aggregated).

use super::discovery;
use super::metrics;
use crate::store::Store;
use serde_json::{Value, json};

/// The media type of the answer (and of the client's first choice).
pub const MEDIA_TYPE: &str = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

/// Whether the client's Accept prefers the aggregated form (its first choice names it).
pub fn wanted(accept: &str) -> bool {
    let first = accept.split(',').next().unwrap_or("");
    let params: Vec<&str> = first.split(';').map(str::trim).collect();
    ["g=apidiscovery.k8s.io", "v=v2", "as=APIGroupDiscoveryList"].iter().all(|p| params.contains(p))
}

/// `/api`: the core group.
pub fn core(store: &Store) -> Value {
    let versions: Vec<Value> =
        discovery::resources(store, "", "v1").map(|list| version_entry(&list, "", "v1")).into_iter().collect();
    list(vec![json!({"metadata": {"creationTimestamp": null}, "versions": versions})])
}

/// `/apis`: every named group the lab serves, the metrics API among them while it answers.
pub fn groups(store: &Store) -> Value {
    let mut items = Vec::new();
    for group in discovery::groups(store)["groups"].as_array().into_iter().flatten() {
        let name = group["name"].as_str().unwrap_or_default();
        let version = group["preferredVersion"]["version"].as_str().unwrap_or_default();
        if let Some(list) = discovery::resources(store, name, version) {
            items.push(group_entry(name, version_entry(&list, name, version)));
        }
    }
    if metrics::listed(store) {
        let list_of_metrics = metrics::resources();
        items.push(group_entry(metrics::GROUP, version_entry(&list_of_metrics, metrics::GROUP, metrics::VERSION)));
    }
    list(items)
}

fn list(items: Vec<Value>) -> Value {
    json!({"kind": "APIGroupDiscoveryList", "apiVersion": "apidiscovery.k8s.io/v2", "metadata": {}, "items": items})
}

fn group_entry(name: &str, version: Value) -> Value {
    json!({"metadata": {"name": name, "creationTimestamp": null}, "versions": [version]})
}

/// One version's resources, each with its subresources under it.
fn version_entry(legacy: &Value, group: &str, version: &str) -> Value {
    let entries = legacy["resources"].as_array().cloned().unwrap_or_default();
    let mut resources: Vec<Value> = Vec::new();
    for entry in &entries {
        let name = entry["name"].as_str().unwrap_or_default();
        match name.split_once('/') {
            None => resources.push(resource(entry, group, version)),
            Some((parent, sub)) => {
                if let Some(owner) = resources.iter_mut().find(|r| r["resource"] == parent) {
                    let subresource = subresource(entry, sub, group, version);
                    if let Some(subs) = owner["subresources"].as_array_mut() {
                        subs.push(subresource);
                    } else {
                        owner["subresources"] = json!([subresource]);
                    }
                }
            }
        }
    }
    json!({"version": version, "resources": resources, "freshness": "Current"})
}

fn response_kind(entry: &Value, group: &str, version: &str) -> Value {
    json!({
        "group": entry["group"].as_str().unwrap_or(group),
        "version": entry["version"].as_str().unwrap_or(version),
        "kind": entry["kind"],
    })
}

fn resource(entry: &Value, group: &str, version: &str) -> Value {
    let scope = if entry["namespaced"] == true { "Namespaced" } else { "Cluster" };
    let mut resource = json!({
        "resource": entry["name"],
        "responseKind": response_kind(entry, group, version),
        "scope": scope,
        "singularResource": entry["singularName"],
        "verbs": entry["verbs"],
    });
    for field in ["shortNames", "categories"] {
        if entry.get(field).is_some() {
            resource[field] = entry[field].clone();
        }
    }
    resource
}

fn subresource(entry: &Value, name: &str, group: &str, version: &str) -> Value {
    json!({"subresource": name, "responseKind": response_kind(entry, group, version), "verbs": entry["verbs"]})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::ClusterSpec;
    use crate::sim::Sim;

    #[test]
    fn every_group_comes_in_one_document_with_subresources_under_their_resource() {
        let sim = Sim::new(1, &ClusterSpec::default());
        let apis = groups(sim.store());
        let apps = apis["items"].as_array().unwrap().iter().find(|g| g["metadata"]["name"] == "apps").unwrap();
        let deployments = apps["versions"][0]["resources"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["resource"] == "deployments")
            .unwrap();
        assert_eq!(deployments["scope"], "Namespaced");
        assert_eq!(deployments["shortNames"], json!(["deploy"]));
        let scale =
            deployments["subresources"].as_array().unwrap().iter().find(|s| s["subresource"] == "scale").unwrap();
        assert_eq!(scale["responseKind"], json!({"group": "autoscaling", "version": "v1", "kind": "Scale"}));
        let core = core(sim.store());
        let pods =
            core["items"][0]["versions"][0]["resources"].as_array().unwrap().iter().find(|r| r["resource"] == "pods");
        assert_eq!(pods.unwrap()["responseKind"]["kind"], "Pod");
        assert!(wanted("application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json"));
        assert!(!wanted("application/json, */*"));
    }
}
