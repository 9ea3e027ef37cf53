//! `exists`: an object of a kind with a name is in the cluster (being deleted still counts:
//! the API server still serves it).
//!
//! ```yaml
//! exists: {kind: Deployment, name: hello}
//! ```

use super::{Context, Verdict, parse_kind};
use crate::api::Kind;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// An object by kind (`Pod`, `deployment`, `svc`…), name and namespace (default `default`;
/// ignored for cluster-scoped kinds such as nodes).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ObjectRef {
    pub kind: String,
    pub name: String,
    #[serde(default)]
    pub namespace: Option<String>,
}

impl ObjectRef {
    pub fn problems(&self) -> Vec<String> {
        parse_kind(&self.kind).err().into_iter().collect()
    }

    /// `deployment/hello`, as kubectl names objects.
    pub fn display(&self) -> String {
        let place = super::in_namespace(&self.namespace);
        match parse_kind(&self.kind) {
            Ok(kind) => format!("{}/{}{place}", kind.info().singular, self.name),
            Err(_) => format!("{}/{}{place}", self.kind, self.name),
        }
    }

    /// Whether the object is in the store; `None` when the kind is unknown.
    pub fn is_present(&self, ctx: &Context<'_>) -> Option<bool> {
        let kind: Kind = parse_kind(&self.kind).ok()?;
        let namespace = super::namespace_or_default(&self.namespace);
        Some(ctx.api().get(kind, namespace, &self.name).is_ok())
    }
}

pub fn evaluate(object: &ObjectRef, ctx: &Context<'_>) -> Verdict {
    match object.is_present(ctx) {
        None => Verdict::new(false, format!("unknown kind \"{}\"", object.kind)),
        Some(true) => Verdict::new(true, format!("{} exists", object.display())),
        Some(false) => Verdict::new(false, format!("{} does not exist yet", object.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{check, empty_lab, hello_lab};

    #[test]
    fn present_and_absent_objects() {
        let c = check("exists: {kind: deploy, name: hello}");
        assert_eq!(c.evaluate(&hello_lab(0).context()).message, "deployment/hello exists");
        assert!(c.evaluate(&hello_lab(0).context()).passed);
        let verdict = c.evaluate(&empty_lab().context());
        assert_eq!((verdict.passed, verdict.message.as_str()), (false, "deployment/hello does not exist yet"));
        let node = check("exists: {kind: Node, name: node-2, namespace: elsewhere}");
        assert!(node.evaluate(&empty_lab().context()).passed);
    }

    #[test]
    fn unknown_kinds_are_problems() {
        let c = check("exists: {kind: Widget, name: w}");
        assert_eq!(c.problems(), vec!["unknown kind \"Widget\"".to_string()]);
        assert!(!c.evaluate(&empty_lab().context()).passed);
    }
}
