//! `field`: one field of an object, found by a JSONPath subset, equals a value (compared as
//! `kubectl get -o jsonpath` prints it, so `5`, `"5"` and `True` mean what they look like), is
//! present or absent, or is a quantity within bounds (`1`, `1000m` and `"1"` are the same CPU).
//!
//! ```yaml
//! field: {kind: deployment, name: hello, path: '.status.conditions[?(@.type=="Available")].status', equals: "True"}
//! field: {kind: pod, name: slow, path: '.spec.containers[*].startupProbe', present: true}
//! field: {kind: deploy, name: big, path: '.spec.template.spec.containers[0].resources.requests.cpu', at_most: "1"}
//! ```

use super::exists::ObjectRef;
use super::{Context, Verdict, namespace_or_default, parse_kind};
use crate::api::quantity::Quantity;
use crate::kubectl::jsonpath::{Template, relaxed, to_text};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::cmp::Ordering;

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
    #[serde(default)]
    pub equals: Option<Value>,
    /// Whether the path must find something (true) or nothing (false).
    #[serde(default)]
    pub present: Option<bool>,
    /// The field, a quantity (`500m`, `64Mi`), must be at least this.
    #[serde(default)]
    pub at_least: Option<String>,
    /// The field, a quantity, must be at most this.
    #[serde(default)]
    pub at_most: Option<String>,
}

/// The object a field check reads, as JSON, with its name as messages give it
/// (`deployment/hello`) and the parsed path; or the failing verdict that says why not.
pub(super) fn read_object(
    ctx: &Context<'_>,
    kind: &str,
    namespace: &Option<String>,
    name: &str,
    path: &str,
) -> Result<(String, Value, Template), Verdict> {
    let (kind, path) = match (parse_kind(kind), Template::parse(&relaxed(path))) {
        (Ok(kind), Ok(path)) => (kind, path),
        (Err(e), _) | (_, Err(e)) => return Err(Verdict::new(false, e)),
    };
    let object_name = format!("{}/{}", kind.info().singular, name);
    let Ok(object) = ctx.api().get(kind, namespace_or_default(namespace), name) else {
        let place = super::in_namespace(namespace);
        return Err(Verdict::new(false, format!("{object_name}{place} does not exist yet")));
    };
    Ok((object_name, object.to_json_value(), path))
}

impl FieldCheck {
    pub fn problems(&self) -> Vec<String> {
        let object = ObjectRef { kind: self.kind.clone(), name: self.name.clone(), namespace: None };
        let mut problems = object.problems();
        problems.extend(Template::parse(&relaxed(&self.path)).err().map(|e| format!("JSONPath {:?}: {e}", self.path)));
        let tests = [self.equals.is_some(), self.present.is_some(), self.at_least.is_some() || self.at_most.is_some()];
        if tests.iter().filter(|t| **t).count() != 1 {
            problems.push("field: give one of equals, present, or at_least/at_most".into());
        }
        for bound in [&self.at_least, &self.at_most].into_iter().flatten() {
            if Quantity::parse(bound).is_err() {
                problems.push(format!("field: {bound:?} is not a quantity"));
            }
        }
        problems
    }

    pub fn evaluate(&self, ctx: &Context<'_>) -> Verdict {
        let (object_name, document, path) = match read_object(ctx, &self.kind, &self.namespace, &self.name, &self.path)
        {
            Ok(read) => read,
            Err(verdict) => return verdict,
        };
        // The same JSONPath as `kubectl get -o jsonpath`, so a check reads what the learner sees.
        let found: Vec<String> = path.find_results(&document).into_iter().flatten().map(|v| to_text(&v)).collect();
        let field = format!("{object_name} {}", self.path);
        if let Some(present) = self.present {
            return match (found.is_empty(), present) {
                (true, true) => Verdict::new(false, format!("{field} is not set (want it set)")),
                (true, false) => Verdict::new(true, format!("{field} is not set")),
                (false, true) => Verdict::new(true, format!("{field} is set")),
                (false, false) => Verdict::new(false, format!("{field} is set (want it left out)")),
            };
        }
        let want = self.wanted();
        if found.is_empty() {
            return Verdict::new(false, format!("{field} is not set (want {want})"));
        }
        let actual = found.join(" ");
        let passed = match &self.equals {
            Some(equals) => actual == to_text(equals),
            None => found.iter().all(|value| self.within_bounds(value)),
        };
        let suffix = if passed { String::new() } else { format!(" (want {want})") };
        Verdict::new(passed, format!("{field} is {actual}{suffix}"))
    }

    /// What the check wants, for messages: `3`, `at most 1`, `at least 32Mi and at most 64Mi`.
    fn wanted(&self) -> String {
        if let Some(equals) = &self.equals {
            return to_text(equals);
        }
        let bounds: Vec<String> = [("at least", &self.at_least), ("at most", &self.at_most)]
            .into_iter()
            .filter_map(|(word, bound)| bound.as_ref().map(|b| format!("{word} {b}")))
            .collect();
        bounds.join(" and ")
    }

    /// Whether a quantity lies within `at_least`..=`at_most` (a value that is no quantity does not).
    fn within_bounds(&self, value: &str) -> bool {
        let Ok(value) = Quantity::parse(value) else { return false };
        let holds = |bound: &Option<String>, wanted: Ordering| {
            bound.as_deref().is_none_or(|b| Quantity::parse(b).is_ok_and(|b| value.cmp_value(&b) != wanted))
        };
        holds(&self.at_least, Ordering::Less) && holds(&self.at_most, Ordering::Greater)
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
        assert_eq!(c.evaluate(&hello_lab(0).context()).message, "deployment/hello .spec.paused is not set (want true)");
        assert_eq!(check("field: {kind: pod, name: x, path: '.spec[', equals: 1}").problems().len(), 1);
        assert_eq!(check("field: {kind: pod, name: x, path: '.spec'}").problems().len(), 1, "no test given");
        assert_eq!(check("field: {kind: pod, name: x, path: '.spec', at_most: lots}").problems().len(), 1);
    }

    #[test]
    fn presence_and_quantity_bounds() {
        let lab = hello_lab(10);
        let probe = "kind: deploy, name: hello, path: '.spec.template.spec.containers[*].readinessProbe'";
        let verdict = check(&format!("field: {{{probe}, present: true}}")).evaluate(&lab.context());
        assert_eq!(
            (verdict.passed, verdict.message.as_str()),
            (true, "deployment/hello .spec.template.spec.containers[*].readinessProbe is set")
        );
        let startup = "kind: deploy, name: hello, path: '.spec.template.spec.containers[*].startupProbe'";
        let verdict = check(&format!("field: {{{startup}, present: true}}")).evaluate(&lab.context());
        assert_eq!(
            verdict.message,
            "deployment/hello .spec.template.spec.containers[*].startupProbe is not set (want it set)"
        );
        assert!(check(&format!("field: {{{startup}, present: false}}")).evaluate(&lab.context()).passed);
        let cpu = "kind: deploy, name: hello, path: '.spec.template.spec.containers[0].resources.requests.cpu'";
        let verdict = check(&format!("field: {{{cpu}, at_most: 40m}}")).evaluate(&lab.context());
        assert_eq!(
            verdict.message,
            "deployment/hello .spec.template.spec.containers[0].resources.requests.cpu is 50m (want at most 40m)"
        );
        assert!(check(&format!("field: {{{cpu}, at_least: 50m, at_most: '0.05'}}")).evaluate(&lab.context()).passed);
    }
}
