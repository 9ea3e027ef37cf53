//! Patches (builtins/PatchTransformer, PatchStrategicMergeTransformer,
//! PatchJson6902Transformer): a patch's text is a strategic-merge patch (objects) or an RFC
//! 6902 JSON patch (a list of operations). A strategic-merge patch without a `target` patches
//! the object its kind and name name; with one, every object the target selects. A JSON
//! patch needs a target.

use super::json6902;
use super::kustomization::{Patch, Selector};
use super::resources::{join, read_text, within_root};
use super::{FileSystem, Resource};
use crate::api::labels::Selector as LabelSelector;
use crate::api::string_map::StringMap;
use crate::kubectl::strategic_merge;
use crate::manifest;
use serde_json::Value;

/// `patchesStrategicMerge:`: each entry a file, or (when no such file) the patch itself.
pub fn strategic_merge_files(
    files: &dyn FileSystem,
    dir: &str,
    entries: &[String],
    resources: &mut [Resource],
) -> Result<(), String> {
    for entry in entries {
        let path = join(dir, entry);
        let text = files.read_file(&path).unwrap_or_else(|_| entry.clone());
        let patches = parse_objects(&text).map_err(|e| format!("{e} in File: {entry}"))?;
        for patch in &patches {
            patch_by_id(patch, resources)?;
        }
    }
    Ok(())
}

/// `patches:` (and `patchesJson6902:`, whose entries have the same shape).
pub fn apply_all(
    files: &dyn FileSystem,
    dir: &str,
    entries: &[Patch],
    resources: &mut [Resource],
) -> Result<(), String> {
    for entry in entries {
        apply_one(files, dir, entry, resources)?;
    }
    Ok(())
}

fn apply_one(files: &dyn FileSystem, dir: &str, entry: &Patch, resources: &mut [Resource]) -> Result<(), String> {
    let inline = entry.patch.trim();
    let (text, source) = match (inline.is_empty(), entry.path.is_empty()) {
        (true, true) => return Err("must specify one of patch and path".into()),
        (false, false) => return Err("patch and path can't be set at the same time".into()),
        (false, true) => (inline.to_string(), format!("[patch: {inline:?}]")),
        (true, false) => {
            let path = join(dir, &entry.path);
            let text = within_root(dir, &path).and_then(|()| read_text(files, &path)).map_err(|e| {
                format!(
                    "trouble configuring builtin PatchTransformer with config: `\npath: {}\n`: failed to get the patch file from path({}): {e}",
                    entry.path, entry.path
                )
            })?;
            (text, format!("[path: {:?}]", entry.path))
        }
    };
    if let Some(operations) = json_patch_operations(&text) {
        let Some(target) = &entry.target else {
            return Err(format!("must specify a target for JSON patch {source}"));
        };
        for resource in resources.iter_mut().filter(|r| selects(target, r)) {
            apply_json_patch(resource, &operations)?;
        }
        return Ok(());
    }
    let patches = parse_objects(&text).map_err(|_| format!("unable to parse SM or JSON patch from {source}"))?;
    match &entry.target {
        None => patches.iter().try_for_each(|patch| patch_by_id(patch, resources)),
        Some(target) => {
            let [patch] = patches.as_slice() else {
                return Err(format!(
                    "Multiple Strategic-Merge Patches in one `patches` entry is not allowed to set `patches.target` field: {source}"
                ));
            };
            for resource in resources.iter_mut().filter(|r| selects(target, r)) {
                // The target, not the patch's own kind and name, says which objects it patches
                // (resWrangler.ApplySmPatch gives each copy the target's id).
                let mut patch = patch.clone();
                if let Some(map) = patch.as_object_mut() {
                    map.remove("apiVersion");
                    map.remove("kind");
                }
                if let Some(metadata) = patch.get_mut("metadata").and_then(Value::as_object_mut) {
                    metadata.remove("name");
                    metadata.remove("namespace");
                }
                strategic_merge::apply(&mut resource.object, &patch);
            }
            Ok(())
        }
    }
}

/// A strategic-merge patch with no target: the object with its kind and (any earlier) name.
fn patch_by_id(patch: &Value, resources: &mut [Resource]) -> Result<(), String> {
    let patch_resource = Resource::new(patch.clone());
    let (kind, name) = (patch_resource.kind(), patch_resource.name());
    let namespace = patch_resource.namespace();
    let target = resources
        .iter_mut()
        .find(|r| r.kind() == kind && r.answers_to(name) && (namespace.is_empty() || r.namespace() == namespace));
    let Some(target) = target else {
        let id = format!(
            "{}/{name}.{}",
            super::resources::gvk_string(&patch_resource),
            if namespace.is_empty() { "[noNs]" } else { namespace }
        );
        return Err(format!(
            "no resource matches strategic merge patch \"{id}\": no matches for Id {id}; failed to find unique target for patch {id}"
        ));
    };
    let mut patch = patch.clone();
    // The patch names the object as its layer knew it; the object keeps its current name.
    if let Some(metadata) = patch.get_mut("metadata").and_then(Value::as_object_mut) {
        metadata.insert("name".into(), Value::String(target.name().to_string()));
        metadata.remove("namespace");
    }
    strategic_merge::apply(&mut target.object, &patch);
    Ok(())
}

/// PatchTransformer's `jsonPatchFromBytes`: a JSON array, or YAML for one, of operations.
fn json_patch_operations(text: &str) -> Option<Vec<json6902::Operation>> {
    let value = if text.trim_start().starts_with('[') {
        serde_json::from_str::<Value>(text).ok()?
    } else {
        manifest::parse_documents(text).ok()?.into_iter().next()?
    };
    json6902::parse(&value)
}

/// filters/patchjson6902: the operations in order; one that fails fails the build. A patch
/// that changes the name is a rename (references follow it).
fn apply_json_patch(resource: &mut Resource, operations: &[json6902::Operation]) -> Result<(), String> {
    let before = resource.name().to_string();
    json6902::apply(&mut resource.object, operations)?;
    if resource.name() != before {
        let renamed = resource.name().to_string();
        resource.object["metadata"]["name"] = Value::String(before);
        resource.rename(renamed);
    }
    Ok(())
}

fn parse_objects(text: &str) -> Result<Vec<Value>, String> {
    let documents = manifest::parse_documents(text).map_err(|e| e.to_string())?;
    let objects: Vec<Value> = documents.into_iter().filter(|d| !d.is_null()).collect();
    if objects.iter().any(|o| !o.is_object()) {
        return Err("not a list of objects".into());
    }
    Ok(objects)
}

/// types.Selector matching (resmap `Select`, types.SelectorRegex): group, version, kind, name
/// and namespace as anchored regular expressions (a name against any name the object went
/// by); label and annotation selectors as label selectors.
pub fn selects(target: &Selector, resource: &Resource) -> bool {
    let api_version = resource.object.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    let version = api_version.rsplit('/').next().unwrap_or("");
    let gvk_matches = regex_matches(&target.group, resource.group())
        && regex_matches(&target.version, version)
        && regex_matches(&target.kind, resource.kind());
    if !gvk_matches {
        return false;
    }
    let name_matches = std::iter::once(resource.name())
        .chain(resource.previous_names.iter().map(String::as_str))
        .any(|name| regex_matches(&target.name, name));
    name_matches
        && regex_matches(&target.namespace, resource.namespace())
        && label_matches(&target.label_selector, resource.object.pointer("/metadata/labels"))
        && label_matches(&target.annotation_selector, resource.object.pointer("/metadata/annotations"))
}

fn regex_matches(pattern: &str, value: &str) -> bool {
    if pattern.is_empty() {
        return true;
    }
    regex_lite::Regex::new(&format!("^(?:{pattern})$")).is_ok_and(|re| re.is_match(value))
}

fn label_matches(selector: &str, labels: Option<&Value>) -> bool {
    if selector.is_empty() {
        return true;
    }
    let Ok(selector) = LabelSelector::parse(selector) else { return false };
    let mut map = StringMap::new();
    for (key, value) in labels.and_then(Value::as_object).into_iter().flatten() {
        map.insert(key.clone(), value.as_str().unwrap_or(""));
    }
    selector.matches(&map)
}
