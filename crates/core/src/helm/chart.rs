//! The charts the lab ships in its built-in repository `kubelab` (data files under
//! `charts/`), and how a chart reference (`kubelab/hello`) finds one.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The built-in repository's name and the address `helm repo list` shows for it.
pub const REPO_NAME: &str = "kubelab";
pub const REPO_URL: &str = "https://charts.kubelab.local";

/// Chart.yaml, with Helm's JSON names (pkg/chart.Metadata).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Metadata {
    pub name: String,
    pub version: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    #[serde(default)]
    pub api_version: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub app_version: String,
    #[serde(default, rename = "type", skip_serializing_if = "String::is_empty")]
    pub type_: String,
}

/// A chart: its metadata, default values and templates (by path, `hello/templates/x.yaml`).
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    pub metadata: Metadata,
    pub values: Map<String, Value>,
    pub templates: BTreeMap<String, String>,
}

/// One chart's files, as `(path inside the chart, text)`.
type ChartFiles = &'static [(&'static str, &'static str)];

macro_rules! chart_files {
    ($name:literal: $($path:literal),* $(,)?) => {
        &[$(($path, include_str!(concat!("charts/", $name, "/", $path)))),*]
    };
}

const BUILT_IN: &[(&str, ChartFiles)] = &[
    (
        "hello",
        chart_files!("hello": "Chart.yaml", "values.yaml", "templates/_helpers.tpl", "templates/deployment.yaml",
            "templates/service.yaml", "templates/ingress.yaml", "templates/NOTES.txt"),
    ),
    (
        "nginx",
        chart_files!("nginx": "Chart.yaml", "values.yaml", "templates/_helpers.tpl", "templates/deployment.yaml",
            "templates/service.yaml", "templates/NOTES.txt"),
    ),
];

/// Every built-in chart, by name.
pub fn built_in() -> Vec<Chart> {
    BUILT_IN.iter().filter_map(|(_, files)| load(files).ok()).collect()
}

/// Loads a chart from its files, as pkg/chart/loader does.
fn load(files: ChartFiles) -> Result<Chart, String> {
    let text = |path: &str| files.iter().find(|(p, _)| *p == path).map(|(_, t)| *t);
    let metadata: Metadata =
        serde_yaml::from_str(text("Chart.yaml").unwrap_or("")).map_err(|e| format!("cannot load Chart.yaml: {e}"))?;
    let values = super::values::parse_values_file(text("values.yaml").unwrap_or(""))?;
    let templates = files
        .iter()
        .filter(|(path, _)| path.starts_with("templates/"))
        .map(|(path, text)| (format!("{}/{path}", metadata.name), text.to_string()))
        .collect();
    Ok(Chart { metadata, values, templates })
}

/// Finds the chart a reference names, or Helm's error (LocateChart and the repo index).
pub fn locate(reference: &str) -> Result<Chart, String> {
    if reference.starts_with('.') || reference.starts_with('/') {
        return Err(format!("path \"{reference}\" not found"));
    }
    let Some((repo, name)) = reference.split_once('/') else {
        return Err(format!("non-absolute URLs should be in form of repo_name/path_to_chart, got: {reference}"));
    };
    if repo != REPO_NAME {
        return Err(format!("repo {repo} not found"));
    }
    built_in().into_iter().find(|chart| chart.metadata.name == name).ok_or_else(|| {
        format!(
            "chart \"{name}\" matching  not found in {REPO_NAME} index. (try 'helm repo update'): no chart name found"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_charts_load_and_references_find_them() {
        let names: Vec<String> = built_in().into_iter().map(|c| c.metadata.name).collect();
        assert_eq!(names, ["hello", "nginx"]);
        let hello = locate("kubelab/hello").unwrap();
        assert_eq!(hello.metadata.app_version, "v1");
        assert!(hello.templates.contains_key("hello/templates/NOTES.txt"));
        assert_eq!(
            locate("hello").unwrap_err(),
            "non-absolute URLs should be in form of repo_name/path_to_chart, got: hello"
        );
        assert_eq!(locate("bitnami/redis").unwrap_err(), "repo bitnami not found");
    }
}
