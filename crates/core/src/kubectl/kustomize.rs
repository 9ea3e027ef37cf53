//! `-k DIR`: the subset of kustomize (sigs.k8s.io/kustomize/api, krusty) that lessons use —
//! `resources` (files and nested kustomizations), `namespace`, `namePrefix`, `commonLabels`,
//! `images`, `replicas` and `patches` (strategic-merge patches from `path` or inline
//! `patch`), read through the same `FileSystem` as `-f`. Name references between objects
//! (a ConfigMap a Deployment mounts) are not rewritten by `namePrefix`.

use super::FileSystem;
use super::strategic_merge;
use crate::manifest;
use serde_json::{Value, json};

const KUSTOMIZATION_FILES: [&str; 3] = ["kustomization.yaml", "kustomization.yml", "Kustomization"];
/// Nested kustomizations deeper than this are refused (a cycle would never end).
const MAX_DEPTH: usize = 16;

/// The objects the kustomization in `dir` builds, in the order its resources list them.
pub fn build(files: &dyn FileSystem, dir: &str) -> Result<Vec<Value>, String> {
    build_at(files, dir.trim_end_matches('/'), 0)
}

fn build_at(files: &dyn FileSystem, dir: &str, depth: usize) -> Result<Vec<Value>, String> {
    if depth > MAX_DEPTH {
        return Err(format!("error: kustomizations nest deeper than {MAX_DEPTH} levels at '{dir}'"));
    }
    let Some(entries) = files.list_dir(dir) else {
        return Err(format!(
            "error: must build at directory: not a valid directory: evalsymlink failure on '{dir}' : lstat {dir}: no such file or directory"
        ));
    };
    let path = KUSTOMIZATION_FILES.iter().map(|name| format!("{dir}/{name}")).find(|p| entries.contains(p));
    let Some(path) = path else {
        return Err(format!(
            "error: unable to find one of 'kustomization.yaml', 'kustomization.yml' or 'Kustomization' in directory '{dir}'"
        ));
    };
    let kustomization = read_yaml(files, &path)?.into_iter().next().unwrap_or(Value::Null);
    let mut objects = Vec::new();
    for resource in strings(&kustomization, "resources") {
        let resource_path = join(dir, &resource);
        match files.list_dir(&resource_path) {
            Some(_) => objects.extend(build_at(files, &resource_path, depth + 1)?),
            None => objects.extend(read_yaml(files, &resource_path)?),
        }
    }
    transform(files, dir, &kustomization, &mut objects)?;
    Ok(objects)
}

/// The kustomization's transformers, in kustomize's order: patches, then names, labels,
/// images and replica counts.
fn transform(files: &dyn FileSystem, dir: &str, kustomization: &Value, objects: &mut [Value]) -> Result<(), String> {
    for patch in patches(files, dir, kustomization)? {
        let kind = patch.get("kind").cloned();
        let name = patch.pointer("/metadata/name").cloned();
        let target =
            objects.iter_mut().find(|o| o.get("kind") == kind.as_ref() && o.pointer("/metadata/name") == name.as_ref());
        let Some(target) = target else {
            let name = name.as_ref().and_then(Value::as_str).unwrap_or("");
            return Err(format!("error: no resource matches strategic merge patch \"{name}\""));
        };
        strategic_merge::apply(target, &patch);
    }
    for replica in kustomization.get("replicas").and_then(Value::as_array).into_iter().flatten() {
        let name = replica.get("name");
        let scalable = |o: &Value| {
            matches!(o.get("kind").and_then(Value::as_str), Some("Deployment" | "ReplicaSet" | "StatefulSet"))
        };
        for object in objects.iter_mut().filter(|o| scalable(o) && o.pointer("/metadata/name") == name) {
            set_path(object, &["spec", "replicas"], replica.get("count").cloned().unwrap_or(json!(0)));
        }
    }
    let images = kustomization.get("images").and_then(Value::as_array).cloned().unwrap_or_default();
    let labels = kustomization.get("commonLabels").and_then(Value::as_object).cloned().unwrap_or_default();
    let prefix = kustomization.get("namePrefix").and_then(Value::as_str).unwrap_or("");
    let namespace = kustomization.get("namespace").and_then(Value::as_str);
    for object in objects.iter_mut() {
        set_images(object, &images);
        add_labels(object, &labels);
        if let Some(Value::String(name)) = object.pointer_mut("/metadata/name") {
            name.insert_str(0, prefix);
        }
        if let Some(namespace) = namespace {
            set_path(object, &["metadata", "namespace"], json!(namespace));
        }
    }
    Ok(())
}

/// `patches:` (`path:` or inline `patch:`) and the older `patchesStrategicMerge:` list.
fn patches(files: &dyn FileSystem, dir: &str, kustomization: &Value) -> Result<Vec<Value>, String> {
    let mut found = Vec::new();
    for entry in kustomization.get("patches").and_then(Value::as_array).into_iter().flatten() {
        if let Some(path) = entry.get("path").and_then(Value::as_str) {
            found.extend(read_yaml(files, &join(dir, path))?);
        } else if let Some(text) = entry.get("patch").and_then(Value::as_str) {
            found.extend(manifest::parse_documents(text).map_err(|e| format!("error: {e}"))?);
        }
    }
    for path in strings(kustomization, "patchesStrategicMerge") {
        found.extend(read_yaml(files, &join(dir, &path))?);
    }
    Ok(found)
}

/// `images:`: containers whose image is `name` (any tag) get `newName`, `newTag` or `digest`.
fn set_images(object: &mut Value, images: &[Value]) {
    let Some(spec) = pod_spec(object) else { return };
    for list in ["containers", "initContainers"] {
        for container in spec.get_mut(list).and_then(Value::as_array_mut).into_iter().flatten() {
            let Some(image) = container.get("image").and_then(Value::as_str) else { continue };
            let (name, tag) = split_image(image);
            let Some(rule) = images.iter().find(|i| i.get("name").and_then(Value::as_str) == Some(name)) else {
                continue;
            };
            let new_name = rule.get("newName").and_then(Value::as_str).unwrap_or(name);
            let image = match (rule.get("digest").and_then(Value::as_str), rule.get("newTag").and_then(Value::as_str)) {
                (Some(digest), _) => format!("{new_name}@{digest}"),
                (None, Some(tag)) => format!("{new_name}:{tag}"),
                (None, None) => format!("{new_name}{tag}"),
            };
            set_path(container, &["image"], json!(image));
        }
    }
}

/// `nginx:1.27` → (`nginx`, `:1.27`); a registry's port is not a tag.
fn split_image(image: &str) -> (&str, &str) {
    let last_slash = image.rfind('/').map_or(0, |i| i + 1);
    let at = image[last_slash..].find(['@', ':']).map(|i| i + last_slash);
    at.map_or((image, ""), |at| image.split_at(at))
}

/// `commonLabels:` on the object, its selector and its pod template.
fn add_labels(object: &mut Value, labels: &serde_json::Map<String, Value>) {
    if labels.is_empty() {
        return;
    }
    let kind = object.get("kind").and_then(Value::as_str).unwrap_or("").to_string();
    let mut targets = vec!["/metadata/labels".to_string()];
    match kind.as_str() {
        "Deployment" | "ReplicaSet" | "StatefulSet" | "DaemonSet" => {
            targets.push("/spec/selector/matchLabels".into());
            targets.push("/spec/template/metadata/labels".into());
        }
        "Service" => targets.push("/spec/selector".into()),
        _ => {}
    }
    for target in targets {
        let mut patch = json!({});
        let mut cursor = &mut patch;
        for part in target.trim_start_matches('/').split('/') {
            cursor = &mut cursor[part];
        }
        *cursor = Value::Object(labels.clone());
        strategic_merge::apply(object, &patch);
    }
}

/// Sets a nested field, creating missing maps; a path through something else is left alone
/// (validation reports the malformed object later).
fn set_path(object: &mut Value, path: &[&str], value: Value) {
    let Some((last, parents)) = path.split_last() else { return };
    let mut cursor = object;
    for key in parents {
        let Some(map) = cursor.as_object_mut() else { return };
        cursor = map.entry(key.to_string()).or_insert_with(|| json!({}));
    }
    if let Some(map) = cursor.as_object_mut() {
        map.insert(last.to_string(), value);
    }
}

fn pod_spec(object: &mut Value) -> Option<&mut Value> {
    if object.get("kind").and_then(Value::as_str) == Some("Pod") {
        return object.get_mut("spec");
    }
    object.pointer_mut("/spec/template/spec")
}

fn strings(value: &Value, key: &str) -> Vec<String> {
    let items = value.get(key).and_then(Value::as_array);
    items.into_iter().flatten().filter_map(Value::as_str).map(String::from).collect()
}

fn read_yaml(files: &dyn FileSystem, path: &str) -> Result<Vec<Value>, String> {
    let text = files.read_file(path).map_err(|e| format!("error: {e}"))?;
    let documents = manifest::parse_documents(&text).map_err(|e| format!("error: error parsing {path}: {e}"))?;
    Ok(manifest::expand_lists(documents))
}

/// `dir/relative` with `.` and `..` resolved.
fn join(dir: &str, relative: &str) -> String {
    let mut parts: Vec<&str> = if dir.is_empty() || dir == "." { Vec::new() } else { dir.split('/').collect() };
    for part in relative.split('/') {
        match part {
            "" | "." => {}
            ".." if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kubectl::MemoryFiles;

    fn overlay() -> MemoryFiles {
        let mut files = MemoryFiles::new();
        files.insert("base/kustomization.yaml", "resources:\n- deploy.yaml\n- svc.yaml\n");
        files.insert(
            "base/deploy.yaml",
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.27\n",
        );
        files.insert(
            "base/svc.yaml",
            "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector: {app: web}\n  ports:\n  - port: 80\n",
        );
        files.insert(
            "prod/kustomization.yaml",
            "resources:\n- ../base\nnamePrefix: prod-\ncommonLabels:\n  env: prod\nimages:\n- name: nginx\n  newTag: \"1.28\"\nreplicas:\n- name: web\n  count: 3\npatches:\n- path: memory.yaml\n",
        );
        files.insert(
            "prod/memory.yaml",
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      containers:\n      - name: web\n        resources:\n          limits: {memory: 64Mi}\n",
        );
        files
    }

    #[test]
    fn an_overlay_builds_on_its_base() {
        let objects = build(&overlay(), "prod/").unwrap();
        let deploy = &objects[0];
        assert_eq!(deploy.pointer("/metadata/name"), Some(&json!("prod-web")));
        assert_eq!(deploy.pointer("/spec/replicas"), Some(&json!(3)));
        assert_eq!(deploy.pointer("/spec/selector/matchLabels"), Some(&json!({"app": "web", "env": "prod"})));
        let container = deploy.pointer("/spec/template/spec/containers/0").unwrap();
        assert_eq!(container["image"], json!("nginx:1.28"));
        assert_eq!(container["resources"]["limits"]["memory"], json!("64Mi"));
        assert_eq!(objects[1].pointer("/spec/selector"), Some(&json!({"app": "web", "env": "prod"})));
        assert_eq!(objects[1].pointer("/metadata/labels/env"), Some(&json!("prod")));
    }

    #[test]
    fn malformed_objects_do_not_panic() {
        let mut files = MemoryFiles::new();
        files.insert("k/kustomization.yaml", "resources: [a.yaml]\nnamespace: x\nreplicas: [{name: a, count: 2}]\ncommonLabels: {a: b}\nimages: [{name: i, newTag: t}]\n");
        files.insert("k/a.yaml", "kind: Deployment\nmetadata: 5\nspec: 7\n---\nkind: Pod\nmetadata: {name: a}\nspec: {containers: [5, {image: 3}]}\n");
        assert!(build(&files, "k").is_ok());
    }

    #[test]
    fn a_folder_without_a_kustomization_is_refused() {
        assert_eq!(
            build(&overlay(), "base/../prod/..").unwrap_err(),
            "error: must build at directory: not a valid directory: evalsymlink failure on 'base/../prod/..' : lstat base/../prod/..: no such file or directory"
        );
        let mut files = overlay();
        files.insert("plain/pod.yaml", "kind: Pod\n");
        assert_eq!(
            build(&files, "plain").unwrap_err(),
            "error: unable to find one of 'kustomization.yaml', 'kustomization.yml' or 'Kustomization' in directory 'plain'"
        );
        assert_eq!(split_image("registry:5000/app"), ("registry:5000/app", ""));
        assert_eq!(join("prod", "../base/x.yaml"), "base/x.yaml");
    }
}
