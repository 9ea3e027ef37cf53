//! Discovery as kube-apiserver serves its legacy form (`/api`, `/api/v1`, `/apis`,
//! `/apis/<group>/<version>`) and `/version`, from the kind table: clients learn from it which
//! resources exist, their scope, verbs, short names and subresources
//! (staging/src/k8s.io/apiserver/pkg/endpoints/discovery).

use crate::api::{Kind, RESOURCES, ResourceInfo};
use crate::store::Store;
use serde_json::{Value, json};

/// `/version`, as kube-apiserver v1.36 answers it.
pub fn version() -> Value {
    use crate::version::*;
    json!({
        "major": MAJOR,
        "minor": MINOR,
        "emulationMajor": MAJOR,
        "emulationMinor": MINOR,
        "minCompatibilityMajor": MAJOR,
        "minCompatibilityMinor": (MINOR.parse::<u32>().unwrap_or(1) - 1).to_string(),
        "gitVersion": KUBERNETES_VERSION,
        "gitCommit": GIT_COMMIT,
        "gitTreeState": "clean",
        "buildDate": BUILD_DATE,
        "goVersion": GO_VERSION,
        "compiler": "gc",
        "platform": "linux/amd64",
    })
}

/// `/api`: the core group's one version.
pub fn core_versions() -> Value {
    json!({
        "kind": "APIVersions",
        "versions": ["v1"],
        "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": "10.0.0.9:6443"}],
    })
}

/// The named groups the lab serves now (a custom resource's group while its CRD is installed).
pub fn served_groups(store: &Store) -> Vec<(&'static str, &'static str)> {
    let mut groups: Vec<(&str, &str)> = RESOURCES
        .iter()
        .filter(|r| !r.group.is_empty() && store.serves(r.kind))
        .map(|r| (r.group, r.version))
        .collect();
    // The review APIs are served always, and store nothing (`reviews.rs`).
    groups.extend(super::reviews::groups());
    // kube-apiserver lists its built-in groups in a fixed order; alphabetical is as stable.
    groups.sort();
    groups.dedup();
    groups
}

fn group_json(group: &str, version: &str) -> Value {
    let gv = json!({"groupVersion": format!("{group}/{version}"), "version": version});
    json!({"name": group, "versions": [gv.clone()], "preferredVersion": gv})
}

/// `/apis`.
pub fn groups(store: &Store) -> Value {
    let groups: Vec<Value> = served_groups(store).into_iter().map(|(g, v)| group_json(g, v)).collect();
    json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": groups})
}

/// `/apis/<group>`, `None` when the lab does not serve it.
pub fn group(store: &Store, name: &str) -> Option<Value> {
    let (group, version) = served_groups(store).into_iter().find(|(g, _)| *g == name)?;
    let mut value = group_json(group, version);
    value["kind"] = json!("APIGroup");
    value["apiVersion"] = json!("v1");
    Some(value)
}

/// `/api/v1` or `/apis/<group>/<version>`: each resource and its subresources, `None` when the
/// lab serves nothing there.
pub fn resources(store: &Store, group: &str, version: &str) -> Option<Value> {
    if let Some(rows) = super::reviews::resources(group, version) {
        let group_version = format!("{group}/{version}");
        return Some(
            json!({"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": group_version, "resources": rows}),
        );
    }
    let mut served: Vec<&ResourceInfo> =
        RESOURCES.iter().filter(|r| r.group == group && r.version == version && store.serves(r.kind)).collect();
    if served.is_empty() {
        return None;
    }
    served.sort_by_key(|r| r.plural);
    let mut list = Vec::new();
    for r in served {
        list.push(resource_json(store, r));
        for (sub, kind, verbs) in subresources(r.kind) {
            list.push(json!({
                "name": format!("{}/{sub}", r.plural),
                "singularName": r.singular,
                "namespaced": r.namespaced,
                "kind": kind.unwrap_or(r.kind_name),
                "verbs": verbs,
            }));
            // A subresource served as another group's kind names that group (upstream's
            // `GroupVersionKindProvider`): kubectl drain finds policy/v1 Evictions here, and
            // without it falls back to deleting pods.
            if let Some((group, version)) = subresource_group_version(sub) {
                let last = list.len() - 1;
                list[last]["group"] = json!(group);
                list[last]["version"] = json!(version);
            }
        }
    }
    let group_version = if group.is_empty() { version.to_string() } else { format!("{group}/{version}") };
    Some(json!({"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": group_version, "resources": list}))
}

/// The group and version of the kind a subresource serves, where it is not its resource's own.
fn subresource_group_version(sub: &str) -> Option<(&'static str, &'static str)> {
    match sub {
        "scale" => Some(("autoscaling", "v1")),
        "eviction" => Some(("policy", "v1")),
        _ => None,
    }
}

fn resource_json(store: &Store, r: &ResourceInfo) -> Value {
    let mut value = json!({
        "name": r.plural,
        "singularName": r.singular,
        "namespaced": r.namespaced,
        "kind": r.kind_name,
        "verbs": verbs(r.kind),
    });
    if !r.short_names.is_empty() {
        value["shortNames"] = json!(r.short_names);
    }
    let categories = categories(store, r.kind);
    if !categories.is_empty() {
        value["categories"] = json!(categories);
    }
    value
}

/// The verbs a resource serves (namespaces have no deletecollection; events and the rest do).
pub fn verbs(kind: Kind) -> Vec<&'static str> {
    let mut verbs = vec!["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"];
    if kind == Kind::Namespace {
        verbs.retain(|v| *v != "deletecollection");
    }
    verbs
}

/// Whether the kind is in the `all` category (`kubectl get all`): the workloads and Services
/// (each registry's `Categories()`; ReplicationControllers too, which the lab does not serve).
pub fn in_category_all(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::Pod
            | Kind::Service
            | Kind::DaemonSet
            | Kind::Deployment
            | Kind::ReplicaSet
            | Kind::StatefulSet
            | Kind::HorizontalPodAutoscaler
            | Kind::CronJob
            | Kind::Job
    )
}

/// The categories discovery lists for a kind: `all`, `api-extensions` (CRDs and APIServices),
/// or what a custom resource's CRD names (`gateway-api`).
pub fn categories(store: &Store, kind: Kind) -> Vec<String> {
    let info = kind.info();
    if info.custom {
        let crd = format!("{}.{}", info.plural, info.group);
        let found = store.try_get::<crate::api::CustomResourceDefinition>("", &crd);
        return found.map(|crd| crd.spec.names.categories.clone()).unwrap_or_default();
    }
    match kind {
        Kind::CustomResourceDefinition | Kind::ApiService => vec!["api-extensions".into()],
        kind if in_category_all(kind) => vec!["all".into()],
        _ => Vec::new(),
    }
}

/// The kinds a category names, in the order kubectl's discovery-based expander finds them:
/// the core group first, then the groups by name, each group's resources by plural.
pub fn category_kinds(store: &Store, category: &str) -> Vec<Kind> {
    let mut kinds: Vec<&ResourceInfo> = RESOURCES
        .iter()
        .filter(|r| store.serves(r.kind) && categories(store, r.kind).iter().any(|c| c == category))
        .collect();
    kinds.sort_by_key(|r| (!r.group.is_empty(), r.group, r.plural));
    kinds.into_iter().map(|r| r.kind).collect()
}

type Subresource = (&'static str, Option<&'static str>, &'static [&'static str]);

const STATUS: Subresource = ("status", None, &["get", "patch", "update"]);

/// A kind's subresources as upstream registers them: name, the kind served there when it is
/// not the parent's, and verbs.
pub fn subresources(kind: Kind) -> Vec<Subresource> {
    use Kind::*;
    match kind {
        Pod => vec![
            ("attach", Some("PodAttachOptions"), &["create", "get"]),
            ("binding", Some("Binding"), &["create"]),
            ("ephemeralcontainers", None, &["get", "patch", "update"]),
            ("eviction", Some("Eviction"), &["create"]),
            ("exec", Some("PodExecOptions"), &["create", "get"]),
            ("log", None, &["get"]),
            ("portforward", Some("PodPortForwardOptions"), &["create", "get"]),
            STATUS,
        ],
        Deployment | ReplicaSet | StatefulSet => vec![("scale", Some("Scale"), &["get", "patch", "update"]), STATUS],
        Namespace => vec![("finalize", None, &["update"]), STATUS],
        ServiceAccount => vec![("token", Some("TokenRequest"), &["create"])],
        Node
        | Service
        | HorizontalPodAutoscaler
        | CustomResourceDefinition
        | Ingress
        | GatewayClass
        | Gateway
        | HttpRoute
        | PodGroup
        | PodDisruptionBudget
        | DaemonSet
        | ResourceClaim => vec![STATUS],
        _ => vec![],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Sim;

    #[test]
    fn apps_v1_lists_deployments_with_scale_and_status() {
        let sim = Sim::new(1, &crate::cluster::ClusterSpec::default());
        let list = resources(sim.store(), "apps", "v1").expect("apps/v1 is served");
        let names: Vec<&str> =
            list["resources"].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
        assert_eq!(
            names,
            [
                "controllerrevisions",
                "daemonsets",
                "daemonsets/status",
                "deployments",
                "deployments/scale",
                "deployments/status",
                "replicasets",
                "replicasets/scale",
                "replicasets/status",
                "statefulsets",
                "statefulsets/scale",
                "statefulsets/status",
            ]
        );
        assert_eq!(list["resources"][4]["group"], "autoscaling", "deployments/scale");
        assert_eq!(list["resources"][3]["shortNames"], json!(["deploy"]));
        assert_eq!(list["resources"][1]["shortNames"], json!(["ds"]));
        assert_eq!(list["resources"][9]["shortNames"], json!(["sts"]));
    }

    #[test]
    fn a_custom_resource_group_is_listed_only_while_its_crd_is_installed() {
        let sim = Sim::new(1, &crate::cluster::ClusterSpec::default());
        let names: Vec<String> =
            groups(sim.store())["groups"].as_array().unwrap().iter().map(|g| g["name"].to_string()).collect();
        assert!(names.contains(&"\"apps\"".to_string()), "{names:?}");
        assert!(!names.iter().any(|n| n.contains("gateway.networking.k8s.io")), "{names:?}");
        assert_eq!(resources(sim.store(), "gateway.networking.k8s.io", "v1"), None);
    }
}
