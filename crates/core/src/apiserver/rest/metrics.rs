//! The resource metrics API (`metrics.k8s.io/v1beta1`) that `kubectl top` and the HPA read,
//! served as metrics-server serves it: PodMetrics (each container's CPU and memory) and
//! NodeMetrics, from the same workload model `kubectl top` prints. Mirrors
//! sigs.k8s.io/metrics-server's API and k8s.io/metrics/pkg/apis/metrics/v1beta1.

use super::HttpResponse;
use super::path::ResourcePath;
use super::query::Query;
use crate::api::labels::Selector;
use crate::api::{Node, Pod};
use crate::error::ApiError;
use crate::kubectl::top::{node_metrics, pod_metrics};
use crate::metrics::api_service::resource_metrics_api;
use crate::sim::Sim;
use serde_json::{Value, json};

pub const GROUP: &str = "metrics.k8s.io";
pub const VERSION: &str = "v1beta1";
/// The window metrics-server averages usage over (its default resolution).
const WINDOW: &str = "15s";

/// Whether discovery lists the group: only while metrics-server can answer (the aggregator
/// leaves an unavailable APIService out of the aggregated document).
pub fn listed(store: &crate::store::Store) -> bool {
    resource_metrics_api(store).is_ok()
}

/// The answer to any request under `/apis/metrics.k8s.io` while metrics-server cannot serve it:
/// the mux's 404 with no APIService, the aggregator's 503 with one but no ready endpoint.
pub fn unavailable_answer(store: &crate::store::Store) -> Option<HttpResponse> {
    let unavailable = resource_metrics_api(store).err()?;
    let (reason, message) = unavailable.reason_and_message();
    let status = json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                        "message": message, "reason": reason, "details": {}, "code": unavailable.code()});
    Some(HttpResponse::json(unavailable.code(), &status))
}

/// `/apis/metrics.k8s.io`'s entry in `/apis`.
pub fn group() -> Value {
    let gv = json!({"groupVersion": format!("{GROUP}/{VERSION}"), "version": VERSION});
    json!({"name": GROUP, "versions": [gv.clone()], "preferredVersion": gv})
}

/// `/apis/metrics.k8s.io/v1beta1`.
pub fn resources() -> Value {
    let resource = |name: &str, kind: &str, namespaced: bool| json!({"name": name, "singularName": "", "namespaced": namespaced, "kind": kind, "verbs": ["get", "list"]});
    json!({
        "kind": "APIResourceList", "apiVersion": "v1", "groupVersion": format!("{GROUP}/{VERSION}"),
        "resources": [resource("nodes", "NodeMetrics", false), resource("pods", "PodMetrics", true)],
    })
}

fn metadata(name: &str, namespace: Option<&str>, labels: &Value, sim: &Sim) -> Value {
    let mut meta = json!({"name": name, "creationTimestamp": sim.now().to_rfc3339(), "labels": labels});
    if let Some(namespace) = namespace {
        meta["namespace"] = json!(namespace);
    }
    meta
}

fn usage(millicores: u64, bytes: u64) -> Value {
    json!({"cpu": format!("{millicores}m"), "memory": format!("{}Ki", bytes / 1024)})
}

fn pod_json(sim: &Sim, pod: &Pod) -> Option<Value> {
    let containers: Vec<Value> = pod_metrics(sim, pod)?
        .into_iter()
        .map(|(name, millicores, bytes)| json!({"name": name, "usage": usage(millicores, bytes)}))
        .collect();
    let labels = serde_json::to_value(&pod.metadata.labels).unwrap_or(Value::Null);
    let meta = metadata(&pod.metadata.name, Some(&pod.metadata.namespace), &labels, sim);
    Some(json!({"metadata": meta, "timestamp": sim.now().to_rfc3339(), "window": WINDOW, "containers": containers}))
}

fn node_json(sim: &Sim, node: &Node) -> Option<Value> {
    let (millicores, bytes) = node_metrics(sim, node)?;
    let labels = serde_json::to_value(&node.metadata.labels).unwrap_or(Value::Null);
    let meta = metadata(&node.metadata.name, None, &labels, sim);
    Some(
        json!({"metadata": meta, "timestamp": sim.now().to_rfc3339(), "window": WINDOW, "usage": usage(millicores, bytes)}),
    )
}

/// `GET …/pods`, `…/namespaces/<ns>/pods[/<name>]`, `…/nodes[/<name>]`.
pub fn serve(sim: &Sim, path: &ResourcePath, query: &Query) -> Result<HttpResponse, ApiError> {
    let selector = Selector::parse(query.get("labelSelector").unwrap_or(""))
        .map_err(|e| ApiError::BadRequest { message: e.to_string() })?;
    let (kind, items): (&str, Vec<Value>) = match path.resource.as_str() {
        "pods" => {
            let namespace = (!path.namespace.is_empty()).then_some(path.namespace.as_str());
            let pods = sim.store().list::<Pod>(namespace);
            let picked = pods.filter(|p| selector.matches(&p.metadata.labels) && named(path, &p.metadata.name));
            ("PodMetrics", picked.filter_map(|p| pod_json(sim, p)).collect())
        }
        "nodes" => {
            let nodes = sim.store().list::<Node>(None);
            let picked = nodes.filter(|n| selector.matches(&n.metadata.labels) && named(path, &n.metadata.name));
            ("NodeMetrics", picked.filter_map(|n| node_json(sim, n)).collect())
        }
        _ => return Err(ApiError::NotServed),
    };
    let api_version = format!("{GROUP}/{VERSION}");
    if !path.name.is_empty() {
        let plural = format!("{}.{GROUP}", kind.to_lowercase());
        let mut item = items.into_iter().next().ok_or_else(|| ApiError::not_found(plural, path.name.clone()))?;
        item["kind"] = json!(kind);
        item["apiVersion"] = json!(api_version);
        return Ok(HttpResponse::json(200, &item));
    }
    let list = json!({"kind": format!("{kind}List"), "apiVersion": api_version, "metadata": {}, "items": items});
    Ok(HttpResponse::json(200, &list))
}

fn named(path: &ResourcePath, name: &str) -> bool {
    path.name.is_empty() || path.name == name
}
