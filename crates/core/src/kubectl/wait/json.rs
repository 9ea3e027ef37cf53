//! `--for=jsonpath='{.status.phase}'=Running`: the one value a JSONPath expression finds
//! equals the one given (or, without a value, the expression finds anything). Mirrors
//! staging/src/k8s.io/kubectl/pkg/cmd/wait/json.go.

use crate::kubectl::jsonpath::{Template, to_text};
use serde_json::Value;

/// A JSONPath condition (`JSONPathWait`).
#[derive(Clone, Debug, PartialEq)]
pub struct JsonPathWait {
    /// Empty: any value found will do (`matchAnyValue`).
    json_path_value: String,
    json_path_parser: Template,
}

impl JsonPathWait {
    /// `newJSONPathParser` over an expression already relaxed to `{…}`.
    pub fn new(expression: &str, value: &str) -> Result<JsonPathWait, String> {
        if expression.is_empty() {
            return Err("jsonpath expression cannot be empty".into());
        }
        let json_path_parser = Template::parse(expression)?;
        Ok(JsonPathWait { json_path_value: value.into(), json_path_parser })
    }

    /// `checkCondition`: nothing found is not met yet; more than one value is an error.
    pub fn check_condition(&self, object: &Value) -> Result<bool, String> {
        let results = self.json_path_parser.find_results(object);
        let Some(first) = results.first().filter(|values| !values.is_empty()) else { return Ok(false) };
        if results.len() > 1 {
            return Err("given jsonpath expression matches more than one list".into());
        }
        let [value] = first.as_slice() else {
            return Err("given jsonpath expression matches more than one value".into());
        };
        if self.json_path_value.is_empty() {
            return Ok(true);
        }
        compare_results(value, &self.json_path_value)
    }
}

/// `compareResults`: a scalar as Go's `%v` prints it, both sides trimmed.
fn compare_results(found: &Value, expected: &str) -> Result<bool, String> {
    if found.is_object() || found.is_array() {
        return Err("jsonpath leads to a nested object or list which is not supported".into());
    }
    Ok(to_text(found).trim() == expected.trim())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn met(expression: &str, value: &str, object: Value) -> Result<bool, String> {
        JsonPathWait::new(expression, value).unwrap().check_condition(&object)
    }

    #[test]
    fn values_are_compared_as_text() {
        let pod = json!({"status": {"phase": "Running", "readyReplicas": 3, "ok": true, "conditions": [
            {"type": "Ready", "status": "True"}, {"type": "Scheduled", "status": "True"}
        ]}});
        assert_eq!(met("{.status.phase}", "Running", pod.clone()), Ok(true));
        assert_eq!(met("{.status.phase}", "Pending", pod.clone()), Ok(false));
        assert_eq!(met("{.status.readyReplicas}", " 3 ", pod.clone()), Ok(true));
        assert_eq!(met("{.status.ok}", "true", pod.clone()), Ok(true));
        assert_eq!(met(r#"{.status.conditions[?(@.type=="Ready")].status}"#, "True", pod.clone()), Ok(true));
        assert_eq!(met("{.status.podIP}", "", pod.clone()), Ok(false));
        assert_eq!(met("{.status.phase}", "", pod.clone()), Ok(true));
        assert_eq!(
            met("{.status.conditions[*].status}", "True", pod.clone()),
            Err("given jsonpath expression matches more than one value".into())
        );
        assert_eq!(
            met("{.status.conditions}", "True", pod),
            Err("jsonpath leads to a nested object or list which is not supported".into())
        );
    }
}
