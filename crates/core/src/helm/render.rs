//! A chart rendered for a release (pkg/action/action.go `renderResources`): the top-level
//! values every template sees, NOTES.txt apart, each file split into documents sorted in
//! Helm's install order, and the release manifest with its `# Source:` lines.

use std::collections::BTreeMap;
use std::rc::Rc;

use serde_json::{Map, Value as Json};

use super::chart::Chart;
use super::template::{self, Value};
use crate::version::{KUBERNETES_VERSION, MAJOR, MINOR};

/// Who the release is, as `.Release` shows it.
pub struct ReleaseOptions<'a> {
    pub name: &'a str,
    pub namespace: &'a str,
    pub revision: i64,
    pub is_upgrade: bool,
}

/// A rendered chart: the manifest to apply and record, and the notes.
#[derive(Debug, PartialEq)]
pub struct Rendered {
    pub manifest: String,
    pub notes: String,
}

/// pkg/releaseutil's InstallOrder: the kinds Helm creates first.
const INSTALL_ORDER: &[&str] = &[
    "PriorityClass",
    "Namespace",
    "NetworkPolicy",
    "ResourceQuota",
    "LimitRange",
    "PodSecurityPolicy",
    "PodDisruptionBudget",
    "ServiceAccount",
    "Secret",
    "SecretList",
    "ConfigMap",
    "StorageClass",
    "PersistentVolume",
    "PersistentVolumeClaim",
    "CustomResourceDefinition",
    "ClusterRole",
    "ClusterRoleList",
    "ClusterRoleBinding",
    "ClusterRoleBindingList",
    "Role",
    "RoleList",
    "RoleBinding",
    "RoleBindingList",
    "Service",
    "DaemonSet",
    "Pod",
    "ReplicationController",
    "ReplicaSet",
    "Deployment",
    "HorizontalPodAutoscaler",
    "StatefulSet",
    "Job",
    "CronJob",
    "IngressClass",
    "Ingress",
    "APIService",
];

/// Renders `chart` with the user's `config` for a release.
pub fn render(chart: &Chart, config: &Map<String, Json>, release: &ReleaseOptions<'_>) -> Result<Rendered, String> {
    let values = super::values::coalesce(&chart.values, config);
    let top = top_values(chart, &values, release);
    let files = template::render_all(&chart.templates, &top)?;
    let notes_path = format!("{}/templates/NOTES.txt", chart.metadata.name);
    let notes = files.get(&notes_path).cloned().unwrap_or_default();
    let mut manifests = Vec::new();
    for (path, text) in files.iter().filter(|(path, _)| **path != notes_path) {
        if text.trim().is_empty() {
            continue;
        }
        for document in split_manifests(text) {
            let kind = kind_of(&document).map_err(|e| format!("YAML parse error on {path}: {e}"))?;
            manifests.push((path.clone(), kind, document));
        }
    }
    manifests.sort_by_key(|(_, kind, _)| install_rank(kind));
    let manifest: String =
        manifests.iter().map(|(path, _, content)| format!("---\n# Source: {path}\n{content}\n")).collect();
    Ok(Rendered { manifest, notes })
}

/// Where a kind goes in the install order: listed kinds first in order, others after by name.
fn install_rank(kind: &str) -> (usize, String) {
    match INSTALL_ORDER.iter().position(|k| *k == kind) {
        Some(rank) => (rank, String::new()),
        None => (INSTALL_ORDER.len(), kind.to_string()),
    }
}

/// pkg/releaseutil's SplitManifests: documents between `---` lines, trimmed, empty ones dropped.
pub fn split_manifests(text: &str) -> Vec<String> {
    let mut documents = Vec::new();
    let mut current = String::new();
    for line in text.split('\n') {
        if line.trim_end() == "---" || line.starts_with("--- ") {
            documents.push(std::mem::take(&mut current));
            continue;
        }
        current.push_str(line);
        current.push('\n');
    }
    documents.push(current);
    documents.into_iter().map(|d| d.trim().to_string()).filter(|d| !d.is_empty()).collect()
}

fn kind_of(document: &str) -> Result<String, String> {
    let yaml: serde_yaml::Value =
        serde_yaml::from_str(document).map_err(|e| format!("error converting YAML to JSON: yaml: {e}"))?;
    Ok(yaml.get("kind").and_then(|k| k.as_str()).unwrap_or("").to_string())
}

/// `.Values`, `.Release`, `.Chart`, `.Capabilities` and what the lab refuses (`.Files`).
fn top_values(chart: &Chart, values: &Map<String, Json>, release: &ReleaseOptions<'_>) -> Value {
    let text = |s: &str| Value::str(s);
    let release_map = template::exec::map([
        ("Name".into(), text(release.name)),
        ("Namespace".into(), text(release.namespace)),
        ("Revision".into(), Value::Int(release.revision)),
        ("IsUpgrade".into(), Value::Bool(release.is_upgrade)),
        ("IsInstall".into(), Value::Bool(!release.is_upgrade)),
        ("Service".into(), text("Helm")),
    ]);
    let meta = &chart.metadata;
    let chart_fields: BTreeMap<String, Value> = [
        ("Name", meta.name.as_str()),
        ("Version", meta.version.as_str()),
        ("AppVersion", meta.app_version.as_str()),
        ("Description", meta.description.as_str()),
        ("APIVersion", meta.api_version.as_str()),
        ("Type", meta.type_.as_str()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), text(v)))
    .collect();
    template::exec::map([
        ("Values".into(), Value::from_json(&Json::Object(values.clone()))),
        ("Release".into(), release_map),
        ("Chart".into(), Value::Struct("*chart.Metadata", Rc::new(chart_fields))),
        ("Capabilities".into(), capabilities()),
        ("Files".into(), Value::Unavailable("Files")),
        ("Subcharts".into(), template::exec::map([])),
    ])
}

/// `.Capabilities`: the lab's Kubernetes version and the API versions it serves.
fn capabilities() -> Value {
    let kube: BTreeMap<String, Value> =
        [("Version", KUBERNETES_VERSION), ("Major", MAJOR), ("Minor", MINOR), ("GitVersion", KUBERNETES_VERSION)]
            .into_iter()
            .map(|(k, v)| (k.to_string(), Value::str(v)))
            .collect();
    let mut versions: Vec<String> = Vec::new();
    for info in crate::api::RESOURCES.iter().filter(|r| !r.custom) {
        versions.push(info.api_version());
        versions.push(format!("{}/{}", info.api_version(), info.kind_name));
    }
    versions.sort();
    versions.dedup();
    let fields: BTreeMap<String, Value> = [
        ("KubeVersion".to_string(), Value::Struct("chartutil.KubeVersion", Rc::new(kube))),
        ("APIVersions".to_string(), Value::ApiVersions(Rc::new(versions))),
        ("HelmVersion".to_string(), Value::Unavailable("Capabilities.HelmVersion")),
    ]
    .into_iter()
    .collect();
    Value::Struct("*chartutil.Capabilities", Rc::new(fields))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hello_renders_service_before_deployment_with_sources() {
        let chart = super::super::chart::locate("kubelab/hello").unwrap();
        let release = ReleaseOptions { name: "web", namespace: "default", revision: 1, is_upgrade: false };
        let rendered = render(&chart, &Map::new(), &release).unwrap();
        let sources: Vec<&str> = rendered.manifest.lines().filter(|l| l.starts_with("# Source:")).collect();
        assert_eq!(sources, ["# Source: hello/templates/service.yaml", "# Source: hello/templates/deployment.yaml"]);
        assert!(rendered.manifest.contains("  name: web-hello\n"), "{}", rendered.manifest);
        assert!(rendered.notes.contains("port-forward svc/web-hello 8080:80"), "{}", rendered.notes);
    }

    #[test]
    fn split_manifests_drops_empty_documents() {
        assert_eq!(split_manifests("---\na: 1\n---\n\n---\nb: 2\n"), ["a: 1", "b: 2"]);
    }
}
