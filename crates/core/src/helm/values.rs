//! Chart values as Helm holds them: values files read through JSON (so their numbers are
//! float64), the user's values coalesced over the chart's (pkg/chartutil/coalesce.go), and
//! printed as `helm get values` prints them.

use serde_json::{Map, Value};

use super::template::value::float_json;

/// A values file as sigs.k8s.io/yaml reads it: every number becomes a float64.
pub fn from_values_file(value: Value) -> Value {
    match value {
        Value::Number(n) => serde_json::Number::from_f64(n.as_f64().unwrap_or(0.0)).map_or(Value::Null, Value::Number),
        Value::Array(items) => Value::Array(items.into_iter().map(from_values_file).collect()),
        Value::Object(map) => Value::Object(map.into_iter().map(|(k, v)| (k, from_values_file(v))).collect()),
        other => other,
    }
}

/// Reads a values file's text (`-f`, a chart's values.yaml); an empty file is no values.
pub fn parse_values_file(text: &str) -> Result<Map<String, Value>, String> {
    if text.trim().is_empty() {
        return Ok(Map::new());
    }
    let yaml: serde_yaml::Value =
        serde_yaml::from_str(text).map_err(|e| format!("error converting YAML to JSON: yaml: {e}"))?;
    let json = crate::manifest::yaml_to_json(yaml).map_err(|e| format!("error converting YAML to JSON: {e}"))?;
    match from_values_file(json) {
        Value::Object(map) => Ok(map),
        Value::Null => Ok(Map::new()),
        _ => Err("error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type map[string]interface {}".into()),
    }
}

/// The chart's values with the user's over them; a user's `null` removes the chart's key.
pub fn coalesce(chart: &Map<String, Value>, user: &Map<String, Value>) -> Map<String, Value> {
    let mut merged = user.clone();
    coalesce_into(&mut merged, chart);
    merged
}

fn coalesce_into(dest: &mut Map<String, Value>, src: &Map<String, Value>) {
    for (key, value) in src {
        match dest.get_mut(key) {
            None => {
                dest.insert(key.clone(), value.clone());
            }
            Some(Value::Null) => {
                dest.remove(key);
            }
            Some(Value::Object(inner)) => {
                if let Value::Object(src_inner) = value {
                    coalesce_into(inner, src_inner);
                }
            }
            Some(_) => {}
        }
    }
    dest.retain(|_, v| !v.is_null());
}

/// `mergeMaps` (pkg/cli/values): values given later replace earlier ones key by key.
pub fn merge(base: &mut Map<String, Value>, over: Map<String, Value>) {
    for (key, value) in over {
        match (base.get_mut(&key), value) {
            (Some(Value::Object(inner)), Value::Object(over_inner)) => merge(inner, over_inner),
            (_, value) => {
                base.insert(key, value);
            }
        }
    }
}

/// Values as JSON prints them from Go (whole float64s without a fraction), for YAML output.
pub fn normalized(value: &Value) -> Value {
    match value {
        Value::Number(n) if n.is_f64() => float_json(n.as_f64().unwrap_or(0.0)),
        Value::Array(items) => Value::Array(items.iter().map(normalized).collect()),
        Value::Object(map) => Value::Object(map.iter().map(|(k, v)| (k.clone(), normalized(v))).collect()),
        other => other.clone(),
    }
}

/// `output.EncodeYAML` of a values map: `{}` for none.
pub fn to_yaml(values: &Map<String, Value>) -> String {
    crate::kubectl::yaml::to_yaml(&normalized(&Value::Object(values.clone())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn user_values_coalesce_over_the_charts() {
        let chart =
            json!({"replicaCount": 1, "image": {"repository": "nginx", "tag": ""}, "ingress": {"enabled": false}});
        let user = json!({"replicaCount": 3, "image": {"tag": "1.27"}, "ingress": null});
        let merged = coalesce(chart.as_object().unwrap(), user.as_object().unwrap());
        assert_eq!(Value::Object(merged), json!({"replicaCount": 3, "image": {"repository": "nginx", "tag": "1.27"}}));
    }

    #[test]
    fn values_files_read_numbers_as_float64() {
        let values = parse_values_file("replicaCount: 2\nport: 80\n").unwrap();
        assert!(values["replicaCount"].is_f64());
        assert_eq!(to_yaml(&values), "port: 80\nreplicaCount: 2\n");
    }
}
