//! One step of a field path, in the string form `fieldsV1` keys use (fieldpath.PathElement):
//! `f:name` a field, `k:{"name":"web"}` an associative list's element by its keys, `v:"a"` a
//! set's element by its value, `i:0` an element by index; and the dotted form conflicts print.

use serde_json::{Map, Value};

/// A struct or map field.
pub fn field(name: &str) -> String {
    format!("f:{name}")
}

/// An associative list's element, named by its key fields (sorted, as upstream keeps them).
pub fn key(fields: Map<String, Value>) -> String {
    format!("k:{}", Value::Object(fields))
}

/// A set's element, named by its value.
pub fn value(item: &Value) -> String {
    format!("v:{item}")
}

/// An element named by its position (a keyed list's element that lacks its keys).
pub fn index(at: usize) -> String {
    format!("i:{at}")
}

/// A path as upstream's `fieldpath.Path.String()` prints it: `.spec.replicas`,
/// `.spec.containers[name="web"].image`, `.metadata.finalizers[="a"]`.
pub fn display(path: &[String]) -> String {
    path.iter().map(|element| display_one(element)).collect()
}

fn display_one(element: &str) -> String {
    let (tag, rest) = element.split_at(element.len().min(2));
    match tag {
        "f:" => format!(".{rest}"),
        "v:" => format!("[={rest}]"),
        "i:" => format!("[{rest}]"),
        "k:" => match serde_json::from_str::<Map<String, Value>>(rest) {
            Ok(keys) => {
                let pairs: Vec<String> = keys.iter().map(|(name, value)| format!("{name}={value}")).collect();
                format!("[{}]", pairs.join(","))
            }
            Err(_) => "{{invalid path element}}".to_string(),
        },
        _ => "{{invalid path element}}".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_print_as_upstream_prints_them() {
        let Value::Object(keys) = json!({"protocol": "TCP", "containerPort": 80}) else { unreachable!() };
        let path = [field("spec"), field("ports"), key(keys), field("name")];
        assert_eq!(path[2], r#"k:{"containerPort":80,"protocol":"TCP"}"#);
        assert_eq!(display(&path), r#".spec.ports[containerPort=80,protocol="TCP"].name"#);
        assert_eq!(display(&[field("finalizers"), value(&json!("a")), index(2)]), r#".finalizers[="a"][2]"#);
    }
}
