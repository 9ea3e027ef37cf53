//! NVIDIA's GPU DRA driver (`gpu.nvidia.com`, NVIDIA/k8s-dra-driver-gpu), its kubelet plugin:
//! the devices a machine offers as one ResourceSlice per node — a whole GPU when MIG is off, its
//! MIG devices when on — with the attributes and capacities the driver publishes, named as it
//! names them (`gpu-0`, `gpu-1-mig-1g5gb-19-6`); and the devices a pod's allocated claims give
//! each of its containers, which `nvidia-smi` inside the pod then sees.

use super::device::Gpu;
use super::device_plugin::Device;
use super::feature_discovery::{CUDA_VERSION, DRIVER_VERSION};
use super::machine::GpuMachine;
use crate::api::meta::{ObjectMeta, OwnerReference};
use crate::api::quantity::{Format, Quantity};
use crate::api::resource_slice::{self, DeviceAttribute, DeviceCapacity, ResourcePool, ResourceSliceSpec};
use crate::api::{Node, Pod, ResourceClaim, ResourceSlice};
use std::collections::BTreeMap;

/// The driver's name, the domain of its attributes and its DeviceClasses' names.
pub const DRIVER: &str = "gpu.nvidia.com";
/// The class for whole GPUs and the one for MIG devices.
pub const GPU_CLASS: &str = "gpu.nvidia.com";
pub const MIG_CLASS: &str = "mig.nvidia.com";

/// The node's slice as the driver publishes it (its name is the API server's to complete:
/// `00000-gpu.nvidia.com-<node>-<random>`, the 1.36 ResourceSlice controller's form).
pub fn slice(node: &Node, machine: &GpuMachine) -> ResourceSlice {
    let name = &node.metadata.name;
    let metadata = ObjectMeta {
        generate_name: format!("00000-{DRIVER}-{name}-"),
        owner_references: vec![OwnerReference {
            api_version: "v1".into(),
            kind: "Node".into(),
            name: name.clone(),
            uid: node.metadata.uid,
            controller: Some(true),
            block_owner_deletion: None,
        }],
        ..Default::default()
    };
    let spec = ResourceSliceSpec {
        driver: DRIVER.into(),
        pool: ResourcePool { name: name.clone(), generation: 1, resource_slice_count: 1 },
        node_name: Some(name.clone()),
        devices: devices(machine),
        ..Default::default()
    };
    ResourceSlice { metadata, spec }
}

/// Every device, GPUs in index order.
pub fn devices(machine: &GpuMachine) -> Vec<resource_slice::Device> {
    let mut devices = Vec::new();
    for gpu in &machine.gpus {
        if !gpu.mig_enabled {
            devices.push(whole_gpu(gpu));
            continue;
        }
        for mig in gpu.mig_devices() {
            let profile = mig.profile;
            let gi = mig.gpu_instance;
            let mut attributes = common_attributes(gpu);
            attributes.insert("type".into(), DeviceAttribute::string("mig"));
            attributes.insert("uuid".into(), DeviceAttribute::string(mig.uuid.clone()));
            attributes.insert("parentUUID".into(), DeviceAttribute::string(gpu.uuid.clone()));
            attributes.insert("profile".into(), DeviceAttribute::string(profile.name.clone()));
            let count = |n: u32| DeviceCapacity::of(Quantity::from_int(i64::from(n), Format::DecimalSI));
            let mut capacity = BTreeMap::from([
                ("multiprocessors".to_string(), count(profile.multiprocessors)),
                ("copyEngines".to_string(), count(profile.copy_engines)),
                ("decoders".to_string(), count(profile.decoders)),
                ("encoders".to_string(), count(profile.encoders)),
                ("jpegEngines".to_string(), count(profile.jpeg)),
                ("ofaEngines".to_string(), count(profile.ofa)),
                ("memory".to_string(), memory(profile.memory_mib)),
            ]);
            for slot in gi.start..gi.start.saturating_add(gi.size) {
                capacity.insert(format!("memorySlice{slot}"), count(1));
            }
            devices.push(resource_slice::Device {
                name: mig_device_name(gpu.index, &profile.name, profile.id, gi.start),
                attributes,
                capacity,
                ..Default::default()
            });
        }
    }
    devices
}

fn whole_gpu(gpu: &Gpu) -> resource_slice::Device {
    let mut attributes = common_attributes(gpu);
    attributes.insert("type".into(), DeviceAttribute::string("gpu"));
    attributes.insert("uuid".into(), DeviceAttribute::string(gpu.uuid.clone()));
    let capacity = BTreeMap::from([("memory".to_string(), memory(gpu.model.memory_mib))]);
    resource_slice::Device { name: format!("gpu-{}", gpu.index), attributes, capacity, ..Default::default() }
}

/// What a GPU and its MIG devices all carry (the driver's `GpuInfo` attributes).
fn common_attributes(gpu: &Gpu) -> BTreeMap<String, DeviceAttribute> {
    let model = gpu.model;
    let (major, minor) = model.compute;
    BTreeMap::from([
        ("productName".to_string(), DeviceAttribute::string(model.product.clone())),
        ("brand".to_string(), DeviceAttribute::string("Nvidia")),
        ("architecture".to_string(), DeviceAttribute::string(architecture(&model.family))),
        ("cudaComputeCapability".to_string(), DeviceAttribute::version(format!("{major}.{minor}.0"))),
        ("driverVersion".to_string(), DeviceAttribute::version(semver(DRIVER_VERSION))),
        ("cudaDriverVersion".to_string(), DeviceAttribute::version(semver(CUDA_VERSION))),
        // The standard attribute: the PCI address with a 4-digit domain, as sysfs names it.
        ("resource.kubernetes.io/pciBusID".to_string(), DeviceAttribute::string(pci_bus_id(&gpu.bus_id))),
    ])
}

/// A driver's version as the driver publishes it: semver-normalized (`580.126.09` has a leading
/// zero semver forbids, so it is `580.126.9`; `13.0` is `13.0.0`).
fn semver(version: &str) -> String {
    crate::cel::Semver::parse_normalized(version).map_or_else(|_| version.to_string(), |v| v.to_string())
}

/// NVML's architecture name (`Ampere`, `Hopper`, `Ada Lovelace`) from GFD's family label.
fn architecture(family: &str) -> String {
    family
        .split('-')
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `00000000:07:00.0` (nvidia-smi's 8-digit domain) as `0000:07:00.0`.
fn pci_bus_id(bus_id: &str) -> String {
    bus_id.strip_prefix("0000").unwrap_or(bus_id).to_string()
}

fn memory(mib: u64) -> DeviceCapacity {
    DeviceCapacity::of(Quantity::from_int(i64::try_from(mib * 1024 * 1024).unwrap_or(i64::MAX), Format::BinarySI))
}

/// The driver's canonical MIG device name: the profile without dots, lowercased, other
/// characters as `-` (`1g.5gb+me` → `1g5gb-me`), then the GI profile ID and placement start.
pub fn mig_device_name(gpu: u32, profile: &str, profile_id: u32, start: u8) -> String {
    let profile: String = profile
        .to_ascii_lowercase()
        .chars()
        .filter(|c| *c != '.')
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '-' })
        .collect();
    format!("gpu-{gpu}-mig-{profile}-{profile_id}-{start}")
}

/// The devices the pod's allocated claims give each container, by the driver's device names:
/// a container gets the devices of the claims (or the one request) it names.
pub fn pod_devices(pod: &Pod, claims: &[&ResourceClaim], machine: &GpuMachine) -> Vec<(String, Vec<Device>)> {
    let by_name = devices_by_name(machine);
    let mut containers = Vec::new();
    for container in pod.spec.containers.iter() {
        let mut mine: Vec<Device> = Vec::new();
        for reference in &container.resources.claims {
            let Some(claim) = claim_of(pod, claims, &reference.name) else { continue };
            let Some(allocation) = &claim.status.allocation else { continue };
            for result in allocation.devices.results.iter().filter(|r| r.driver == DRIVER) {
                let request = result.request.split('/').next().unwrap_or_default();
                if reference.request.as_deref().is_some_and(|r| r != request) {
                    continue;
                }
                if let Some(device) = by_name.get(&result.device).filter(|d| !mine.contains(d)) {
                    mine.push(device.clone());
                }
            }
        }
        if !mine.is_empty() {
            containers.push((container.name.clone(), mine));
        }
    }
    containers
}

/// The claim behind a pod's `resourceClaims` entry.
fn claim_of<'c>(pod: &Pod, claims: &[&'c ResourceClaim], entry: &str) -> Option<&'c ResourceClaim> {
    let name = crate::dra::pod_claims::claim_names(pod).ok()?.into_iter().find(|(e, _)| e == entry)?.1;
    claims.iter().copied().find(|c| c.metadata.name == name)
}

/// Each published device name, as the device the GPU Operator's bookkeeping knows it by.
fn devices_by_name(machine: &GpuMachine) -> BTreeMap<String, Device> {
    let mut devices = BTreeMap::new();
    for gpu in &machine.gpus {
        let whole = Device { resource: DRIVER.into(), id: gpu.uuid.clone(), gpu: gpu.index, gpu_instance: None };
        devices.insert(format!("gpu-{}", gpu.index), whole);
        for mig in gpu.mig_devices() {
            let name = mig_device_name(gpu.index, &mig.profile.name, mig.profile.id, mig.gpu_instance.start);
            let device = Device {
                resource: DRIVER.into(),
                id: mig.uuid,
                gpu: gpu.index,
                gpu_instance: Some(mig.gpu_instance.id),
            };
            devices.insert(name, device);
        }
    }
    devices
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mig_devices_are_named_as_the_driver_names_them() {
        assert_eq!(mig_device_name(0, "1g.5gb", 19, 0), "gpu-0-mig-1g5gb-19-0");
        assert_eq!(mig_device_name(3, "1g.10gb+me", 20, 6), "gpu-3-mig-1g10gb-me-20-6");
        assert_eq!(architecture("ada-lovelace"), "Ada Lovelace");
        assert_eq!(pci_bus_id("00000000:07:00.0"), "0000:07:00.0");
    }
}
