//! The subset of strategic merge patch that `kubectl patch` (its default `--type strategic`)
//! applies here. Mirrors apimachinery/pkg/util/strategicpatch for the lists people patch:
//! containers, initContainers, volumes, env, imagePullSecrets and conditions merge by `name`
//! (`type` for conditions), container ports by `containerPort`, Service ports by `port`,
//! volumeMounts by `mountPath`; every other list (tolerations, args, command, finalizers …)
//! is replaced whole. Maps merge as in a JSON merge patch (`null` deletes a key); the
//! directives `$patch: replace` (on a map) and `$patch: delete` (on a list item) are honoured.

use serde_json::{Map, Value};

/// Applies `patch` to `target` in place.
pub fn apply(target: &mut Value, patch: &Value) {
    let Value::Object(patch_map) = patch else {
        *target = patch.clone();
        return;
    };
    if patch_map.get("$patch").and_then(Value::as_str) == Some("replace") {
        let mut replaced = patch_map.clone();
        replaced.remove("$patch");
        *target = Value::Object(replaced);
        return;
    }
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    let Value::Object(target_map) = target else { return };
    for (key, value) in patch_map {
        if directive(target_map, key, value) {
            continue;
        }
        match value {
            Value::Null => {
                target_map.remove(key);
            }
            Value::Object(_) => apply(target_map.entry(key.clone()).or_insert(Value::Null), value),
            Value::Array(items) => match (merge_key(key, items), target_map.get_mut(key)) {
                (Some(merge_key), Some(Value::Array(existing))) => merge_list(existing, items, merge_key),
                _ => {
                    let kept: Vec<Value> = items.iter().filter(|i| !is_delete(i)).cloned().collect();
                    target_map.insert(key.clone(), Value::Array(kept));
                }
            },
            other => {
                target_map.insert(key.clone(), other.clone());
            }
        }
    }
}

/// The directives client-side `kubectl apply` sends beside the fields: `$setElementOrder/F`
/// (the order of a merged list, which here keeps the live order), `$retainKeys` (the only
/// keys of this map that stay, as `spec.strategy` uses it), `$deleteFromPrimitiveList/F` and a
/// map's own `$patch: merge`. Returns whether `key` was one.
fn directive(target: &mut Map<String, Value>, key: &str, value: &Value) -> bool {
    if key.starts_with("$setElementOrder/") || key == "$patch" {
        return true;
    }
    if key == "$retainKeys" {
        let keep: Vec<&str> =
            value.as_array().map(|a| a.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
        target.retain(|k, _| keep.contains(&k.as_str()));
        return true;
    }
    if let Some(field) = key.strip_prefix("$deleteFromPrimitiveList/") {
        if let (Some(Value::Array(items)), Some(gone)) = (target.get_mut(field), value.as_array()) {
            items.retain(|item| !gone.contains(item));
        }
        return true;
    }
    false
}

/// The merge key of a list field, judged by its name and (for `ports`) its items.
fn merge_key(field: &str, items: &[Value]) -> Option<&'static str> {
    match field {
        "containers" | "initContainers" | "volumes" | "env" | "imagePullSecrets" => Some("name"),
        "conditions" => Some("type"),
        "volumeMounts" => Some("mountPath"),
        "ports" if items.iter().any(|i| i.get("containerPort").is_some()) => Some("containerPort"),
        "ports" => Some("port"),
        _ => None,
    }
}

fn is_delete(item: &Value) -> bool {
    item.get("$patch").and_then(Value::as_str) == Some("delete")
}

fn merge_list(existing: &mut Vec<Value>, items: &[Value], merge_key: &str) {
    for item in items {
        let key = item.get(merge_key);
        let position = key.and_then(|k| existing.iter().position(|e| e.get(merge_key) == Some(k)));
        match (is_delete(item), position) {
            (true, Some(at)) => {
                existing.remove(at);
            }
            (true, None) => {}
            (false, Some(at)) => apply(&mut existing[at], item),
            (false, None) => existing.push(item.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::apply;

    #[test]
    fn client_side_applys_directives_are_honoured_not_stored() {
        let mut live = serde_json::json!({"spec": {
            "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}},
            "template": {"spec": {"containers": [{"name": "web", "image": "v1"}]}},
            "finalizers": ["a", "b"]}});
        let patch = serde_json::json!({"spec": {
            "strategy": {"$retainKeys": ["type"], "type": "Recreate"},
            "template": {"spec": {"$setElementOrder/containers": [{"name": "web"}], "containers": [{"name": "web", "image": "v2"}]}},
            "$deleteFromPrimitiveList/finalizers": ["a"]}});
        apply(&mut live, &patch);
        assert_eq!(
            live,
            serde_json::json!({"spec": {
                "strategy": {"type": "Recreate"},
                "template": {"spec": {"containers": [{"name": "web", "image": "v2"}]}},
                "finalizers": ["b"]}})
        );
    }
    use serde_json::json;

    #[test]
    fn containers_merge_by_name_and_other_lists_are_replaced() {
        let mut target = json!({"spec": {"containers": [
            {"name": "app", "image": "a:1", "env": [{"name": "A", "value": "1"}]},
            {"name": "side", "image": "s:1"}
        ], "tolerations": [{"key": "x"}]}});
        let patch = json!({"spec": {"containers": [
            {"name": "app", "image": "a:2", "env": [{"name": "B", "value": "2"}]},
            {"name": "side", "$patch": "delete"}
        ], "tolerations": [{"key": "y"}]}});
        apply(&mut target, &patch);
        assert_eq!(
            target,
            json!({"spec": {"containers": [
                {"name": "app", "image": "a:2", "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}]}
            ], "tolerations": [{"key": "y"}]}})
        );
    }

    #[test]
    fn null_deletes_and_replace_directive_replaces_a_map() {
        let mut target = json!({"metadata": {"labels": {"a": "1", "b": "2"}}});
        apply(&mut target, &json!({"metadata": {"labels": {"a": null, "c": "3"}}}));
        assert_eq!(target, json!({"metadata": {"labels": {"b": "2", "c": "3"}}}));
        apply(&mut target, &json!({"metadata": {"labels": {"$patch": "replace", "z": "9"}}}));
        assert_eq!(target, json!({"metadata": {"labels": {"z": "9"}}}));
    }
}
