//! `deployment`: a Deployment's replica counts (desired, ready, up to date, available) and the
//! image its pod template runs, read as `kubectl get deployment` shows them.
//!
//! ```yaml
//! deployment: {name: hello, ready_replicas: 3, image: hello:v2}
//! ```

use super::{Context, Verdict, namespace_or_default};
use crate::api::Deployment;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeploymentCheck {
    pub name: String,
    #[serde(default)]
    pub namespace: Option<String>,
    /// `.spec.replicas`: how many the learner asked for.
    #[serde(default)]
    pub replicas: Option<i32>,
    #[serde(default)]
    pub ready_replicas: Option<i32>,
    /// UP-TO-DATE: pods running the current template.
    #[serde(default)]
    pub updated_replicas: Option<i32>,
    #[serde(default)]
    pub available_replicas: Option<i32>,
    /// The image of the pod template's containers (any of them).
    #[serde(default)]
    pub image: Option<String>,
}

impl DeploymentCheck {
    pub fn evaluate(&self, ctx: &Context<'_>) -> Verdict {
        let namespace = namespace_or_default(&self.namespace);
        let Some(deployment) = ctx.store.try_get::<Deployment>(namespace, &self.name) else {
            let place = super::in_namespace(&self.namespace);
            return Verdict::new(false, format!("there is no deployment {}{place} yet", self.name));
        };
        let status = &deployment.status;
        let desired = deployment.spec.replicas.unwrap_or(1);
        let ready = status.ready_replicas.unwrap_or(0);
        let updated = status.updated_replicas.unwrap_or(0);
        let available = status.available_replicas.unwrap_or(0);
        let images: Vec<&str> =
            deployment.spec.template.spec.containers.iter().filter_map(|c| c.image.as_deref()).collect();
        let mut wanted = Vec::new();
        let mut want = |actual: i32, expected: Option<i32>, what: &str| {
            if let Some(expected) = expected.filter(|e| *e != actual) {
                wanted.push(format!("{expected} {what}"));
            }
        };
        want(desired, self.replicas, "desired");
        want(ready, self.ready_replicas, "ready");
        want(updated, self.updated_replicas, "up to date");
        want(available, self.available_replicas, "available");
        if let Some(image) = self.image.as_deref().filter(|i| !images.contains(i)) {
            wanted.push(format!("image {image}"));
        }
        let mut message = format!(
            "deployment {}: {ready}/{desired} ready, {updated} up to date, {available} available, image {}",
            self.name,
            images.join(",")
        );
        if !wanted.is_empty() {
            message.push_str(&format!(" (want {})", wanted.join(", ")));
        }
        Verdict::new(wanted.is_empty(), message)
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{check, empty_lab, hello_lab};

    #[test]
    fn replica_counts_and_image() {
        let c = check("deployment: {name: hello, ready_replicas: 3, available_replicas: 3, image: 'hello:v1'}");
        let verdict = c.evaluate(&hello_lab(2).context());
        assert!(!verdict.passed);
        assert_eq!(
            verdict.message,
            "deployment hello: 0/3 ready, 3 up to date, 0 available, image hello:v1 (want 3 ready, 3 available)"
        );
        let verdict = c.evaluate(&hello_lab(10).context());
        assert!(verdict.passed);
        assert_eq!(verdict.message, "deployment hello: 3/3 ready, 3 up to date, 3 available, image hello:v1");
    }

    #[test]
    fn a_different_image_or_scale_is_named() {
        let mut lab = hello_lab(10);
        lab.run("kubectl scale deployment hello --replicas=5");
        let c = check("deployment: {name: hello, replicas: 5, image: 'hello:v2'}");
        let verdict = c.evaluate(&lab.context());
        assert_eq!(
            verdict.message,
            "deployment hello: 3/5 ready, 5 up to date, 3 available, image hello:v1 (want image hello:v2)"
        );
        assert!(!verdict.passed);
    }

    #[test]
    fn a_missing_deployment_fails() {
        let verdict = check("deployment: {name: hello}").evaluate(&empty_lab().context());
        assert_eq!((verdict.passed, verdict.message.as_str()), (false, "there is no deployment hello yet"));
    }
}
