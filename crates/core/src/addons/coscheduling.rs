//! `coscheduling`: the PodGroup CustomResourceDefinition of kubernetes-sigs/scheduler-plugins
//! (`manifests/coscheduling/crd.yaml`), which gang scheduling is built on: pods labelled
//! `scheduling.x-k8s.io/pod-group: NAME` belong to the PodGroup NAME, whose `minMember` of them
//! must fit before any is bound. Installing it is installing scheduler-plugins as the cluster's
//! scheduler: the scheduler's Coscheduling plugin (`scheduler/plugins/coscheduling.rs`) acts on
//! labelled pods while PodGroups are served.

use super::Addon;
use crate::api::custom_resource_definition::{
    CustomResourceDefinitionNames, CustomResourceDefinitionSpec, CustomResourceDefinitionVersion,
};
use crate::api::{CustomResourceDefinition, Kind, Object, ObjectMeta};
use serde_json::json;

pub const ADDON: Addon = Addon {
    name: "coscheduling",
    description: "gang scheduling: the PodGroup CRD (scheduling.x-k8s.io/v1alpha1) and the Coscheduling plugin of kubernetes-sigs/scheduler-plugins",
    objects,
};

fn objects() -> Vec<Object> {
    let mut objects = vec![Object::CustomResourceDefinition(pod_group_crd())];
    objects.extend(controller_rbac());
    objects
}

/// The controller's ClusterRole and its binding (manifests/coscheduling/cluster-role.yaml and
/// rbac.yaml, cut to the PodGroup status it writes and the pods it reads), for the service
/// account the lab runs it as (`controllers/registry.rs`).
fn controller_rbac() -> Vec<Object> {
    let role = json!({
        "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
        "metadata": {"name": "scheduler-plugins-controller"},
        "rules": [
            {"apiGroups": [""], "resources": ["pods"], "verbs": ["get", "list", "watch"]},
            {"apiGroups": [""], "resources": ["events"], "verbs": ["create", "patch", "update"]},
            {"apiGroups": ["scheduling.x-k8s.io"], "resources": ["podgroups", "elasticquotas"],
             "verbs": ["get", "list", "watch", "create", "delete", "update", "patch"]},
            {"apiGroups": ["scheduling.x-k8s.io"], "resources": ["podgroups/status", "elasticquotas/status"],
             "verbs": ["get", "update", "patch"]},
        ],
    });
    let binding = json!({
        "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding",
        "metadata": {"name": "scheduler-plugins-controller"},
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "scheduler-plugins-controller"},
        "subjects": [{"kind": "ServiceAccount", "name": "scheduler-plugins-controller", "namespace": "kube-system"}],
    });
    [role, binding].into_iter().filter_map(|value| crate::api::codec::decode(value).ok()).collect()
}

/// The CRD as scheduler-plugins ships it: names, scope, one served version with its schema,
/// printer columns and status subresource.
fn pod_group_crd() -> CustomResourceDefinition {
    let info = Kind::PodGroup.info();
    let mut metadata = ObjectMeta::named("", &info.plural_qualified());
    metadata
        .annotations
        .insert("api-approved.kubernetes.io", "https://github.com/kubernetes-sigs/scheduler-plugins/pull/50");
    let names = CustomResourceDefinitionNames {
        plural: info.plural.to_string(),
        singular: Some(info.singular.to_string()),
        short_names: info.short_names.iter().map(|s| s.to_string()).collect(),
        kind: info.kind_name.to_string(),
        list_kind: Some(format!("{}List", info.kind_name)),
        categories: Vec::new(),
    };
    let column = |name: &str, type_: &str, path: &str, description: &str| json!({"name": name, "type": type_, "jsonPath": path, "description": description});
    let version = CustomResourceDefinitionVersion {
        name: info.version.to_string(),
        served: true,
        storage: true,
        schema: Some(json!({"openAPIV3Schema": schema()})),
        subresources: Some(json!({"status": {}})),
        additional_printer_columns: vec![
            column("Phase", "string", ".status.phase", "Current phase of PodGroup."),
            column(
                "MinMember",
                "integer",
                ".spec.minMember",
                "MinMember defines the minimal number of members/tasks to run the pod group.",
            ),
            column("Running", "integer", ".status.running", "The number of actively running pods."),
            column("Succeeded", "integer", ".status.succeeded", "The number of pods which reached phase Succeeded."),
            column("Failed", "integer", ".status.failed", "The number of pods which reached phase Failed."),
            column("Age", "date", ".metadata.creationTimestamp", "Age is the time PodGroup was created."),
        ],
        ..Default::default()
    };
    CustomResourceDefinition {
        metadata,
        spec: CustomResourceDefinitionSpec {
            group: info.group.to_string(),
            names,
            scope: "Namespaced".to_string(),
            versions: vec![version],
            ..Default::default()
        },
        ..Default::default()
    }
}

/// The version's structural schema (descriptions left out).
fn schema() -> serde_json::Value {
    let int32 = json!({"type": "integer", "format": "int32"});
    json!({
        "type": "object",
        "properties": {
            "apiVersion": {"type": "string"},
            "kind": {"type": "string"},
            "metadata": {"type": "object"},
            "spec": {"type": "object", "properties": {
                "minMember": {"type": "integer", "format": "int32", "minimum": 1},
                "minResources": {"type": "object", "additionalProperties": {
                    "anyOf": [{"type": "integer"}, {"type": "string"}],
                    "pattern": "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$",
                    "x-kubernetes-int-or-string": true,
                }},
                "scheduleTimeoutSeconds": int32,
            }},
            "status": {"type": "object", "properties": {
                "failed": int32,
                "occupiedBy": {"type": "string"},
                "phase": {"type": "string"},
                "running": int32,
                "scheduleStartTime": {"type": "string", "format": "date-time"},
                "succeeded": int32,
            }},
        },
    })
}
