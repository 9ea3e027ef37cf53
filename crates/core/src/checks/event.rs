//! `event`: an Event with a reason was recorded for an object: by kind and name, or by a name
//! prefix (a Deployment's pods have generated names). Counts aggregated repeats (`x3`) once.
//!
//! ```yaml
//! event: {reason: Killing, kind: Pod, name_prefix: hello-}
//! ```

use super::{Context, Verdict, namespace_or_default, parse_kind};
use crate::api::Event;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EventCheck {
    /// `Scheduled`, `Pulled`, `Started`, `Killing`, `SuccessfulCreate`, `ScalingReplicaSet`…
    pub reason: String,
    /// The involved object's kind; any kind when left out.
    #[serde(default)]
    pub kind: Option<String>,
    /// The involved object's exact name.
    #[serde(default)]
    pub name: Option<String>,
    /// Or the start of its name.
    #[serde(default)]
    pub name_prefix: Option<String>,
    #[serde(default)]
    pub namespace: Option<String>,
}

impl EventCheck {
    pub fn problems(&self) -> Vec<String> {
        self.kind.as_deref().and_then(|k| parse_kind(k).err()).into_iter().collect()
    }

    pub fn evaluate(&self, ctx: &Context<'_>) -> Verdict {
        let kind_name = match self.kind.as_deref().map(parse_kind) {
            Some(Err(e)) => return Verdict::new(false, e),
            Some(Ok(kind)) => Some(kind.info().kind_name),
            None => None,
        };
        let events: Vec<&Event> = ctx
            .store
            .list::<Event>(Some(namespace_or_default(&self.namespace)))
            .filter(|e| e.reason.as_deref() == Some(self.reason.as_str()))
            .filter(|e| {
                let object = &e.involved_object;
                let name = object.name.as_deref().unwrap_or("");
                kind_name.is_none_or(|k| object.kind.as_deref() == Some(k))
                    && self.name.as_deref().is_none_or(|n| name == n)
                    && self.name_prefix.as_deref().is_none_or(|p| name.starts_with(p))
            })
            .collect();
        let target = self.target();
        match events.last() {
            None => Verdict::new(false, format!("no {} event for {target} yet", self.reason)),
            Some(event) => {
                let object = &event.involved_object;
                let named = format!(
                    "{}/{}",
                    object.kind.as_deref().unwrap_or("").to_ascii_lowercase(),
                    object.name.as_deref().unwrap_or("")
                );
                Verdict::new(
                    true,
                    format!("{} recorded for {named}: {}", self.reason, event.message.as_deref().unwrap_or("")),
                )
            }
        }
    }

    /// "pod/hello-…", "pod hello", or "any object", for messages.
    fn target(&self) -> String {
        let kind = self.kind.as_deref().and_then(|k| parse_kind(k).ok()).map(|k| k.info().singular);
        match (kind, &self.name, &self.name_prefix) {
            (Some(kind), Some(name), _) => format!("{kind}/{name}"),
            (Some(kind), None, Some(prefix)) => format!("{kind}/{prefix}…"),
            (None, Some(name), _) => name.clone(),
            (None, None, Some(prefix)) => format!("{prefix}…"),
            (Some(kind), None, None) => format!("any {kind}"),
            (None, None, None) => "any object".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{check, hello_lab};

    #[test]
    fn finds_events_by_reason_and_object() {
        let mut lab = hello_lab(10);
        let killing = check("event: {reason: Killing, kind: Pod, name_prefix: hello-}");
        let verdict = killing.evaluate(&lab.context());
        assert_eq!((verdict.passed, verdict.message.as_str()), (false, "no Killing event for pod/hello-… yet"));
        let victim = crate::kubectl::fixture::pod_named(&lab.sim, "hello-");
        lab.run(&format!("kubectl delete pod {victim} --wait=false"));
        let verdict = killing.evaluate(&lab.context());
        assert!(verdict.passed);
        assert_eq!(verdict.message, format!("Killing recorded for pod/{victim}: Stopping container hello"));
        let scaled = check("event: {reason: ScalingReplicaSet, kind: deployment, name: hello}");
        assert!(scaled.evaluate(&lab.context()).passed);
        let elsewhere = check("event: {reason: Scheduled, namespace: kube-system}");
        assert_eq!(elsewhere.evaluate(&lab.context()).message, "no Scheduled event for any object yet");
        assert_eq!(check("event: {reason: X, kind: Gadget}").problems().len(), 1);
    }
}
