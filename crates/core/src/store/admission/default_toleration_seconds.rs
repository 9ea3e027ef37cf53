//! `DefaultTolerationSeconds` (plugin/pkg/admission/defaulttolerationseconds): a new pod
//! tolerates `not-ready` and `unreachable` for 300 s unless it already tolerates those taints,
//! which is why its pods leave a dead node five minutes after the taint.

use super::{Operation, Plugin, Request};
use crate::api::ObjectMut;
use crate::api::affinity::Toleration;
use crate::error::ApiError;
use crate::store::Store;

pub const PLUGIN: Plugin = Plugin { name: "DefaultTolerationSeconds", admit: Some(admit), validate: None };

/// The taints the default tolerations are for.
const NOT_READY_KEYS: [&str; 2] = ["node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"];

fn admit(store: &Store, request: &Request<'_>, object: &mut ObjectMut<'_>) -> Result<(), ApiError> {
    let ObjectMut::Pod(pod) = object else { return Ok(()) };
    if request.operation != Operation::Create {
        return Ok(());
    }
    let spec = &mut pod.spec;
    if spec.tolerations.is_empty() {
        // The common case: every such pod points at one copy of the two default tolerations.
        spec.tolerations = store.default_tolerations.clone();
        return Ok(());
    }
    for key in NOT_READY_KEYS {
        if !spec.tolerations.iter().any(|t| tolerates_no_execute(t, key)) {
            let seconds = store.node_settings().default_toleration_seconds;
            spec.tolerations.make_mut().push(toleration(key, seconds));
        }
    }
    Ok(())
}

/// `--default-not-ready-toleration-seconds` and `--default-unreachable-toleration-seconds`
/// (300 s upstream; a lab's `NodeSettings`).
fn toleration(key: &str, seconds: i64) -> Toleration {
    Toleration {
        key: Some(key.to_string()),
        operator: Some("Exists".to_string()),
        value: None,
        effect: Some("NoExecute".to_string()),
        toleration_seconds: Some(seconds),
    }
}

/// The tolerations this plugin gives a pod that has none of its own.
pub fn default_tolerations(seconds: i64) -> Vec<Toleration> {
    NOT_READY_KEYS.iter().map(|key| toleration(key, seconds)).collect()
}

/// Whether `t` already tolerates the NoExecute taint `key` (an empty key tolerates every key).
fn tolerates_no_execute(t: &Toleration, key: &str) -> bool {
    let key_matches = t.key.as_deref().is_none_or(|k| k.is_empty() || k == key);
    let effect_matches = t.effect.as_deref().is_none_or(|e| e.is_empty() || e == "NoExecute");
    key_matches && effect_matches
}
