//! ResourceSlice (resource.k8s.io/v1, cluster-scoped): the devices one DRA driver offers on a
//! node (or on many), each with typed attributes and capacities that CEL selectors read. The
//! driver's kubelet plugin publishes them; the scheduler's allocator picks from them.

use super::affinity::NodeSelector;
use super::meta::{ObjectMeta, Time};
use super::quantity::Quantity;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResourceSlice {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: ResourceSliceSpec,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResourceSliceSpec {
    #[serde(default)]
    pub driver: String,
    #[serde(default)]
    pub pool: ResourcePool,
    pub node_name: Option<String>,
    pub node_selector: Option<NodeSelector>,
    pub all_nodes: Option<bool>,
    pub per_device_node_selection: Option<bool>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub devices: Vec<Device>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shared_counters: Vec<CounterSet>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResourcePool {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub generation: i64,
    #[serde(default)]
    pub resource_slice_count: i64,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Device {
    #[serde(default)]
    pub name: String,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub attributes: BTreeMap<String, DeviceAttribute>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub capacity: BTreeMap<String, DeviceCapacity>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub consumes_counters: Vec<DeviceCounterConsumption>,
    pub node_name: Option<String>,
    pub node_selector: Option<NodeSelector>,
    pub all_nodes: Option<bool>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub taints: Vec<DeviceTaint>,
    pub binds_to_node: Option<bool>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub binding_conditions: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub binding_failure_conditions: Vec<String>,
    pub allow_multiple_allocations: Option<bool>,
}

/// Exactly one of the four is set (validation says so when not).
#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeviceAttribute {
    pub int: Option<i64>,
    pub bool: Option<bool>,
    pub string: Option<String>,
    pub version: Option<String>,
}

impl DeviceAttribute {
    pub fn string(value: impl Into<String>) -> DeviceAttribute {
        DeviceAttribute { string: Some(value.into()), ..Default::default() }
    }

    pub fn version(value: impl Into<String>) -> DeviceAttribute {
        DeviceAttribute { version: Some(value.into()), ..Default::default() }
    }

    pub fn int(value: i64) -> DeviceAttribute {
        DeviceAttribute { int: Some(value), ..Default::default() }
    }

    /// How many of its value fields are set.
    pub fn values_set(&self) -> usize {
        [self.int.is_some(), self.bool.is_some(), self.string.is_some(), self.version.is_some()]
            .iter()
            .filter(|set| **set)
            .count()
    }
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeviceCapacity {
    #[serde(default = "Quantity::zero")]
    pub value: Quantity,
    pub request_policy: Option<serde_json::Value>,
}

impl DeviceCapacity {
    pub fn of(value: Quantity) -> DeviceCapacity {
        DeviceCapacity { value, request_policy: None }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CounterSet {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub counters: BTreeMap<String, Counter>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Counter {
    #[serde(default = "Quantity::zero")]
    pub value: Quantity,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeviceCounterConsumption {
    #[serde(default)]
    pub counter_set: String,
    #[serde(default)]
    pub counters: BTreeMap<String, Counter>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeviceTaint {
    #[serde(default)]
    pub key: String,
    pub value: Option<String>,
    /// `NoSchedule`, `NoExecute` or `None`.
    #[serde(default)]
    pub effect: String,
    pub time_added: Option<Time>,
}

impl ResourceSlice {
    /// The node whose devices these are, for a node-local slice.
    pub fn node(&self) -> Option<&str> {
        self.spec.node_name.as_deref().filter(|n| !n.is_empty())
    }
}
