//! What changed between two versions of an object, as three field sets: added, removed and
//! modified. A map or keyed list that appears is itself added (`.`), unless it is a struct
//! the typed zero value holds already. Upstream: structured-merge-diff typed/compare.go.

use super::field_set::FieldSet;
use super::list_element;
use super::path_element;
use super::schema::{self, ListType};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comparison {
    pub added: FieldSet,
    pub removed: FieldSet,
    pub modified: FieldSet,
}

impl Comparison {
    /// What the newer version set: added or modified.
    pub fn changed(&self) -> FieldSet {
        self.added.union(&self.modified)
    }
}

pub fn compare(old: &Value, new: &Value) -> Comparison {
    let mut out = Comparison::default();
    let empty = Map::new();
    let (lhs, rhs) = (old.as_object().unwrap_or(&empty), new.as_object().unwrap_or(&empty));
    compare_maps(lhs, rhs, &mut Vec::new(), &mut out);
    out
}

fn compare_maps(lhs: &Map<String, Value>, rhs: &Map<String, Value>, path: &mut Vec<String>, out: &mut Comparison) {
    let names: std::collections::BTreeSet<&String> = lhs.keys().chain(rhs.keys()).collect();
    for name in names {
        path.push(path_element::field(name));
        compare_node(name, (lhs.get(name), rhs.get(name)), path, out);
        path.pop();
    }
}

/// One field or element: a leaf (scalar, atomic, or empty on both sides) or a granular map
/// or list, whose own presence is recorded after its members'.
fn compare_node(
    name: &str,
    (lhs, rhs): (Option<&Value>, Option<&Value>),
    path: &mut Vec<String>,
    out: &mut Comparison,
) {
    let granular = match (lhs, rhs) {
        (Some(Value::Object(_)) | None, Some(Value::Object(_)) | None) if !schema::is_atomic_map(name) => {
            let empty = Map::new();
            let (l, r) = (lhs.and_then(Value::as_object), rhs.and_then(Value::as_object));
            let both_empty = l.is_none_or(Map::is_empty) && r.is_none_or(Map::is_empty);
            if !both_empty {
                compare_maps(l.unwrap_or(&empty), r.unwrap_or(&empty), path, out);
            }
            !both_empty
        }
        (Some(Value::Array(_)) | None, Some(Value::Array(_)) | None) => compare_lists(name, (lhs, rhs), path, out),
        _ => false,
    };
    if !granular {
        leaf(lhs, rhs, path, out);
        return;
    }
    if schema::is_always_present(name) {
        return;
    }
    match (lhs, rhs) {
        (None, Some(_)) => out.added.insert(path),
        (Some(_), None) => out.removed.insert(path),
        _ => {}
    }
}

/// A keyed list or set compared element by element; false for an atomic or empty one.
fn compare_lists(
    name: &str,
    (lhs, rhs): (Option<&Value>, Option<&Value>),
    path: &mut Vec<String>,
    out: &mut Comparison,
) -> bool {
    let none = Vec::new();
    let l = lhs.and_then(Value::as_array).unwrap_or(&none);
    let r = rhs.and_then(Value::as_array).unwrap_or(&none);
    let sample = if r.is_empty() { l } else { r };
    if schema::list_type(name, sample) == ListType::Atomic || (l.is_empty() && r.is_empty()) {
        return false;
    }
    let mut elements: BTreeMap<String, (Option<&Value>, Option<&Value>)> = BTreeMap::new();
    for (element, item) in list_element::elements(name, l) {
        elements.entry(element).or_default().0 = Some(item);
    }
    for (element, item) in list_element::elements(name, r) {
        elements.entry(element).or_default().1 = Some(item);
    }
    for (element, pair) in elements {
        path.push(element);
        compare_node("", pair, path, out);
        path.pop();
    }
    true
}

fn leaf(lhs: Option<&Value>, rhs: Option<&Value>, path: &[String], out: &mut Comparison) {
    match (lhs, rhs) {
        (None, Some(_)) => out.added.insert(path),
        (Some(_), None) => out.removed.insert(path),
        (Some(l), Some(r)) if l != r => out.modified.insert(path),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apiserver::managed_fields::fields_v1;
    use serde_json::json;

    #[test]
    fn a_create_adds_new_maps_with_a_dot_and_structs_without() {
        let new = json!({"metadata": {"labels": {"app": "web"}},
            "spec": {"replicas": 1, "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%"}},
                "template": {"spec": {"containers": [{"name": "web", "image": "nginx", "resources": {}}]}}}});
        let diff = compare(&json!({}), &new);
        assert_eq!(
            fields_v1::to_json(&diff.added),
            json!({"f:metadata": {"f:labels": {".": {}, "f:app": {}}},
                "f:spec": {"f:replicas": {}, "f:strategy": {"f:rollingUpdate": {".": {}, "f:maxSurge": {}}, "f:type": {}},
                    "f:template": {"f:spec": {"f:containers": {"k:{\"name\":\"web\"}": {".": {}, "f:image": {}, "f:name": {}, "f:resources": {}}}}}}})
        );
    }

    #[test]
    fn a_changed_replica_count_is_modified_and_a_dropped_label_removed() {
        let old = json!({"metadata": {"labels": {"app": "web", "tier": "front"}}, "spec": {"replicas": 1}});
        let new = json!({"metadata": {"labels": {"app": "web"}}, "spec": {"replicas": 5}});
        let diff = compare(&old, &new);
        assert!(diff.added.is_empty());
        assert_eq!(fields_v1::to_json(&diff.modified), json!({"f:spec": {"f:replicas": {}}}));
        assert_eq!(fields_v1::to_json(&diff.removed), json!({"f:metadata": {"f:labels": {"f:tier": {}}}}));
    }
}
