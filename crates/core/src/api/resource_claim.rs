//! ResourceClaim (resource.k8s.io/v1, namespaced, with a status subresource): a request for
//! devices (how many, of which DeviceClass, matching which CEL selectors, under which
//! constraints), and, once the scheduler allocated it, which devices on which node and which
//! pods use them. Its spec is shared with ResourceClaimTemplate.

use super::affinity::NodeSelector;
use super::meta::{ObjectMeta, Time, Uid};
use super::quantity::Quantity;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;
use std::collections::BTreeMap;

/// The finalizer the scheduler adds before it allocates (upstream `Finalizer`).
pub const DELETE_PROTECTION_FINALIZER: &str = "resource.kubernetes.io/delete-protection";
/// On a claim made from a template: which `pod.spec.resourceClaims[].name` it is for.
pub const POD_CLAIM_NAME_ANNOTATION: &str = "resource.kubernetes.io/pod-claim-name";
/// More pods than this cannot share one claim (upstream `ResourceClaimReservedForMaxSize`).
pub const RESERVED_FOR_MAX_SIZE: usize = 256;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResourceClaim {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: ResourceClaimSpec,
    #[serde(default, skip_serializing_if = "ResourceClaimStatus::is_empty")]
    pub status: ResourceClaimStatus,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResourceClaimSpec {
    #[serde(default)]
    pub devices: DeviceClaim,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeviceClaim {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requests: Vec<DeviceRequest>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub constraints: Vec<DeviceConstraint>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub config: Vec<DeviceClaimConfiguration>,
}

/// One request: exactly one of `exactly` and `firstAvailable`.
#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeviceRequest {
    #[serde(default)]
    pub name: String,
    pub exactly: Option<ExactDeviceRequest>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub first_available: Vec<DeviceSubRequest>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ExactDeviceRequest {
    #[serde(default)]
    pub device_class_name: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub selectors: Vec<DeviceSelector>,
    /// `ExactCount` (the default) or `All`.
    pub allocation_mode: Option<String>,
    pub count: Option<i64>,
    pub admin_access: Option<bool>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tolerations: Vec<DeviceToleration>,
    pub capacity: Option<CapacityRequirements>,
}

/// One alternative of a `firstAvailable` list (DRAPrioritizedList, GA in 1.36).
#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeviceSubRequest {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub device_class_name: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub selectors: Vec<DeviceSelector>,
    pub allocation_mode: Option<String>,
    pub count: Option<i64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tolerations: Vec<DeviceToleration>,
    pub capacity: Option<CapacityRequirements>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeviceSelector {
    pub cel: Option<CelDeviceSelector>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CelDeviceSelector {
    #[serde(default)]
    pub expression: String,
}

impl DeviceSelector {
    pub fn cel(expression: impl Into<String>) -> DeviceSelector {
        DeviceSelector { cel: Some(CelDeviceSelector { expression: expression.into() }) }
    }
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeviceToleration {
    pub key: Option<String>,
    /// `Exists` or `Equal` (the default).
    pub operator: Option<String>,
    pub value: Option<String>,
    pub effect: Option<String>,
    pub toleration_seconds: Option<i64>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CapacityRequirements {
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub requests: BTreeMap<String, Quantity>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeviceConstraint {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requests: Vec<String>,
    /// Every device of these requests has the same value of this fully qualified attribute.
    pub match_attribute: Option<String>,
    pub distinct_attribute: Option<String>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeviceClaimConfiguration {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requests: Vec<String>,
    pub opaque: Option<OpaqueDeviceConfiguration>,
}

/// Parameters only the named driver understands (NVIDIA's `GpuConfig` with its sharing).
#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OpaqueDeviceConfiguration {
    #[serde(default)]
    pub driver: String,
    pub parameters: Option<serde_json::Value>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResourceClaimStatus {
    pub allocation: Option<AllocationResult>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reserved_for: Vec<ResourceClaimConsumerReference>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub devices: Vec<serde_json::Value>,
}

impl ResourceClaimStatus {
    pub fn is_empty(&self) -> bool {
        *self == ResourceClaimStatus::default()
    }
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AllocationResult {
    #[serde(default)]
    pub devices: DeviceAllocationResult,
    pub node_selector: Option<NodeSelector>,
    pub allocation_timestamp: Option<Time>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeviceAllocationResult {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub results: Vec<DeviceRequestAllocationResult>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub config: Vec<DeviceAllocationConfiguration>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeviceRequestAllocationResult {
    /// The request's name, or `<request>/<subrequest>` for a `firstAvailable` pick.
    #[serde(default)]
    pub request: String,
    #[serde(default)]
    pub driver: String,
    #[serde(default)]
    pub pool: String,
    #[serde(default)]
    pub device: String,
    pub admin_access: Option<bool>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tolerations: Vec<DeviceToleration>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeviceAllocationConfiguration {
    /// `FromClass` or `FromClaim`.
    #[serde(default)]
    pub source: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requests: Vec<String>,
    pub opaque: Option<OpaqueDeviceConfiguration>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResourceClaimConsumerReference {
    pub api_group: Option<String>,
    #[serde(default)]
    pub resource: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub uid: Uid,
}

impl ResourceClaim {
    pub fn is_allocated(&self) -> bool {
        self.status.allocation.is_some()
    }

    pub fn is_reserved_for(&self, uid: Uid) -> bool {
        self.status.reserved_for.iter().any(|r| r.uid == uid)
    }
}

impl DeviceRequest {
    /// The alternatives in order: the request itself, or its `firstAvailable` list.
    pub fn alternatives(&self) -> Vec<(String, RequestShape<'_>)> {
        match &self.exactly {
            Some(exactly) => vec![(self.name.clone(), RequestShape::of_exact(exactly))],
            None => self
                .first_available
                .iter()
                .map(|sub| (format!("{}/{}", self.name, sub.name), RequestShape::of_sub(sub)))
                .collect(),
        }
    }
}

/// What the allocator reads of an exact request or a subrequest alike.
#[derive(Clone, Copy, Debug)]
pub struct RequestShape<'a> {
    pub device_class_name: &'a str,
    pub selectors: &'a [DeviceSelector],
    pub all: bool,
    pub count: i64,
    pub tolerations: &'a [DeviceToleration],
    pub admin_access: bool,
}

impl<'a> RequestShape<'a> {
    fn of_exact(r: &'a ExactDeviceRequest) -> RequestShape<'a> {
        RequestShape {
            device_class_name: &r.device_class_name,
            selectors: &r.selectors,
            all: r.allocation_mode.as_deref() == Some("All"),
            count: r.count.unwrap_or(1),
            tolerations: &r.tolerations,
            admin_access: r.admin_access == Some(true),
        }
    }

    fn of_sub(r: &'a DeviceSubRequest) -> RequestShape<'a> {
        RequestShape {
            device_class_name: &r.device_class_name,
            selectors: &r.selectors,
            all: r.allocation_mode.as_deref() == Some("All"),
            count: r.count.unwrap_or(1),
            tolerations: &r.tolerations,
            admin_access: false,
        }
    }
}
