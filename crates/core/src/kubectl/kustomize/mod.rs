//! Kustomize as kubectl 1.36 embeds it (sigs.k8s.io/kustomize/api v5.8, krusty): `kubectl
//! kustomize DIR` and `apply -k DIR` build a kustomization — its resources and bases, its
//! generated ConfigMaps and Secrets, its patches and transformers — then hash the generated
//! names, rewrite the references to renamed objects and sort the result the legacy way.

pub mod field_spec;
pub mod generators;
pub mod hash;
pub mod images;
pub mod json6902;
pub mod kustomization;
pub mod labels;
pub mod name_reference;
pub mod patches;
pub mod resources;
pub mod sort;
pub mod transformers;
pub mod verb;

#[cfg(test)]
mod tests;

use super::FileSystem;
use kustomization::Kustomization;
use serde_json::Value;

/// Nested kustomizations deeper than this are refused (a cycle would never end).
const MAX_DEPTH: usize = 16;

/// One object as kustomize's `resource.Resource` holds it: the object, the names it had
/// before each rename (kustomize's previous ids, which patches, merges and name references
/// match), and whether a generator asked for a content hash suffix.
#[derive(Clone, Debug, PartialEq)]
pub struct Resource {
    pub object: Value,
    pub previous_names: Vec<String>,
    pub needs_hash: bool,
}

impl Resource {
    pub fn new(object: Value) -> Self {
        Resource { object, previous_names: Vec::new(), needs_hash: false }
    }

    pub fn kind(&self) -> &str {
        self.object.get("kind").and_then(Value::as_str).unwrap_or("")
    }

    pub fn name(&self) -> &str {
        self.object.pointer("/metadata/name").and_then(Value::as_str).unwrap_or("")
    }

    pub fn namespace(&self) -> &str {
        self.object.pointer("/metadata/namespace").and_then(Value::as_str).unwrap_or("")
    }

    /// The API group from `apiVersion` (`apps/v1` → `apps`, `v1` → ``).
    pub fn group(&self) -> &str {
        let api_version = self.object.get("apiVersion").and_then(Value::as_str).unwrap_or("");
        api_version.rsplit_once('/').map_or("", |(group, _)| group)
    }

    /// Whether it went by `name` now or at any earlier point of the build.
    pub fn answers_to(&self, name: &str) -> bool {
        self.name() == name || self.previous_names.iter().any(|n| n == name)
    }

    /// The name it was given in the file or generator that made it.
    pub fn original_name(&self) -> &str {
        self.previous_names.first().map_or(self.name(), String::as_str)
    }

    /// Renames it, remembering the old name (resource.StorePreviousId).
    pub fn rename(&mut self, name: String) {
        if name == self.name() {
            return;
        }
        self.previous_names.push(self.name().to_string());
        field_spec::set(&mut self.object, &["metadata", "name"], Value::String(name));
    }
}

/// What a build produced: the objects in kustomize's output order, and the warnings it
/// printed on stderr (deprecated fields).
#[derive(Debug, Default, PartialEq)]
pub struct Build {
    pub objects: Vec<Value>,
    pub warnings: Vec<String>,
}

/// The objects the kustomization in `dir` builds, as `kubectl kustomize` prints them.
pub fn build(files: &dyn FileSystem, dir: &str) -> Result<Vec<Value>, String> {
    build_with_warnings(files, dir).map(|b| b.objects)
}

/// krusty's `Kustomizer.Run`: accumulate the target, hash generated names, fix the references
/// to renamed objects (accumulator.FixBackReferences), then the legacy sort.
pub fn build_with_warnings(files: &dyn FileSystem, dir: &str) -> Result<Build, String> {
    let dir = dir.trim_end_matches('/');
    let dir = if dir.is_empty() { "." } else { dir };
    if files.list_dir(dir).is_none() && files.read_file(dir).is_ok() {
        return Err(format!("error: must build at directory: '{dir}': file is not directory"));
    }
    let mut warnings = Vec::new();
    let mut resources = accumulate(files, dir, 0, &mut warnings).map_err(|e| format!("error: {e}"))?;
    hash::add_hashes(&mut resources);
    name_reference::fix(&mut resources);
    let kustomization = kustomization::load(files, dir, &mut Vec::new()).map_err(|e| format!("error: {e}"))?;
    if kustomization.sort_order() == sort::Order::Legacy {
        sort::legacy(&mut resources);
    }
    Ok(Build { objects: resources.into_iter().map(|r| r.object).collect(), warnings })
}

/// kusttarget.go `accumulateTarget`: resources, then generators, then transformers.
pub(crate) fn accumulate(
    files: &dyn FileSystem,
    dir: &str,
    depth: usize,
    warnings: &mut Vec<String>,
) -> Result<Vec<Resource>, String> {
    if depth > MAX_DEPTH {
        return Err(format!("kustomizations nest deeper than {MAX_DEPTH} levels at '{dir}'"));
    }
    let kustomization = kustomization::load(files, dir, warnings)?;
    let mut resources = resources::accumulate(files, dir, &kustomization, depth, warnings)?;
    generators::run(files, dir, &kustomization, &mut resources)?;
    transform(files, dir, &kustomization, &mut resources)?;
    Ok(resources)
}

/// The builtin transformers in kusttarget_configplugin.go's order: patchesStrategicMerge,
/// patches, namespace, namePrefix, nameSuffix, labels and commonLabels, commonAnnotations,
/// patchesJson6902, replicas, images.
fn transform(files: &dyn FileSystem, dir: &str, k: &Kustomization, resources: &mut [Resource]) -> Result<(), String> {
    patches::strategic_merge_files(files, dir, &k.patches_strategic_merge, resources)?;
    patches::apply_all(files, dir, &k.patches, resources)?;
    transformers::namespace(&k.namespace, resources);
    transformers::prefix_suffix(&k.name_prefix, &k.name_suffix, resources);
    labels::labels(k, resources);
    labels::annotations(&k.common_annotations, resources);
    patches::apply_all(files, dir, &k.patches_json6902, resources)?;
    transformers::replicas(&k.replicas, resources);
    images::apply(&k.images, resources);
    Ok(())
}
