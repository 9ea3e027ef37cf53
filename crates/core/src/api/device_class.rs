//! DeviceClass (resource.k8s.io/v1, cluster-scoped): a kind of device a claim can ask for, as a
//! DRA driver's installer defines it (NVIDIA's `gpu.nvidia.com`, `mig.nvidia.com`): CEL
//! selectors every device of the class matches, and config handed to the driver.

use super::meta::ObjectMeta;
use super::resource_claim::{DeviceSelector, OpaqueDeviceConfiguration};
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// The API group and version of every DRA kind; the only one 1.36 serves by default.
pub const RESOURCE_API_VERSION: &str = "resource.k8s.io/v1";

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeviceClass {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: DeviceClassSpec,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeviceClassSpec {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub selectors: Vec<DeviceSelector>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub config: Vec<DeviceClassConfiguration>,
    /// DRAExtendedResource (beta, on in 1.36): pods asking for this extended resource get a
    /// claim for one device of the class. Stored and shown; the lab's scheduler does not map it.
    pub extended_resource_name: Option<String>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeviceClassConfiguration {
    pub opaque: Option<OpaqueDeviceConfiguration>,
}
