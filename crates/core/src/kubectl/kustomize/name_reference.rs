//! Name references (builtins' nameReference transformer, run by
//! accumulator.FixBackReferences once names are final): where one object names another — a
//! Deployment's ConfigMap volume, a container's `secretKeyRef`, a StatefulSet's
//! `serviceName` — the name follows the renames (prefix, suffix, content hash) of the object
//! it names. The fields are kustomize's default `nameReference` config
//! (konfig/builtinpluginconsts/namereference.go).

use super::Resource;
use super::field_spec::{FieldSpec, walk};
use super::transformers::is_namespaced;
use serde_json::Value;

/// The kinds whose pod spec sits at a path, and that path (namereference.go repeats each
/// pod-spec field once per kind).
const POD_SPECS: [(&str, &str); 8] = [
    ("Pod", "spec"),
    ("PodTemplate", "template/spec"),
    ("Deployment", "spec/template/spec"),
    ("ReplicaSet", "spec/template/spec"),
    ("DaemonSet", "spec/template/spec"),
    ("StatefulSet", "spec/template/spec"),
    ("Job", "spec/template/spec"),
    ("CronJob", "spec/jobTemplate/spec/template/spec"),
];

const CONFIG_MAP_IN_POD: [&str; 6] = [
    "volumes/configMap/name",
    "containers/env/valueFrom/configMapKeyRef/name",
    "initContainers/env/valueFrom/configMapKeyRef/name",
    "containers/envFrom/configMapRef/name",
    "initContainers/envFrom/configMapRef/name",
    "volumes/projected/sources/configMap/name",
];

const SECRET_IN_POD: [&str; 7] = [
    "volumes/secret/secretName",
    "containers/env/valueFrom/secretKeyRef/name",
    "initContainers/env/valueFrom/secretKeyRef/name",
    "containers/envFrom/secretRef/name",
    "initContainers/envFrom/secretRef/name",
    "imagePullSecrets/name",
    "volumes/projected/sources/secret/name",
];

/// Where a referring object keeps the name: a plain string, or an object whose `kind` must
/// be the referred kind (`roleRef`, `scaleTargetRef`, RBAC `subjects`).
#[derive(Clone, Copy, PartialEq)]
enum Leaf {
    Name,
    KindAndName,
}

/// One `nameReference` field: the referred kind, the referring kind (and group) and the path.
struct Reference {
    kind: &'static str,
    referrer: FieldSpec,
    path: String,
    leaf: Leaf,
}

/// Every (referred kind, referring field) pair the lab follows.
fn references() -> Vec<Reference> {
    let mut found = Vec::new();
    let mut pod_found = Vec::new();
    let mut add = |kind, referrer: FieldSpec, leaf| {
        found.push(Reference { kind, referrer, path: referrer.path.to_string(), leaf });
    };
    let mut add_pod = |kind, referrer: &'static str, prefix: &str, path: &str| {
        let spec = FieldSpec::kind(referrer, "", false);
        pod_found.push(Reference { kind, referrer: spec, path: format!("{prefix}/{path}"), leaf: Leaf::Name });
    };
    for (referrer, prefix) in POD_SPECS {
        for path in CONFIG_MAP_IN_POD {
            add_pod("ConfigMap", referrer, prefix, path);
        }
        for path in SECRET_IN_POD {
            add_pod("Secret", referrer, prefix, path);
        }
        if !matches!(referrer, "PodTemplate" | "ReplicaSet") {
            add_pod("ServiceAccount", referrer, prefix, "serviceAccountName");
            add_pod("PersistentVolumeClaim", referrer, prefix, "volumes/persistentVolumeClaim/claimName");
            add_pod("PriorityClass", referrer, prefix, "priorityClassName");
        }
    }
    add("Secret", FieldSpec::kind("Ingress", "spec/tls/secretName", false), Leaf::Name);
    add("Secret", FieldSpec::kind("ServiceAccount", "imagePullSecrets/name", false), Leaf::Name);
    add("Service", FieldSpec::grouped("apps", "StatefulSet", "spec/serviceName", false), Leaf::Name);
    for path in [
        "spec/rules/http/paths/backend/serviceName",
        "spec/backend/serviceName",
        "spec/rules/http/paths/backend/service/name",
        "spec/defaultBackend/service/name",
    ] {
        add("Service", FieldSpec::kind("Ingress", path, false), Leaf::Name);
    }
    for binding in ["RoleBinding", "ClusterRoleBinding"] {
        add("ServiceAccount", FieldSpec::kind(binding, "subjects", false), Leaf::KindAndName);
        add("ClusterRole", FieldSpec::kind(binding, "roleRef", false), Leaf::KindAndName);
    }
    add("Role", FieldSpec::kind("RoleBinding", "roleRef", false), Leaf::KindAndName);
    for target in ["Deployment", "ReplicationController", "ReplicaSet", "StatefulSet"] {
        add(target, FieldSpec::kind("HorizontalPodAutoscaler", "spec/scaleTargetRef", false), Leaf::KindAndName);
    }
    add("PersistentVolume", FieldSpec::kind("PersistentVolumeClaim", "spec/volumeName", false), Leaf::Name);
    pod_found.extend(found);
    pod_found
}

/// A resource as a possible referral: its kind, namespace and every name it went by.
struct Candidate {
    kind: String,
    namespace: String,
    name: String,
    previous: Vec<String>,
}

/// Rewrites every reference to a renamed object to its final name.
pub fn fix(resources: &mut [Resource]) {
    let candidates: Vec<Candidate> = resources
        .iter()
        .map(|r| Candidate {
            kind: r.kind().to_string(),
            namespace: r.namespace().to_string(),
            name: r.name().to_string(),
            previous: r.previous_names.clone(),
        })
        .collect();
    let references = references();
    for resource in resources.iter_mut() {
        let namespace = resource.namespace().to_string();
        for reference in &references {
            if !reference.referrer.selects(resource) {
                continue;
            }
            let parts: Vec<&str> = reference.path.split('/').collect();
            walk(&mut resource.object, &parts, false, &mut |leaf| {
                rewrite(leaf, reference, &namespace, &candidates);
            });
        }
    }
}

fn rewrite(leaf: &mut Value, reference: &Reference, namespace: &str, candidates: &[Candidate]) {
    if reference.leaf == Leaf::Name {
        let Some(old) = leaf.as_str() else { return };
        if let Some(found) = referral(reference.kind, old, namespace, candidates) {
            *leaf = Value::String(found.name.clone());
        }
        return;
    }
    if leaf.get("kind").and_then(Value::as_str) != Some(reference.kind) {
        return;
    }
    // An RBAC subject names its ServiceAccount's namespace itself, and follows it.
    let namespace = leaf.get("namespace").and_then(Value::as_str).unwrap_or(namespace).to_string();
    let Some(old) = leaf.get("name").and_then(Value::as_str) else { return };
    let Some(found) = referral(reference.kind, old, &namespace, candidates) else { return };
    leaf["name"] = Value::String(found.name.clone());
    if reference.kind == "ServiceAccount" && !found.namespace.is_empty() {
        leaf["namespace"] = Value::String(found.namespace.clone());
    }
}

/// The object of `kind` that went by `old`, in the referrer's namespace when namespaced
/// (nameref.go `selectReferral`); none when it is ambiguous or absent.
fn referral<'a>(kind: &str, old: &str, namespace: &str, candidates: &'a [Candidate]) -> Option<&'a Candidate> {
    let mut matching = candidates.iter().filter(|c| {
        c.kind == kind
            && (c.name == old || c.previous.iter().any(|p| p == old))
            && (!is_namespaced(kind) || c.namespace == namespace)
    });
    let first = matching.next()?;
    matching.next().is_none().then_some(first)
}
