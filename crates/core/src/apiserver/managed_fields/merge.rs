//! An applied configuration merged into the live object, by the schema: maps field by field,
//! keyed lists element by element (new elements after the live ones), sets by value, and
//! everything atomic replaced whole. Upstream: structured-merge-diff typed/merge.go.

use super::list_element;
use super::schema::{self, ListType};
use serde_json::{Map, Value};

pub fn merge(live: &Value, config: &Value) -> Value {
    match (live, config) {
        (Value::Object(live), Value::Object(config)) => Value::Object(merge_maps(live, config)),
        _ => config.clone(),
    }
}

fn merge_maps(live: &Map<String, Value>, config: &Map<String, Value>) -> Map<String, Value> {
    let mut out = live.clone();
    for (name, value) in config {
        if value.is_null() {
            out.remove(name);
            continue;
        }
        let merged = match out.get(name) {
            Some(current) => merge_field(name, current, value),
            None => value.clone(),
        };
        out.insert(name.clone(), merged);
    }
    out
}

fn merge_field(name: &str, live: &Value, config: &Value) -> Value {
    match (live, config) {
        (Value::Object(l), Value::Object(c)) if !schema::is_atomic_map(name) => Value::Object(merge_maps(l, c)),
        (Value::Array(l), Value::Array(c)) if schema::list_type(name, c) != ListType::Atomic => {
            Value::Array(merge_lists(name, l, c))
        }
        _ => config.clone(),
    }
}

fn merge_lists(name: &str, live: &[Value], config: &[Value]) -> Vec<Value> {
    let mut out: Vec<(String, Value)> =
        list_element::elements(name, live).into_iter().map(|(element, item)| (element, item.clone())).collect();
    for (element, item) in list_element::elements(name, config) {
        match out.iter_mut().find(|(e, _)| *e == element) {
            Some((_, current)) => *current = merge_field("", current, item),
            None => out.push((element, item.clone())),
        }
    }
    out.into_iter().map(|(_, item)| item).collect()
}
