//! RFC 6902 JSON patches as kustomize applies them (filters/patchjson6902, which runs
//! gopkg.in/evanphx/json-patch.v5): its quirks kept — `replace` of a missing key in a map adds
//! it, `copy` from a missing key copies `null` — and its error messages word for word.

use serde_json::Value;

/// One operation, as decoded from the patch's YAML or JSON.
#[derive(Clone, Debug, PartialEq)]
pub struct Operation {
    pub op: String,
    pub path: String,
    pub from: String,
    pub value: Value,
}

/// The operations of a patch text: a JSON array, or YAML for one; `None` if it is not a list
/// of operations (then it is a strategic-merge patch).
pub fn parse(list: &Value) -> Option<Vec<Operation>> {
    let items = list.as_array()?;
    let field = |item: &Value, name: &str| item.get(name).and_then(Value::as_str).unwrap_or("").to_string();
    items
        .iter()
        .map(|item| {
            let op = field(item, "op");
            (!op.is_empty()).then(|| Operation {
                path: field(item, "path"),
                from: field(item, "from"),
                value: item.get("value").cloned().unwrap_or(Value::Null),
                op,
            })
        })
        .collect()
}

/// Applies the operations in order; the first that fails is the error.
pub fn apply(document: &mut Value, operations: &[Operation]) -> Result<(), String> {
    operations.iter().try_for_each(|operation| apply_one(document, operation))
}

fn apply_one(document: &mut Value, o: &Operation) -> Result<(), String> {
    match o.op.as_str() {
        "add" => add(document, &o.path, o.value.clone(), "add"),
        "remove" => remove(document, &o.path, "remove").map(|_| ()),
        "replace" => replace(document, &o.path, o.value.clone()),
        "move" => {
            let value = remove(document, &o.from, "move")?;
            add(document, &o.path, value, "move")
        }
        "copy" => {
            let (parent, key) = split(&o.from);
            let Some(container) = document.pointer(&parent) else {
                return Err(format!(
                    "copy operation does not apply: doc is missing from path: {}: missing value",
                    o.from
                ));
            };
            let value = child(container, &key).cloned().unwrap_or(Value::Null);
            add(document, &o.path, value, "copy")
        }
        "test" => {
            let found = document.pointer(&o.path);
            let equal = match found {
                Some(value) => *value == o.value,
                None => o.value.is_null(),
            };
            if equal { Ok(()) } else { Err(format!("testing value {} failed: test failed", o.path)) }
        }
        other => Err(format!("Unexpected kind: {other}")),
    }
}

fn add(document: &mut Value, path: &str, value: Value, op: &str) -> Result<(), String> {
    let (parent, key) = split(path);
    match document.pointer_mut(&parent) {
        Some(Value::Object(map)) => {
            map.insert(key, value);
            Ok(())
        }
        Some(Value::Array(items)) => {
            let index = if key == "-" { Some(items.len()) } else { key.parse::<usize>().ok() };
            match index {
                Some(index) if index <= items.len() => {
                    items.insert(index, value);
                    Ok(())
                }
                _ => Err(invalid_index(op, path, &key)),
            }
        }
        _ => Err(format!("add operation does not apply: doc is missing path: \"{path}\": missing value")),
    }
}

fn remove(document: &mut Value, path: &str, op: &str) -> Result<Value, String> {
    let (parent, key) = split(path);
    // evanphx names the key, not the whole path, when a move's source is missing.
    let shown = if op == "move" { key.as_str() } else { path };
    match document.pointer_mut(&parent) {
        Some(Value::Object(map)) => map.remove(&key).ok_or_else(|| {
            format!("error in {op} for path: '{shown}': Unable to remove nonexistent key: {key}: missing value")
        }),
        Some(Value::Array(items)) => match key.parse::<usize>() {
            Ok(index) if index < items.len() => Ok(items.remove(index)),
            _ => Err(invalid_index(op, shown, &key)),
        },
        _ => Err(format!("{op} operation does not apply: doc is missing path: \"{path}\": missing value")),
    }
}

fn replace(document: &mut Value, path: &str, value: Value) -> Result<(), String> {
    let (parent, key) = split(path);
    match document.pointer_mut(&parent) {
        Some(Value::Object(map)) => {
            map.insert(key, value);
            Ok(())
        }
        Some(Value::Array(items)) => match key.parse::<usize>() {
            Ok(index) if index < items.len() => {
                items[index] = value;
                Ok(())
            }
            _ => Err(invalid_index("replace", path, &key)),
        },
        _ => Err(format!("replace operation does not apply: doc is missing path: {path}: missing value")),
    }
}

fn invalid_index(op: &str, path: &str, key: &str) -> String {
    format!("error in {op} for path: '{path}': Unable to access invalid index: {key}: invalid index referenced")
}

fn child<'a>(container: &'a Value, key: &str) -> Option<&'a Value> {
    match container {
        Value::Object(map) => map.get(key),
        Value::Array(items) => key.parse::<usize>().ok().and_then(|i| items.get(i)),
        _ => None,
    }
}

/// A JSON pointer's parent (still escaped, for `pointer`) and its last token, unescaped.
fn split(path: &str) -> (String, String) {
    let (parent, last) = path.rsplit_once('/').unwrap_or(("", path));
    (parent.to_string(), last.replace("~1", "/").replace("~0", "~"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(operations: Value) -> Result<Value, String> {
        let mut document = json!({"spec": {"replicas": 1, "list": ["a", "b"]}});
        apply(&mut document, &parse(&operations).unwrap())?;
        Ok(document)
    }

    /// What kubectl 1.36's kustomize says and does (evanphx/json-patch v5).
    #[test]
    fn operations_behave_and_fail_as_evanphx_json_patch() {
        let out = run(json!([{"op": "replace", "path": "/spec/nope", "value": 1},
            {"op": "copy", "from": "/spec/nope2", "path": "/spec/x"},
            {"op": "move", "from": "/spec/list/0", "path": "/spec/list/-"},
            {"op": "test", "path": "/spec/replicas", "value": 1}]));
        assert_eq!(out.unwrap()["spec"], json!({"replicas": 1, "nope": 1, "x": null, "list": ["b", "a"]}));
        let errors = [
            (
                json!([{"op": "test", "path": "/spec/replicas", "value": 5}]),
                "testing value /spec/replicas failed: test failed",
            ),
            (
                json!([{"op": "remove", "path": "/spec/nothere"}]),
                "error in remove for path: '/spec/nothere': Unable to remove nonexistent key: nothere: missing value",
            ),
            (
                json!([{"op": "add", "path": "/spec/a/b", "value": 1}]),
                "add operation does not apply: doc is missing path: \"/spec/a/b\": missing value",
            ),
            (
                json!([{"op": "replace", "path": "/spec/a/b", "value": 1}]),
                "replace operation does not apply: doc is missing path: /spec/a/b: missing value",
            ),
            (
                json!([{"op": "copy", "from": "/spec/a/b", "path": "/spec/x"}]),
                "copy operation does not apply: doc is missing from path: /spec/a/b: missing value",
            ),
            (
                json!([{"op": "move", "from": "/spec/nope", "path": "/spec/x"}]),
                "error in move for path: 'nope': Unable to remove nonexistent key: nope: missing value",
            ),
            (
                json!([{"op": "remove", "path": "/spec/list/5"}]),
                "error in remove for path: '/spec/list/5': Unable to access invalid index: 5: invalid index referenced",
            ),
            (
                json!([{"op": "add", "path": "/spec/list/9", "value": 1}]),
                "error in add for path: '/spec/list/9': Unable to access invalid index: 9: invalid index referenced",
            ),
        ];
        for (operations, message) in errors {
            assert_eq!(run(operations).unwrap_err(), message);
        }
    }
}
