//! The fields an object (or an applied configuration) sets, as a field set: every scalar,
//! atomic list or map, null or empty map, and every element of a keyed list or set.
//! Upstream: structured-merge-diff typed/tofieldset.go.

use super::field_set::FieldSet;
use super::list_element;
use super::path_element;
use super::schema::{self, ListType};
use serde_json::{Map, Value};

pub fn to_field_set(object: &Value) -> FieldSet {
    let mut set = FieldSet::default();
    if let Value::Object(map) = object {
        walk_map(map, &mut Vec::new(), &mut set);
    }
    set
}

fn walk_map(map: &Map<String, Value>, path: &mut Vec<String>, set: &mut FieldSet) {
    for (name, value) in map {
        path.push(path_element::field(name));
        walk_field(name, value, path, set);
        path.pop();
    }
}

fn walk_field(name: &str, value: &Value, path: &mut Vec<String>, set: &mut FieldSet) {
    match value {
        Value::Object(map) if !map.is_empty() && !schema::is_atomic_map(name) => walk_map(map, path, set),
        Value::Array(items) if schema::list_type(name, items) != ListType::Atomic => {
            for (element, item) in list_element::elements(name, items) {
                path.push(element);
                if let Value::Object(fields) = item {
                    walk_map(fields, path, set);
                }
                set.insert(path);
                path.pop();
            }
        }
        _ => set.insert(path),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apiserver::managed_fields::fields_v1;
    use serde_json::json;

    #[test]
    fn an_applied_deployment_owns_its_leaves_and_keyed_elements() {
        let config = json!({"spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "web", "image": "nginx", "ports": [{"containerPort": 80}]}]}}}});
        assert_eq!(
            fields_v1::to_json(&to_field_set(&config)),
            json!({"f:spec": {"f:replicas": {}, "f:selector": {},
                "f:template": {"f:metadata": {"f:labels": {"f:app": {}}},
                    "f:spec": {"f:containers": {"k:{\"name\":\"web\"}": {".": {}, "f:image": {}, "f:name": {},
                        "f:ports": {"k:{\"containerPort\":80,\"protocol\":\"TCP\"}": {".": {}, "f:containerPort": {}}}}}}}}})
        );
    }
}
