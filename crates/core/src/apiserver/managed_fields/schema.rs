//! What the OpenAPI schema's `x-kubernetes-list-type`, `-list-map-keys`, `-map-type` and
//! struct pointers say about a field, judged by its name, for the kinds a lab serves (the
//! markers in k8s.io/api's types.go: `+listType=map`, `+listMapKey=name`, `+mapType=atomic`).

use serde_json::Value;

/// How a list's elements are owned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListType {
    /// `listType=map`: elements by their key fields (`k:{"name":"web"}`).
    Map(&'static [&'static str]),
    /// `listType=set`: elements by value (`v:"a"`).
    Set,
    /// `listType=atomic` (the default): the list as one value.
    Atomic,
}

/// The list type of field `name`, whose elements are `items`.
pub fn list_type(name: &str, items: &[Value]) -> ListType {
    match name {
        "containers"
        | "initContainers"
        | "ephemeralContainers"
        | "volumes"
        | "env"
        | "imagePullSecrets"
        | "resourceClaims"
        | "listeners" => ListType::Map(&["name"]),
        "conditions" => ListType::Map(&["type"]),
        "volumeMounts" => ListType::Map(&["mountPath"]),
        "volumeDevices" => ListType::Map(&["devicePath"]),
        "ownerReferences" => ListType::Map(&["uid"]),
        "hostAliases" => ListType::Map(&["ip"]),
        "topologySpreadConstraints" => ListType::Map(&["topologyKey", "whenUnsatisfiable"]),
        "ports" if items.iter().any(|i| i.get("containerPort").is_some()) => {
            ListType::Map(&["containerPort", "protocol"])
        }
        "ports" if items.iter().all(|i| i.get("port").is_some()) => ListType::Map(&["port", "protocol"]),
        "finalizers" => ListType::Set,
        _ => ListType::Atomic,
    }
}

/// A key field's default when an element leaves it out (ports' `protocol: TCP`).
pub fn key_default(key: &str) -> Option<Value> {
    (key == "protocol").then(|| Value::String("TCP".into()))
}

/// Maps and structs owned as one value (`+mapType=atomic`, `+structType=atomic`): label
/// selectors, Service and node selectors, node affinity's selector.
pub fn is_atomic_map(name: &str) -> bool {
    matches!(
        name,
        "selector"
            | "labelSelector"
            | "namespaceSelector"
            | "nodeSelector"
            | "requiredDuringSchedulingIgnoredDuringExecution"
    )
}

/// Fields the typed zero value holds already (non-pointer structs, lists without omitempty
/// such as `containers`): an empty object holds them, so creating one
/// adds no `.` of its own (upstream compares against the typed zero value).
pub fn is_always_present(name: &str) -> bool {
    matches!(
        name,
        "metadata"
            | "spec"
            | "status"
            | "template"
            | "strategy"
            | "updateStrategy"
            | "resources"
            | "jobTemplate"
            | "containers"
    )
}
