//! The kustomization file (api/types/kustomization.go): found under one of its three names,
//! decoded strictly (kustomize rejects an unknown field), its deprecated fields warned about
//! and folded into their successors (`bases` into `resources`, `imageTags` into `images`,
//! `env` into `envs`).

use super::FileSystem;
use super::resources::read_text;
use crate::manifest;
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// konfig.RecognizedKustomizationFileNames, in the order kustomize tries them.
pub const FILE_NAMES: [&str; 3] = ["kustomization.yaml", "kustomization.yml", "Kustomization"];

/// The fields of a kustomization that the lab builds; every other field kustomize knows is
/// refused by name rather than silently ignored.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
pub struct Kustomization {
    pub api_version: String,
    pub kind: String,
    pub metadata: Option<Value>,
    pub resources: Vec<String>,
    pub bases: Vec<String>,
    pub namespace: String,
    pub name_prefix: String,
    pub name_suffix: String,
    pub common_labels: BTreeMap<String, String>,
    pub labels: Vec<Label>,
    pub common_annotations: BTreeMap<String, String>,
    pub patches: Vec<Patch>,
    pub patches_strategic_merge: Vec<String>,
    #[serde(rename = "patchesJson6902")]
    pub patches_json6902: Vec<Patch>,
    pub images: Vec<Image>,
    pub image_tags: Vec<Image>,
    pub replicas: Vec<Replica>,
    pub config_map_generator: Vec<GeneratorArgs>,
    pub secret_generator: Vec<GeneratorArgs>,
    pub generator_options: Option<GeneratorOptions>,
    pub sort_options: Option<SortOptions>,
    pub build_metadata: Vec<String>,
    // Known to kustomize, not built by the lab: refused in `unsupported`.
    pub openapi: Option<Value>,
    pub replacements: Option<Value>,
    pub vars: Option<Value>,
    pub components: Option<Value>,
    pub crds: Option<Value>,
    pub helm_globals: Option<Value>,
    pub helm_charts: Option<Value>,
    pub helm_chart_inflation_generator: Option<Value>,
    pub configurations: Option<Value>,
    pub generators: Option<Value>,
    pub transformers: Option<Value>,
    pub validators: Option<Value>,
}

/// types.Label: `labels:` entries.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
pub struct Label {
    pub pairs: BTreeMap<String, String>,
    pub include_selectors: bool,
    pub include_templates: bool,
    pub include_volume_claim_templates: bool,
    pub fields: Option<Value>,
}

/// types.Patch: a strategic-merge or JSON 6902 patch from `path` or inline `patch`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
pub struct Patch {
    pub path: String,
    pub patch: String,
    pub target: Option<Selector>,
    pub options: Option<BTreeMap<String, bool>>,
}

/// types.Selector: which objects a patch targets (name and namespace are regular expressions).
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
pub struct Selector {
    pub group: String,
    pub version: String,
    pub kind: String,
    pub name: String,
    pub namespace: String,
    pub label_selector: String,
    pub annotation_selector: String,
}

/// types.Image: `images:` entries.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
pub struct Image {
    pub name: String,
    pub new_name: String,
    pub new_tag: String,
    pub tag_suffix: String,
    pub digest: String,
}

/// types.Replica: `replicas:` entries.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Replica {
    pub name: String,
    pub count: i64,
}

/// types.ConfigMapArgs / types.SecretArgs (a Secret's `type` is the one field they differ by).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
pub struct GeneratorArgs {
    pub name: String,
    pub namespace: String,
    pub behavior: String,
    pub literals: Vec<String>,
    pub files: Vec<String>,
    pub envs: Vec<String>,
    pub env: String,
    pub options: Option<GeneratorOptions>,
    #[serde(rename = "type")]
    pub type_: String,
}

/// types.GeneratorOptions.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
pub struct GeneratorOptions {
    pub labels: BTreeMap<String, String>,
    pub annotations: BTreeMap<String, String>,
    pub disable_name_suffix_hash: Option<bool>,
    pub immutable: bool,
}

/// types.SortOptions.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct SortOptions {
    pub order: String,
}

impl Kustomization {
    pub fn sort_order(&self) -> super::sort::Order {
        match self.sort_options.as_ref().map(|o| o.order.as_str()) {
            Some("fifo") => super::sort::Order::Fifo,
            _ => super::sort::Order::Legacy,
        }
    }

    /// kustomization.go `FixKustomization`: deprecated fields folded into their successors.
    fn fix(&mut self) {
        self.resources.append(&mut self.bases);
        self.images.append(&mut self.image_tags);
        for args in self.config_map_generator.iter_mut().chain(self.secret_generator.iter_mut()) {
            if !args.env.is_empty() {
                args.envs.push(std::mem::take(&mut args.env));
            }
        }
    }

    /// The fields kustomize would act on that the lab does not build.
    fn unsupported(&self) -> Option<&'static str> {
        let fields = [
            ("replacements", &self.replacements),
            ("vars", &self.vars),
            ("components", &self.components),
            ("crds", &self.crds),
            ("helmCharts", &self.helm_charts),
            ("helmChartInflationGenerator", &self.helm_chart_inflation_generator),
            ("configurations", &self.configurations),
            ("generators", &self.generators),
            ("transformers", &self.transformers),
            ("validators", &self.validators),
        ];
        fields.into_iter().find(|(_, v)| v.as_ref().is_some_and(|v| !v.is_null())).map(|(name, _)| name)
    }
}

/// Reads the kustomization in `dir` (kusttarget.go `Load`); deprecation notices go to `warnings`.
pub fn load(files: &dyn FileSystem, dir: &str, warnings: &mut Vec<String>) -> Result<Kustomization, String> {
    let Some(entries) = files.list_dir(dir) else {
        return Err(format!(
            "must build at directory: not a valid directory: evalsymlink failure on '{dir}' : lstat {dir}: no such file or directory"
        ));
    };
    let found: Vec<String> =
        FILE_NAMES.iter().map(|name| format!("{dir}/{name}")).filter(|p| entries.contains(p)).collect();
    let path = match found.as_slice() {
        [] => {
            return Err(format!(
                "unable to find one of 'kustomization.yaml', 'kustomization.yml' or 'Kustomization' in directory '{dir}'"
            ));
        }
        [path] => path,
        _ => return Err(format!("Found multiple kustomization files under: {dir}\n")),
    };
    let text = read_text(files, path)?;
    let value = match manifest::parse_documents(&text) {
        Ok(documents) => documents.into_iter().next().unwrap_or(Value::Null),
        Err(e) => return Err(format!("invalid Kustomization: {e}")),
    };
    let mut kustomization = decode(value)?;
    warnings.extend(deprecations(&kustomization));
    kustomization.fix();
    if let Some(field) = kustomization.unsupported() {
        return Err(format!("kustomization field '{field}' is not supported in this lab (in {path})"));
    }
    enforce_fields(&kustomization, dir)?;
    Ok(kustomization)
}

/// json.Decoder with DisallowUnknownFields, worded as kustomize wraps it.
fn decode(value: Value) -> Result<Kustomization, String> {
    if value.is_null() {
        return Err("kustomization.yaml is empty".into());
    }
    serde_json::from_value(value).map_err(|e| {
        let message = e.to_string();
        match message.strip_prefix("unknown field `").and_then(|rest| rest.split_once('`')) {
            Some((field, _)) => format!("invalid Kustomization: json: unknown field \"{field}\""),
            None => format!("invalid Kustomization: {message}"),
        }
    })
}

/// kustomization.go `CheckDeprecatedFields`, in its order.
fn deprecations(k: &Kustomization) -> Vec<String> {
    const FIX: &str = "Run 'kustomize edit fix' to update your Kustomization automatically.";
    let mut found = Vec::new();
    let mut warn = |used: bool, old: &str, new: &str| {
        if used {
            found.push(format!("# Warning: '{old}' is deprecated. Please use '{new}' instead. {FIX}"));
        }
    };
    warn(!k.bases.is_empty(), "bases", "resources");
    warn(!k.common_labels.is_empty(), "commonLabels", "labels");
    warn(!k.image_tags.is_empty(), "imageTags", "images");
    warn(!k.patches_json6902.is_empty(), "patchesJson6902", "patches");
    warn(!k.patches_strategic_merge.is_empty(), "patchesStrategicMerge", "patches");
    found
}

/// kustomization.go `EnforceFields`: a Kustomization's kind and apiVersion.
fn enforce_fields(k: &Kustomization, dir: &str) -> Result<(), String> {
    let mut errors = Vec::new();
    if !k.kind.is_empty() && k.kind != "Kustomization" && k.kind != "Component" {
        errors.push("kind should be Kustomization or Component".to_string());
    }
    let required =
        if k.kind == "Component" { "kustomize.config.k8s.io/v1alpha1" } else { "kustomize.config.k8s.io/v1beta1" };
    if !k.api_version.is_empty() && k.api_version != required {
        errors.push(format!(
            "apiVersion for {} should be {required}",
            if k.kind.is_empty() { "Kustomization" } else { &k.kind }
        ));
    }
    if errors.is_empty() {
        return Ok(());
    }
    Err(format!("Failed to read kustomization file under {dir}:\n{}", errors.join("\n")))
}
