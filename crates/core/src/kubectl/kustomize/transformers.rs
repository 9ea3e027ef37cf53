//! The renaming and counting transformers: `namespace` (builtins/NamespaceTransformer),
//! `namePrefix` and `nameSuffix` (PrefixTransformer, SuffixTransformer — each rename is
//! remembered so references can follow it), and `replicas` (ReplicaCountTransformer).

use super::Resource;
use super::field_spec::{self, FieldSpec};
use super::kustomization::Replica;
use crate::api::Kind;
use serde_json::{Value, json};

/// Kinds that never get a prefix or suffix (PrefixTransformer's `prefixFieldSpecsToSkip`).
const NEVER_RENAMED: [&str; 3] = ["CustomResourceDefinition", "APIService", "Namespace"];

/// replicas.go: where a count goes.
const REPLICAS: &[FieldSpec] = &[
    FieldSpec::kind("Deployment", "spec/replicas", true),
    FieldSpec::kind("ReplicationController", "spec/replicas", true),
    FieldSpec::kind("ReplicaSet", "spec/replicas", true),
    FieldSpec::kind("StatefulSet", "spec/replicas", true),
];

/// `namespace:` on every namespaced object (filters/namespace): a `v1` Namespace object is
/// renamed to it (the `metadata/name` field spec of namespace.go), and RoleBinding and
/// ClusterRoleBinding subjects named `default` move to it (`roleBindingHack`).
pub fn namespace(namespace: &str, resources: &mut [Resource]) {
    if namespace.is_empty() {
        return;
    }
    for resource in resources.iter_mut() {
        if is_namespaced(resource.kind()) {
            field_spec::set(&mut resource.object, &["metadata", "namespace"], json!(namespace));
        }
        let api_version = resource.object.get("apiVersion").and_then(Value::as_str);
        if resource.kind() == "Namespace" && api_version == Some("v1") {
            resource.rename(namespace.to_string());
        }
        if matches!(resource.kind(), "RoleBinding" | "ClusterRoleBinding") {
            let subjects = resource.object.pointer_mut("/subjects").and_then(Value::as_array_mut);
            for subject in subjects.into_iter().flatten().filter_map(Value::as_object_mut) {
                if subject.get("name").and_then(Value::as_str) == Some("default") {
                    subject.insert("namespace".into(), json!(namespace));
                }
            }
        }
    }
}

/// Cluster-scoped kinds keep no namespace; a kind the lab does not know is taken as namespaced.
pub fn is_namespaced(kind: &str) -> bool {
    const CLUSTER_SCOPED: [&str; 6] = [
        "Namespace",
        "CustomResourceDefinition",
        "APIService",
        "MutatingWebhookConfiguration",
        "ValidatingWebhookConfiguration",
        "ComponentStatus",
    ];
    if CLUSTER_SCOPED.contains(&kind) {
        return false;
    }
    Kind::from_kind_name(kind).is_none_or(|k| k.info().namespaced)
}

/// `namePrefix:` and `nameSuffix:` on every object's name.
pub fn prefix_suffix(prefix: &str, suffix: &str, resources: &mut [Resource]) {
    if prefix.is_empty() && suffix.is_empty() {
        return;
    }
    for resource in resources.iter_mut().filter(|r| !NEVER_RENAMED.contains(&r.kind())) {
        if !prefix.is_empty() {
            resource.rename(format!("{prefix}{}", resource.name()));
        }
        if !suffix.is_empty() {
            resource.rename(format!("{}{suffix}", resource.name()));
        }
    }
}

/// `replicas:`: the count for the workloads that answer to each name.
pub fn replicas(replicas: &[Replica], resources: &mut [Resource]) {
    for replica in replicas {
        for resource in resources.iter_mut().filter(|r| r.answers_to(&replica.name)) {
            for spec in REPLICAS {
                spec.visit(resource, &mut |leaf| *leaf = json!(replica.count));
            }
        }
    }
}
