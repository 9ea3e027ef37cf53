//! EndpointSlice (discovery.k8s.io/v1): the addresses behind a Service, each ready or not.

use super::meta::{ObjectMeta, Uid};
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// The label naming a slice's Service (discovery/v1 well_known_labels.go `LabelServiceName`).
pub const SERVICE_NAME_LABEL: &str = "kubernetes.io/service-name";

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EndpointSlice {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub address_type: String,
    #[serde(default)]
    pub endpoints: Vec<Endpoint>,
    #[serde(default)]
    pub ports: Vec<EndpointPort>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Endpoint {
    pub addresses: Vec<String>,
    #[serde(default)]
    pub conditions: EndpointConditions,
    pub hostname: Option<String>,
    pub node_name: Option<String>,
    pub zone: Option<String>,
    pub target_ref: Option<ObjectReference>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EndpointConditions {
    pub ready: Option<bool>,
    pub serving: Option<bool>,
    pub terminating: Option<bool>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EndpointPort {
    pub name: Option<String>,
    pub protocol: Option<String>,
    pub port: Option<i32>,
    pub app_protocol: Option<String>,
}

/// core/v1 ObjectReference: points at one object (events' involvedObject, endpoints' targetRef).
#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ObjectReference {
    pub kind: Option<String>,
    pub namespace: Option<String>,
    pub name: Option<String>,
    pub uid: Option<Uid>,
    pub api_version: Option<String>,
    pub resource_version: Option<String>,
    pub field_path: Option<String>,
}
