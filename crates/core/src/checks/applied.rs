//! `applied`: what `kubectl apply` remembers of an object — its
//! `kubectl.kubernetes.io/last-applied-configuration` annotation, read as the JSON it is — has
//! a value at a path. A task about applying the file reads the field it is about, so an edit
//! elsewhere in the file does not fail it, and `kubectl scale` (which leaves the memory alone)
//! does not pass it.
//!
//! ```yaml
//! applied: {kind: deploy, name: hello, path: .spec.replicas, equals: 4}
//! ```

use super::field::read_object;
use super::{Context, Verdict, parse_kind};
use crate::kubectl::jsonpath::{Template, relaxed, to_text};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AppliedCheck {
    pub kind: String,
    pub name: String,
    #[serde(default)]
    pub namespace: Option<String>,
    /// A path into the applied object (`.spec.replicas`, `.spec.template.spec.containers[0].image`).
    pub path: String,
    /// The value it must have there (compared as `kubectl get -o jsonpath` prints it).
    pub equals: Value,
}

impl AppliedCheck {
    pub fn problems(&self) -> Vec<String> {
        let mut problems: Vec<String> = parse_kind(&self.kind).err().into_iter().collect();
        problems.extend(Template::parse(&relaxed(&self.path)).err().map(|e| format!("JSONPath {:?}: {e}", self.path)));
        problems
    }

    pub fn evaluate(&self, ctx: &Context<'_>) -> Verdict {
        let (object_name, document, path) = match read_object(ctx, &self.kind, &self.namespace, &self.name, &self.path)
        {
            Ok(read) => read,
            Err(verdict) => return verdict,
        };
        let remembered = document["metadata"]["annotations"][LAST_APPLIED].as_str();
        let Some(applied) = remembered.and_then(|text| serde_json::from_str::<Value>(text).ok()) else {
            return Verdict::new(false, format!("{object_name} was never changed with kubectl apply"));
        };
        let found: Vec<String> = path.find_results(&applied).into_iter().flatten().map(|v| to_text(&v)).collect();
        let want = to_text(&self.equals);
        let applied_field = format!("the last applied {object_name} has {}", self.path);
        if found.is_empty() {
            return Verdict::new(false, format!("{applied_field} unset (want {want})"));
        }
        let actual = found.join(" ");
        let passed = actual == want;
        let suffix = if passed { String::new() } else { format!(" (want {want})") };
        Verdict::new(passed, format!("{applied_field} = {actual}{suffix}"))
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{check, hello_lab};

    #[test]
    fn reads_what_apply_remembers() {
        let mut lab = hello_lab(10);
        let four = check("applied: {kind: deploy, name: hello, path: .spec.replicas, equals: 4}");
        let verdict = four.evaluate(&lab.context());
        assert_eq!(verdict.message, "the last applied deployment/hello has .spec.replicas = 3 (want 4)");
        lab.run("kubectl scale deployment hello --replicas=4");
        assert!(!four.evaluate(&lab.context()).passed, "scale leaves apply's memory alone");
        let image = check(
            "applied: {kind: deploy, name: hello, path: '.spec.template.spec.containers[0].image', equals: hello:v1}",
        );
        assert!(image.evaluate(&lab.context()).passed);
        let other = check("applied: {kind: pod, name: nope, path: .spec, equals: 1}");
        assert_eq!(other.evaluate(&lab.context()).message, "pod/nope does not exist yet");
    }
}
