//! metav1.Condition: the standard condition shape of newer APIs (the Gateway API's status).

use super::meta::Time;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Condition {
    #[serde(rename = "type")]
    pub type_: String,
    pub status: String,
    pub observed_generation: Option<i64>,
    pub last_transition_time: Option<Time>,
    #[serde(default)]
    pub reason: String,
    #[serde(default)]
    pub message: String,
}

impl Condition {
    /// `status` as `True`/`False`, with reason and message, observed at `generation`.
    pub fn new(type_: &str, holds: bool, reason: &str, message: &str, generation: i64, now: Time) -> Condition {
        Condition {
            type_: type_.to_string(),
            status: if holds { "True" } else { "False" }.to_string(),
            observed_generation: Some(generation),
            last_transition_time: Some(now),
            reason: reason.to_string(),
            message: message.to_string(),
        }
    }
}

/// Replaces `conditions` with `wanted`, keeping each unchanged condition's transition time
/// (apimachinery's `SetStatusCondition`); true when anything but the times changed.
pub fn set_conditions(conditions: &mut Vec<Condition>, wanted: Vec<Condition>) -> bool {
    let same = |a: &Condition, b: &Condition| {
        a.type_ == b.type_
            && a.status == b.status
            && a.reason == b.reason
            && a.message == b.message
            && a.observed_generation == b.observed_generation
    };
    if conditions.len() == wanted.len() && conditions.iter().zip(&wanted).all(|(a, b)| same(a, b)) {
        return false;
    }
    let merged = wanted
        .into_iter()
        .map(|mut c| {
            if let Some(old) = conditions.iter().find(|o| o.type_ == c.type_ && o.status == c.status) {
                c.last_transition_time = old.last_transition_time;
            }
            c
        })
        .collect();
    *conditions = merged;
    true
}
