//! `field`: one field of an object, found by a JSONPath subset, equals a value (compared as
//! `kubectl get -o jsonpath` prints it, so `5`, `"5"` and `True` mean what they look like).
//!
//! ```yaml
//! field: {kind: deployment, name: hello, path: '.status.conditions[?(@.type=="Available")].status', equals: "True"}
//! ```

use super::exists::ObjectRef;
use super::{Context, Verdict, namespace_or_default, parse_kind};
use crate::kubectl::jsonpath::{Template, relaxed, to_text};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FieldCheck {
    pub kind: String,
    pub name: String,
    #[serde(default)]
    pub namespace: Option<String>,
    /// `.spec.replicas`, `.status.conditions[?(@.type=="Available")].status`, `.spec.template.spec.containers[0].image`.
    pub path: String,
    /// The value the field must have (a string, number or boolean).
    pub equals: Value,
}

impl FieldCheck {
    pub fn problems(&self) -> Vec<String> {
        let object = ObjectRef { kind: self.kind.clone(), name: self.name.clone(), namespace: None };
        let mut problems = object.problems();
        problems.extend(Template::parse(&relaxed(&self.path)).err().map(|e| format!("JSONPath {:?}: {e}", self.path)));
        problems
    }

    pub fn evaluate(&self, ctx: &Context<'_>) -> Verdict {
        let (kind, path) = match (parse_kind(&self.kind), Template::parse(&relaxed(&self.path))) {
            (Ok(kind), Ok(path)) => (kind, path),
            (Err(e), _) | (_, Err(e)) => return Verdict::new(false, e),
        };
        let object_name = format!("{}/{}", kind.info().singular, self.name);
        let Ok(object) = ctx.api().get(kind, namespace_or_default(&self.namespace), &self.name) else {
            return Verdict::new(false, format!("{object_name} does not exist yet"));
        };
        let document = object.to_json_value();
        // The same JSONPath as `kubectl get -o jsonpath`, so a check reads what the learner sees.
        let found: Vec<String> = path.find_results(&document).into_iter().flatten().map(|v| to_text(&v)).collect();
        let want = to_text(&self.equals);
        if found.is_empty() {
            return Verdict::new(false, format!("{object_name} has no {} yet (want {want})", self.path));
        }
        let actual = found.join(" ");
        let passed = actual == want;
        let suffix = if passed { String::new() } else { format!(" (want {want})") };
        Verdict::new(passed, format!("{object_name} {} is {actual}{suffix}", self.path))
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{check, empty_lab, hello_lab};

    #[test]
    fn numbers_and_filtered_conditions() {
        let replicas = check("field: {kind: deployment, name: hello, path: .spec.replicas, equals: 3}");
        let verdict = replicas.evaluate(&hello_lab(0).context());
        assert_eq!((verdict.passed, verdict.message.as_str()), (true, "deployment/hello .spec.replicas is 3"));
        let available = check(
            "field: {kind: deployment, name: hello, path: '.status.conditions[?(@.type==\"Available\")].status', equals: 'True'}",
        );
        let verdict = available.evaluate(&hello_lab(2).context());
        assert!(!verdict.passed);
        assert_eq!(
            verdict.message,
            "deployment/hello .status.conditions[?(@.type==\"Available\")].status is False (want True)"
        );
        assert!(available.evaluate(&hello_lab(10).context()).passed);
    }

    #[test]
    fn missing_objects_and_fields() {
        let c = check("field: {kind: deployment, name: hello, path: .spec.paused, equals: true}");
        assert_eq!(c.evaluate(&empty_lab().context()).message, "deployment/hello does not exist yet");
        assert_eq!(c.evaluate(&hello_lab(0).context()).message, "deployment/hello has no .spec.paused yet (want true)");
        assert_eq!(check("field: {kind: pod, name: x, path: '.spec[', equals: 1}").problems().len(), 1);
    }
}
