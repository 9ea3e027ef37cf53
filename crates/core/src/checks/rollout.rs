//! `rollout`: a Deployment's rollout is complete, still progressing, or stuck (past its
//! progress deadline), judged as `kubectl rollout status` judges it.
//!
//! ```yaml
//! rollout: {name: hello, state: complete}
//! ```

use super::{Context, Verdict, namespace_or_default};
use crate::api::Deployment;
use crate::kubectl::rollout::status::deployment_status;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RolloutState {
    /// `successfully rolled out`.
    Complete,
    /// Still waiting for replicas, within the deadline.
    Progressing,
    /// `exceeded its progress deadline`.
    Stuck,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RolloutCheck {
    pub name: String,
    #[serde(default)]
    pub namespace: Option<String>,
    pub state: RolloutState,
}

impl RolloutCheck {
    pub fn evaluate(&self, ctx: &Context<'_>) -> Verdict {
        let namespace = namespace_or_default(&self.namespace);
        let Some(deployment) = ctx.store.try_get::<Deployment>(namespace, &self.name) else {
            return Verdict::new(false, format!("there is no deployment {} yet", self.name));
        };
        let (state, message) = match deployment_status(deployment, 0) {
            Ok((message, true)) => (RolloutState::Complete, message),
            Ok((message, false)) => (RolloutState::Progressing, message),
            Err(message) => (RolloutState::Stuck, message),
        };
        Verdict::new(state == self.state, message)
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{check, hello_lab};

    #[test]
    fn complete_progressing_and_stuck() {
        let complete = check("rollout: {name: hello, state: complete}");
        let verdict = complete.evaluate(&hello_lab(2).context());
        assert_eq!(
            (verdict.passed, verdict.message.as_str()),
            (false, "Waiting for deployment \"hello\" rollout to finish: 0 of 3 updated replicas are available...")
        );
        assert!(check("rollout: {name: hello, state: progressing}").evaluate(&hello_lab(2).context()).passed);
        let verdict = complete.evaluate(&hello_lab(10).context());
        assert_eq!((verdict.passed, verdict.message.as_str()), (true, "deployment \"hello\" successfully rolled out"));
        let mut lab = hello_lab(10);
        lab.run("kubectl set image deployment/hello hello=hello:v9-missing\nsleep 60s");
        let verdict = check("rollout: {name: hello, state: stuck}").evaluate(&lab.context());
        assert_eq!(
            (verdict.passed, verdict.message.as_str()),
            (true, "deployment \"hello\" exceeded its progress deadline")
        );
        assert!(!check("rollout: {name: nope, state: stuck}").evaluate(&lab.context()).passed);
    }
}
