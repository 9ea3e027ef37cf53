//! Event (core/v1): what happened to an object, by whom, how often (`(x3 over 75s)`).

use super::endpoint_slice::ObjectReference;
use super::meta::{ObjectMeta, Time};
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Event {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub involved_object: ObjectReference,
    pub reason: Option<String>,
    pub message: Option<String>,
    #[serde(default)]
    pub source: EventSource,
    pub first_timestamp: Option<Time>,
    pub last_timestamp: Option<Time>,
    pub count: Option<i32>,
    #[serde(rename = "type")]
    pub type_: Option<String>,
    pub event_time: Option<Time>,
    pub reporting_component: Option<String>,
    pub reporting_instance: Option<String>,
    pub action: Option<String>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EventSource {
    pub component: Option<String>,
    pub host: Option<String>,
}
