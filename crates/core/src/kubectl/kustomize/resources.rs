//! `resources:` (and the deprecated `bases:`): each entry is a file of objects or a folder
//! holding a kustomization, built first (kusttarget.go `accumulateResources`). Paths are
//! relative to the kustomization's folder.

use super::kustomization::Kustomization;
use super::{FileSystem, Resource};
use crate::manifest;
use serde_json::Value;

/// The objects the kustomization's resources hold, in the order it lists them.
pub fn accumulate(
    files: &dyn FileSystem,
    dir: &str,
    kustomization: &Kustomization,
    depth: usize,
    warnings: &mut Vec<String>,
) -> Result<Vec<Resource>, String> {
    let mut resources: Vec<Resource> = Vec::new();
    for entry in &kustomization.resources {
        let path = join(dir, entry);
        let loaded = if files.list_dir(&path).is_some() {
            super::accumulate(files, &path, depth + 1, warnings)
                .map_err(|e| format!("accumulating resources: accumulation err='{e}'"))?
        } else if files.read_file(&path).is_ok() {
            within_root(dir, &path).map_err(|e| {
                format!(
                    "accumulating resources: accumulation err='accumulating resources from '{entry}': {e}': must build at directory: '{path}': file is not directory"
                )
            })?;
            read_objects(files, &path)?.into_iter().map(Resource::new).collect()
        } else {
            return Err(missing_resource(entry, &path));
        };
        for resource in loaded {
            absorb(&mut resources, resource)?;
        }
    }
    Ok(resources)
}

/// resWrangler.Append: two objects with the same kind, namespace and name are an error.
fn absorb(resources: &mut Vec<Resource>, resource: Resource) -> Result<(), String> {
    let clash = resources.iter().any(|r| {
        r.kind() == resource.kind()
            && r.group() == resource.group()
            && r.name() == resource.name()
            && r.namespace() == resource.namespace()
    });
    if clash {
        let namespace = match resource.namespace() {
            "" => "[noNs]".to_string(),
            ns => ns.to_string(),
        };
        return Err(format!(
            "accumulating resources: may not add resource with an already registered id: {}/{}.{namespace}",
            gvk_string(&resource),
            resource.name()
        ));
    }
    resources.push(resource);
    Ok(())
}

/// resid.Gvk.String: `Deployment.v1.apps`, `Service.v1.[noGrp]`.
pub fn gvk_string(resource: &Resource) -> String {
    let api_version = resource.object.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
    let group = if group.is_empty() { "[noGrp]" } else { group };
    let version = if version.is_empty() { "[noVer]" } else { version };
    format!("{}.{version}.{group}", resource.kind())
}

/// The words kustomize prints when a resource is neither a file nor a folder.
fn missing_resource(entry: &str, path: &str) -> String {
    let lstat = format!("evalsymlink failure on '{path}' : lstat {path}: no such file or directory");
    format!(
        "accumulating resources: accumulation err='accumulating resources from '{entry}': {lstat}': must build at directory: not a valid directory: {lstat}"
    )
}

/// A file's objects (`kind: List` expanded).
pub fn read_objects(files: &dyn FileSystem, path: &str) -> Result<Vec<Value>, String> {
    let text = read_text(files, path)?;
    let documents = manifest::parse_documents(&text).map_err(|e| format!("MalformedYAMLError: {e} in File: {path}"))?;
    Ok(manifest::expand_lists(documents).into_iter().filter(|d| !d.is_null()).collect())
}

/// A file's text, or kustomize's words for a file that is not there.
pub fn read_text(files: &dyn FileSystem, path: &str) -> Result<String, String> {
    files.read_file(path).map_err(|_| format!("open {path}: no such file or directory"))
}

/// The loader's LoadRestrictionsRootOnly (kubectl's default `--load-restrictor`): a file a
/// kustomization reads must sit in or below its folder (a base folder is a new root).
pub fn within_root(dir: &str, path: &str) -> Result<(), String> {
    let inside = match dir {
        "." => !path.starts_with("../") && path != "..",
        _ => path.strip_prefix(dir).is_some_and(|rest| rest.starts_with('/')),
    };
    if inside {
        return Ok(());
    }
    Err(format!("security; file '{path}' is not in or below '{dir}'"))
}

/// `dir/relative` with `.` and `..` resolved.
pub fn join(dir: &str, relative: &str) -> String {
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
    if parts.is_empty() { ".".to_string() } else { parts.join("/") }
}
