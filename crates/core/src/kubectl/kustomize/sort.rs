//! The order `kubectl kustomize` prints in (builtins/SortOrderTransformer.go): with no
//! `sortOptions` and no `--reorder`, krusty applies the legacy order — Namespaces first,
//! webhooks last, kinds in between by a fixed list then by group/version/kind, and objects
//! of one kind by namespace and name. `sortOptions: {order: fifo}` keeps the input order.

use super::Resource;
use serde_json::Value;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    Legacy,
    Fifo,
}

/// defaultOrderFirst ("DO NOT CHANGE!").
const ORDER_FIRST: [&str; 22] = [
    "Namespace",
    "ResourceQuota",
    "StorageClass",
    "CustomResourceDefinition",
    "ServiceAccount",
    "PodSecurityPolicy",
    "Role",
    "ClusterRole",
    "RoleBinding",
    "ClusterRoleBinding",
    "ConfigMap",
    "Secret",
    "Endpoints",
    "Service",
    "LimitRange",
    "PriorityClass",
    "PersistentVolume",
    "PersistentVolumeClaim",
    "Deployment",
    "StatefulSet",
    "CronJob",
    "PodDisruptionBudget",
];

/// defaultOrderLast.
const ORDER_LAST: [&str; 2] = ["MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"];

pub fn legacy(resources: &mut [Resource]) {
    resources.sort_by(|a, b| {
        let (ga, gb) = (gvk(a), gvk(b));
        if ga != gb {
            return gvk_order(&ga, &gb);
        }
        id_string(a).cmp(&id_string(b))
    });
}

/// (group, version, kind) from the object.
fn gvk(resource: &Resource) -> (String, String, String) {
    let api_version = resource.object.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
    (group.to_string(), version.to_string(), resource.kind().to_string())
}

/// typeOrders: the first list counts up to -1, the last list from 1, every other kind is 0.
fn type_order(kind: &str) -> i64 {
    if let Some(i) = ORDER_FIRST.iter().position(|k| *k == kind) {
        return i as i64 - ORDER_FIRST.len() as i64;
    }
    ORDER_LAST.iter().position(|k| *k == kind).map_or(0, |i| i as i64 + 1)
}

/// gvkLessThan.
fn gvk_order(a: &(String, String, String), b: &(String, String, String)) -> std::cmp::Ordering {
    let (ia, ib) = (type_order(&a.2), type_order(&b.2));
    if ia != ib {
        return ia.cmp(&ib);
    }
    if a.2 == "Namespace" && b.2 == "Namespace" && (a.0.is_empty() || b.0.is_empty()) {
        return gvk_string(b).cmp(&gvk_string(a));
    }
    gvk_string(a).cmp(&gvk_string(b))
}

/// legacyGVKSortString: `group_version_kind` with `~G`, `~V`, `~K` for missing parts.
fn gvk_string((group, version, kind): &(String, String, String)) -> String {
    let or = |s: &str, missing: &str| if s.is_empty() { missing.to_string() } else { s.to_string() };
    format!("{}_{}_{}", or(group, "~G"), or(version, "~V"), or(kind, "~K"))
}

/// legacyResIDSortString: `gvk|namespace|name` with `~X` and `~N` for missing parts.
fn id_string(resource: &Resource) -> String {
    let namespace = if resource.namespace().is_empty() { "~X" } else { resource.namespace() };
    let name = if resource.name().is_empty() { "~N" } else { resource.name() };
    format!("{}|{namespace}|{name}", gvk_string(&gvk(resource)))
}
