//! The devices a node can be given, gathered from every ResourceSlice that offers devices on it
//! (its own, `nodeName`, and cluster-wide ones, `allNodes`), each with its attributes keyed by
//! fully qualified name as CEL and `matchAttribute` read them (upstream's `draapi.Device`).

use crate::api::ResourceSlice;
use crate::api::resource_claim::DeviceToleration;
use crate::api::resource_slice::{DeviceAttribute, DeviceCapacity, DeviceTaint};
use std::collections::BTreeMap;

/// A device's identity in allocation results: driver, pool and name.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DeviceId {
    pub driver: String,
    pub pool: String,
    pub device: String,
}

/// One device as the allocator sees it.
#[derive(Clone, Debug)]
pub struct SliceDevice {
    pub id: DeviceId,
    /// Attributes by fully qualified name (`gpu.nvidia.com/productName`).
    pub attributes: BTreeMap<String, DeviceAttribute>,
    /// Capacities by fully qualified name.
    pub capacity: BTreeMap<String, DeviceCapacity>,
    pub taints: Vec<DeviceTaint>,
    pub allow_multiple_allocations: bool,
}

/// Every device offered on one node, slices in name order, devices in slice order.
#[derive(Clone, Debug, Default)]
pub struct NodeDevices {
    pub devices: Vec<SliceDevice>,
}

impl NodeDevices {
    /// The devices `slices` offer on `node`. Only the newest generation of a pool counts
    /// (upstream ignores slices of an older generation while a driver republishes).
    pub fn on_node<'a>(node: &str, slices: impl IntoIterator<Item = &'a ResourceSlice>) -> NodeDevices {
        let slices: Vec<&ResourceSlice> =
            slices.into_iter().filter(|s| s.node() == Some(node) || s.spec.all_nodes == Some(true)).collect();
        let mut newest: BTreeMap<(&str, &str), i64> = BTreeMap::new();
        for slice in &slices {
            let key = (slice.spec.driver.as_str(), slice.spec.pool.name.as_str());
            let generation = newest.entry(key).or_insert(slice.spec.pool.generation);
            *generation = (*generation).max(slice.spec.pool.generation);
        }
        let mut devices = Vec::new();
        for slice in slices {
            let key = (slice.spec.driver.as_str(), slice.spec.pool.name.as_str());
            if newest.get(&key) != Some(&slice.spec.pool.generation) {
                continue;
            }
            devices.extend(slice.spec.devices.iter().map(|d| SliceDevice::of(slice, d)));
        }
        NodeDevices { devices }
    }
}

impl SliceDevice {
    fn of(slice: &ResourceSlice, device: &crate::api::resource_slice::Device) -> SliceDevice {
        let driver = &slice.spec.driver;
        SliceDevice {
            id: DeviceId { driver: driver.clone(), pool: slice.spec.pool.name.clone(), device: device.name.clone() },
            attributes: device.attributes.iter().map(|(k, v)| (qualify(driver, k), v.clone())).collect(),
            capacity: device.capacity.iter().map(|(k, v)| (qualify(driver, k), v.clone())).collect(),
            taints: device.taints.clone(),
            allow_multiple_allocations: device.allow_multiple_allocations == Some(true),
        }
    }

    /// The attribute with this fully qualified name (`matchAttribute`).
    pub fn qualified_attribute(&self, name: &str) -> Option<&DeviceAttribute> {
        self.attributes.get(name)
    }

    /// Every `NoSchedule`/`NoExecute` taint is tolerated (DRADeviceTaints, beta and on in 1.36).
    pub fn tolerated_by(&self, tolerations: &[DeviceToleration]) -> bool {
        self.taints.iter().filter(|t| t.effect != "None").all(|taint| tolerations.iter().any(|t| tolerates(t, taint)))
    }
}

/// A name without a domain belongs to the driver's own domain.
fn qualify(driver: &str, name: &str) -> String {
    if name.contains('/') { name.to_string() } else { format!("{driver}/{name}") }
}

/// Upstream `DeviceToleration.ToleratesTaint`: the key matches (or is empty with Exists), the
/// effect matches (or is empty), and for Equal the value too.
fn tolerates(toleration: &DeviceToleration, taint: &DeviceTaint) -> bool {
    let key_ok = toleration.key.as_deref().is_none_or(|k| k.is_empty() || k == taint.key);
    let effect_ok = toleration.effect.as_deref().is_none_or(|e| e.is_empty() || e == taint.effect);
    let value_ok = match toleration.operator.as_deref().unwrap_or("Equal") {
        "Exists" => true,
        _ => toleration.value.as_deref().unwrap_or_default() == taint.value.as_deref().unwrap_or_default(),
    };
    key_ok && effect_ok && value_ok
}
