//! The path element naming one element of a list, by the list's type: its key fields
//! (a missing key read as its default), its value, or (an element without its keys) its
//! position. Upstream: typed/helpers.go `listItemToPathElement`.

use super::path_element;
use super::schema::{self, ListType};
use serde_json::{Map, Value};

pub fn element(list_type: ListType, at: usize, item: &Value) -> String {
    match list_type {
        ListType::Set => path_element::value(item),
        ListType::Map(keys) => key_of(keys, item).map(path_element::key).unwrap_or_else(|| path_element::index(at)),
        ListType::Atomic => path_element::index(at),
    }
}

fn key_of(keys: &[&str], item: &Value) -> Option<Map<String, Value>> {
    let mut fields = Map::new();
    for key in keys {
        let value = item.get(*key).cloned().or_else(|| schema::key_default(key))?;
        fields.insert((*key).to_string(), value);
    }
    Some(fields)
}

/// A list's elements, each with its path element.
pub fn elements<'a>(name: &str, items: &'a [Value]) -> Vec<(String, &'a Value)> {
    let list_type = schema::list_type(name, items);
    items.iter().enumerate().map(|(at, item)| (element(list_type, at, item), item)).collect()
}
