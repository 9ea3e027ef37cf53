//! Field specs (api/types/fieldspec.go): which kinds a transformer touches and where — a
//! slash-separated path that steps through every item of a list it meets
//! (`spec/template/spec/containers/env/valueFrom/configMapKeyRef/name`), creating the maps
//! on the way when the spec says `create: true`.

use super::Resource;
use serde_json::{Value, json};

/// One field spec: the kind (and group, when given) it applies to, the path, and `create`.
#[derive(Clone, Copy, Debug)]
pub struct FieldSpec {
    pub group: Option<&'static str>,
    pub kind: Option<&'static str>,
    pub path: &'static str,
    pub create: bool,
}

impl FieldSpec {
    pub const fn any(path: &'static str, create: bool) -> Self {
        FieldSpec { group: None, kind: None, path, create }
    }

    pub const fn kind(kind: &'static str, path: &'static str, create: bool) -> Self {
        FieldSpec { group: None, kind: Some(kind), path, create }
    }

    pub const fn grouped(group: &'static str, kind: &'static str, path: &'static str, create: bool) -> Self {
        FieldSpec { group: Some(group), kind: Some(kind), path, create }
    }

    /// resid.IsSelected: the spec's kind and group, where given, are the resource's.
    pub fn selects(&self, resource: &Resource) -> bool {
        self.kind.is_none_or(|k| k == resource.kind()) && self.group.is_none_or(|g| g == resource.group())
    }

    /// Calls `leaf` on every value at the spec's path in `resource` (when it selects it).
    pub fn visit(&self, resource: &mut Resource, leaf: &mut dyn FnMut(&mut Value)) {
        if self.selects(resource) {
            let parts: Vec<&str> = self.path.split('/').collect();
            walk(&mut resource.object, &parts, self.create, leaf);
        }
    }
}

/// Steps down `path`; a list on the way is stepped through item by item.
pub fn walk(value: &mut Value, path: &[&str], create: bool, leaf: &mut dyn FnMut(&mut Value)) {
    if let Value::Array(items) = value {
        for item in items {
            walk(item, path, create, leaf);
        }
        return;
    }
    let Some((first, rest)) = path.split_first() else {
        leaf(value);
        return;
    };
    if create && value.is_null() {
        *value = json!({});
    }
    let Some(map) = value.as_object_mut() else { return };
    if !map.contains_key(*first) {
        if !create {
            return;
        }
        map.insert(first.to_string(), Value::Null);
    }
    if let Some(next) = map.get_mut(*first) {
        walk(next, rest, create, leaf);
    }
}

/// Sets a nested field, creating missing maps; a path through something else is left alone
/// (validation reports the malformed object later).
pub fn set(object: &mut Value, path: &[&str], value: Value) {
    let Some((last, parents)) = path.split_last() else { return };
    let mut cursor = object;
    for key in parents {
        let Some(map) = cursor.as_object_mut() else { return };
        cursor = map.entry(key.to_string()).or_insert_with(|| json!({}));
        if cursor.is_null() {
            *cursor = json!({});
        }
    }
    if let Some(map) = cursor.as_object_mut() {
        map.insert(last.to_string(), value);
    }
}

/// Sets each `pairs` key in the map at the leaf (made a map if it was nothing).
pub fn merge_string_map(leaf: &mut Value, pairs: &std::collections::BTreeMap<String, String>) {
    if leaf.is_null() {
        *leaf = json!({});
    }
    if let Some(map) = leaf.as_object_mut() {
        for (key, value) in pairs {
            map.insert(key.clone(), json!(value));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_steps_through_lists_and_creates_maps() {
        let mut deploy = Resource::new(json!({"kind": "Deployment", "apiVersion": "apps/v1",
            "spec": {"template": {"spec": {"containers": [{"env": [{"valueFrom": {"configMapKeyRef": {"name": "a"}}}, {"value": "x"}]}]}}}}));
        let spec =
            FieldSpec::kind("Deployment", "spec/template/spec/containers/env/valueFrom/configMapKeyRef/name", false);
        let mut seen = Vec::new();
        spec.visit(&mut deploy, &mut |v| seen.push(v.clone()));
        assert_eq!(seen, vec![json!("a")]);
        FieldSpec::any("metadata/labels", true).visit(&mut deploy, &mut |v| *v = json!({"x": "y"}));
        assert_eq!(deploy.object["metadata"], json!({"labels": {"x": "y"}}));
        assert!(!FieldSpec::grouped("batch", "Deployment", "spec", true).selects(&deploy));
    }
}
