//! `event`: an Event with a reason was recorded for an object: by kind and name, or by a name
//! prefix (a Deployment's pods have generated names). Counts aggregated repeats (`x3`) once.
//! With `count`, exactly that many distinct objects must have had one ("delete **one** pod").
//!
//! ```yaml
//! event: {reason: Killing, kind: Pod, name_prefix: hello-}
//! event: {reason: Killing, kind: Pod, name_prefix: hello-, count: 1}
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
    /// A part of the Event's message the Event must contain (`didn't match Pod's node affinity/selector`).
    #[serde(default)]
    pub message: Option<String>,
    /// Exactly this many distinct objects had such an Event (any number, at least one, if left out).
    #[serde(default)]
    pub count: Option<u32>,
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
            .filter(|e| self.message.as_deref().is_none_or(|m| e.message.as_deref().unwrap_or("").contains(m)))
            .filter(|e| {
                let object = &e.involved_object;
                let name = object.name.as_deref().unwrap_or("");
                kind_name.is_none_or(|k| object.kind.as_deref() == Some(k))
                    && self.name.as_deref().is_none_or(|n| name == n)
                    && self.name_prefix.as_deref().is_none_or(|p| name.starts_with(p))
            })
            .collect();
        let target = self.target();
        if let Some(count) = self.count {
            return self.counted(&events, count, &target);
        }
        match events.last() {
            None => match &self.message {
                Some(message) => {
                    Verdict::new(false, format!("no {} event saying \"{message}\" for {target} yet", self.reason))
                }
                None => Verdict::new(false, format!("no {} event for {target} yet", self.reason)),
            },
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

    /// The `count` form: how many distinct objects had the event, against how many are wanted.
    fn counted(&self, events: &[&Event], count: u32, target: &str) -> Verdict {
        let mut objects: Vec<&str> = events.iter().filter_map(|e| e.involved_object.name.as_deref()).collect();
        objects.sort_unstable();
        objects.dedup();
        let found = objects.len();
        let noun = if found == 1 { "object" } else { "objects" };
        let passed = found == count as usize;
        let suffix = if passed { String::new() } else { format!(" (want {count})") };
        Verdict::new(passed, format!("{} recorded for {found} {noun} matching {target}{suffix}", self.reason))
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
        let elsewhere = check("event: {reason: Scheduled, namespace: kube-public}");
        assert_eq!(elsewhere.evaluate(&lab.context()).message, "no Scheduled event for any object yet");
        assert_eq!(check("event: {reason: X, kind: Gadget}").problems().len(), 1);
        let said = check("event: {reason: Killing, kind: Pod, message: Stopping container hello}");
        assert!(said.evaluate(&lab.context()).passed);
        let other = check("event: {reason: Killing, kind: Pod, message: Stopping container other}");
        assert_eq!(
            other.evaluate(&lab.context()).message,
            "no Killing event saying \"Stopping container other\" for any pod yet"
        );
    }

    #[test]
    fn counts_distinct_objects() {
        let mut lab = hello_lab(10);
        let one = check("event: {reason: Killing, kind: Pod, name_prefix: hello-, count: 1}");
        lab.run("kubectl delete pods -l app=hello --wait=false");
        let verdict = one.evaluate(&lab.context());
        assert_eq!(
            (verdict.passed, verdict.message.as_str()),
            (false, "Killing recorded for 3 objects matching pod/hello-… (want 1)")
        );
    }
}
