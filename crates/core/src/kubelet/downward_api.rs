//! What the downward API exposes of a pod and its containers (`fieldRef`, `resourceFieldRef`),
//! for env vars and downwardAPI volumes alike: mirrors pkg/fieldpath `ExtractFieldPathAsString`
//! and pkg/api/v1/resource `ExtractContainerResourceValue`, with the kubelet's
//! `defaultPodLimitsForDownwardAPI` (an unset limit reads as the node's allocatable).

use crate::api::container::{Container, ResourceFieldSelector};
use crate::api::quantity::Quantity;
use crate::api::{Node, Pod};

/// Where the pod runs, which its status may not say yet when a container starts.
pub struct PodPlace<'a> {
    pub node: Option<&'a Node>,
    pub pod_ip: &'a str,
    pub host_ip: &'a str,
}

/// A `fieldRef`'s value, or upstream's error for a path it does not support.
pub fn field_value(pod: &Pod, path: &str, place: &PodPlace) -> Result<String, String> {
    let meta = &pod.metadata;
    if let Some(key) = subscript(path, "metadata.labels") {
        return Ok(meta.labels.get(key).unwrap_or_default().to_string());
    }
    if let Some(key) = subscript(path, "metadata.annotations") {
        return Ok(meta.annotations.get(key).unwrap_or_default().to_string());
    }
    Ok(match path {
        "metadata.name" => meta.name.clone(),
        "metadata.namespace" => meta.namespace.clone(),
        "metadata.uid" => meta.uid.to_string(),
        "metadata.labels" => format_map(meta.labels.iter()),
        "metadata.annotations" => format_map(meta.annotations.iter()),
        "spec.nodeName" => pod.spec.node_name.clone().unwrap_or_default(),
        "spec.serviceAccountName" => pod.spec.service_account_name.clone().unwrap_or_default(),
        "status.hostIP" | "status.hostIPs" => place.host_ip.to_string(),
        "status.podIP" | "status.podIPs" => place.pod_ip.to_string(),
        _ => return Err(format!("unsupported fieldPath: {path}")),
    })
}

/// `metadata.labels['app']` → `app`.
fn subscript<'a>(path: &'a str, field: &str) -> Option<&'a str> {
    let rest = path.strip_prefix(field)?.strip_prefix("['")?;
    rest.strip_suffix("']")
}

/// pkg/fieldpath `FormatMap`: `key="value"` lines sorted by key, without a final newline.
fn format_map<'a>(entries: impl Iterator<Item = (&'a str, &'a str)>) -> String {
    let lines: Vec<String> = entries.map(|(k, v)| format!("{k}={v:?}")).collect();
    lines.join("\n")
}

/// A `resourceFieldRef`'s value for `container` (or the one it names), divided by its divisor
/// and rounded up as upstream's `convertResourceCPUToString`/`convertResourceMemoryToString`.
pub fn resource_value(
    pod: &Pod,
    container: &Container,
    selector: &ResourceFieldSelector,
    place: &PodPlace,
) -> Result<String, String> {
    let named = selector.container_name.as_deref().filter(|n| !n.is_empty());
    let container = match named {
        Some(name) => pod.container(name).ok_or_else(|| format!("container {name} not found"))?,
        None => container,
    };
    let (bucket, resource) = selector.resource.split_once('.').unwrap_or(("", ""));
    let list = match bucket {
        "limits" => &container.resources.limits,
        "requests" => &container.resources.requests,
        _ => return Err(format!("unsupported container resource : {}", selector.resource)),
    };
    let allocatable = place.node.and_then(|n| n.status.allocatable.get(resource));
    let quantity = match (list.get(resource), bucket) {
        (Some(q), _) => *q,
        (None, "limits") => allocatable.copied().unwrap_or_else(Quantity::zero),
        (None, _) => Quantity::zero(),
    };
    let one = Quantity::from_int(1, crate::api::quantity::Format::DecimalSI);
    let divisor = selector.divisor.filter(|d| !d.is_zero()).unwrap_or(one);
    let (value, by) = match resource {
        "cpu" => (quantity.milli_value(), divisor.milli_value()),
        "memory" | "ephemeral-storage" => (quantity.value(), divisor.value()),
        _ => return Err(format!("unsupported container resource : {}", selector.resource)),
    };
    Ok(ceil_div(value, by.max(1)).to_string())
}

/// `math.Ceil(float64(a) / float64(b))` for non-negative integers, without floats.
fn ceil_div(a: i64, b: i64) -> i64 {
    if a <= 0 { a / b } else { (a + b - 1) / b }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod() -> Pod {
        let yaml = "metadata:\n  name: web\n  namespace: shop\n  labels: {app: web, tier: front}\nspec:\n  nodeName: node-1\n  containers:\n  - name: app\n    image: hello:v1\n    resources:\n      limits: {memory: 64Mi}\n      requests: {cpu: 250m}\n";
        serde_yaml::from_str(yaml).unwrap()
    }

    fn place() -> PodPlace<'static> {
        PodPlace { node: None, pod_ip: "10.244.1.2", host_ip: "10.0.0.10" }
    }

    #[test]
    fn field_paths_read_the_pod_and_where_it_runs() {
        let pod = pod();
        for (path, want) in [
            ("metadata.name", "web"),
            ("metadata.namespace", "shop"),
            ("metadata.labels['tier']", "front"),
            ("metadata.labels['nope']", ""),
            ("metadata.labels", "app=\"web\"\ntier=\"front\""),
            ("spec.nodeName", "node-1"),
            ("status.podIP", "10.244.1.2"),
            ("status.hostIP", "10.0.0.10"),
        ] {
            assert_eq!(field_value(&pod, path, &place()).as_deref(), Ok(want), "{path}");
        }
        assert_eq!(field_value(&pod, "spec.nope", &place()), Err("unsupported fieldPath: spec.nope".into()));
    }

    #[test]
    fn resources_divide_and_round_up() {
        let pod = pod();
        let container = &pod.spec.containers[0];
        let select = |resource: &str, divisor: Option<&str>| ResourceFieldSelector {
            container_name: None,
            resource: resource.into(),
            divisor: divisor.map(|d| Quantity::parse(d).unwrap()),
        };
        for (resource, divisor, want) in [
            ("limits.memory", None, "67108864"),
            ("limits.memory", Some("1Mi"), "64"),
            ("requests.cpu", None, "1"),
            ("requests.cpu", Some("1m"), "250"),
            ("requests.memory", None, "0"),
            ("limits.cpu", None, "0"),
        ] {
            let got = resource_value(&pod, container, &select(resource, divisor), &place());
            assert_eq!(got.as_deref(), Ok(want), "{resource} {divisor:?}");
        }
    }
}
