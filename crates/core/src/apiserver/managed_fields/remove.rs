//! Removing a field path from an object: a field from its map, an element from its list by
//! the element's key, value or position. Upstream: structured-merge-diff typed/remove.go.

use super::list_element;
use serde_json::Value;

pub fn remove(object: &mut Value, path: &[String]) {
    let Some((first, rest)) = path.split_first() else { return };
    let (Value::Object(map), Some(name)) = (object, first.strip_prefix("f:")) else { return };
    if rest.is_empty() {
        map.remove(name);
    } else if let Some(child) = map.get_mut(name) {
        remove_in(name, child, rest);
    }
}

/// Below field `name`: into a map, or into one element of a list.
fn remove_in(name: &str, value: &mut Value, path: &[String]) {
    let Value::Array(items) = value else { return remove(value, path) };
    let Some((first, rest)) = path.split_first() else { return };
    let found = list_element::elements(name, items).iter().position(|(element, _)| element == first);
    let Some(at) = found else { return };
    if rest.is_empty() {
        items.remove(at);
    } else {
        remove(&mut items[at], rest);
    }
}
