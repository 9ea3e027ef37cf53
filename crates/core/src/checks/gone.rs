//! `gone`: an object is not in the cluster (deleted, or never created). Same shape as `exists`.
//!
//! ```yaml
//! gone: {kind: Pod, name: hello-pod}
//! ```

use super::exists::ObjectRef;
use super::{Context, Verdict};

pub fn evaluate(object: &ObjectRef, ctx: &Context<'_>) -> Verdict {
    match object.is_present(ctx) {
        None => Verdict::new(false, format!("unknown kind \"{}\"", object.kind)),
        Some(true) => Verdict::new(false, format!("{} still exists", object.display())),
        Some(false) => Verdict::new(true, format!("{} is gone", object.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{check, hello_lab};

    #[test]
    fn gone_after_delete() {
        let c = check("gone: {kind: deployment, name: hello}");
        let mut lab = hello_lab(0);
        let verdict = c.evaluate(&lab.context());
        assert_eq!((verdict.passed, verdict.message.as_str()), (false, "deployment/hello still exists"));
        lab.run("kubectl delete deployment hello");
        let verdict = c.evaluate(&lab.context());
        assert_eq!((verdict.passed, verdict.message.as_str()), (true, "deployment/hello is gone"));
        assert!(!check("gone: {kind: Gizmo, name: x}").evaluate(&lab.context()).passed);
    }
}
