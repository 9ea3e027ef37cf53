//! A field set to and from its `fieldsV1` JSON (upstream `Set.ToJSON` / `FromJSON`): each
//! path element a key, a leaf `{}`, `"."` for a member that also has members below it.

use super::field_set::FieldSet;
use serde_json::{Map, Value};

/// The `fieldsV1` object of `set`. serde_json's map sorts its keys, which is upstream's order
/// (`.` first, then fields, keys, values).
pub fn to_json(set: &FieldSet) -> Value {
    Value::Object(children_json(set))
}

fn children_json(set: &FieldSet) -> Map<String, Value> {
    let mut out = Map::new();
    for (element, child) in &set.children {
        let mut map = children_json(child);
        if child.member && !map.is_empty() {
            map.insert(".".into(), Value::Object(Map::new()));
        }
        out.insert(element.clone(), Value::Object(map));
    }
    out
}

/// The set a `fieldsV1` object holds; what is not an object reads as the empty set.
pub fn from_json(value: &Value) -> FieldSet {
    let mut set = FieldSet::default();
    if let Value::Object(map) = value {
        read(map, &mut Vec::new(), &mut set);
    }
    set
}

fn read(map: &Map<String, Value>, prefix: &mut Vec<String>, set: &mut FieldSet) {
    for (element, child) in map {
        if element == "." {
            set.insert(prefix);
            continue;
        }
        prefix.push(element.clone());
        match child.as_object() {
            Some(grand) if !grand.is_empty() => read(grand, prefix, set),
            _ => set.insert(prefix),
        }
        prefix.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fields_v1_round_trips_with_dots_for_members_with_children() {
        let json = json!({"f:metadata": {"f:labels": {".": {}, "f:app": {}}},
            "f:spec": {"f:containers": {"k:{\"name\":\"web\"}": {".": {}, "f:image": {}}}, "f:replicas": {}}});
        let set = from_json(&json);
        assert_eq!(set.members().len(), 5);
        assert_eq!(to_json(&set), json);
        assert_eq!(
            to_json(&set).to_string(),
            r#"{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:image":{}}},"f:replicas":{}}}"#
        );
    }
}
