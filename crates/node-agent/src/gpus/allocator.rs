//! The kubelet's device manager for NVIDIA's resources (pkg/kubelet/cm/devicemanager): a pod's
//! container asking `nvidia.com/gpu: 1` or `nvidia.com/mig-1g.5gb: 1` gets distinct free devices
//! at admission, picked as the simulation's device plugin picks them; they are the container's
//! `NVIDIA_VISIBLE_DEVICES` / `CUDA_VISIBLE_DEVICES` and are free again when the pod ends.

use super::inventory::Inventory;
use kubelab_core::api::Pod;
use kubelab_core::gpu::device_plugin::{self, Device};
use std::collections::{BTreeMap, BTreeSet};

/// Devices by container name.
pub type PodDevices = BTreeMap<String, Vec<String>>;

#[derive(Debug, Default)]
pub struct DeviceAllocator {
    inventory: Option<Inventory>,
    devices: Vec<Device>,
    /// By pod UID.
    allocations: BTreeMap<String, PodDevices>,
}

impl DeviceAllocator {
    pub fn new(inventory: Option<Inventory>) -> DeviceAllocator {
        let devices = inventory.as_ref().map(Inventory::devices).unwrap_or_default();
        DeviceAllocator { inventory, devices, allocations: BTreeMap::new() }
    }

    /// Devices for each container of `pod` that asks for NVIDIA resources (the same ones again
    /// for a pod that already has them), or the admission error upstream words.
    pub fn allocate(&mut self, pod: &Pod) -> Result<PodDevices, String> {
        let uid = pod.metadata.uid.to_string();
        if let Some(given) = self.allocations.get(&uid) {
            return Ok(given.clone());
        }
        let taken: BTreeSet<&str> =
            self.allocations.values().flat_map(|p| p.values().flatten()).map(String::as_str).collect();
        let mut given: BTreeSet<String> = BTreeSet::new();
        let mut pod_devices = PodDevices::new();
        for container in pod.spec.containers.iter() {
            let resources = &container.resources;
            let asked = if resources.limits.is_empty() { &resources.requests } else { &resources.limits };
            for (resource, quantity) in asked.iter() {
                let count = quantity.value();
                if !resource.starts_with("nvidia.com/") || count <= 0 {
                    continue;
                }
                let busy = |id: &str| taken.contains(id) || given.contains(id);
                let picked = self.inventory.as_ref().and_then(|inventory| {
                    device_plugin::allocate(&inventory.machine, &self.devices, &busy, resource, count as usize)
                });
                let Some(picked) = picked else {
                    let available = self.devices.iter().filter(|d| d.resource == *resource && !busy(&d.id)).count();
                    return Err(format!(
                        "Allocate failed due to requested number of devices unavailable for {resource}. Requested: {count}, Available: {available}, which is unexpected"
                    ));
                };
                let ids: Vec<String> = picked.into_iter().map(|d| d.id.clone()).collect();
                given.extend(ids.iter().cloned());
                pod_devices.entry(container.name.clone()).or_default().extend(ids);
            }
        }
        if !pod_devices.is_empty() {
            self.allocations.insert(uid, pod_devices.clone());
        }
        Ok(pod_devices)
    }

    /// The pod ended: its devices are free.
    pub fn release(&mut self, uid: &str) {
        self.allocations.remove(uid);
    }
}

/// The environment the NVIDIA container toolkit reads, for a container given `devices`.
pub fn visible_devices_env(devices: &[String]) -> Vec<(String, String)> {
    if devices.is_empty() {
        return Vec::new();
    }
    let ids = devices.join(",");
    vec![("NVIDIA_VISIBLE_DEVICES".into(), ids.clone()), ("CUDA_VISIBLE_DEVICES".into(), ids)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpus::fake;

    fn pod(uid: u128, resource: &str, count: i64) -> Pod {
        let text = format!(
            r#"{{"metadata": {{"name": "p{uid}", "namespace": "default", "uid": "{}"}},
                "spec": {{"containers": [{{"name": "main", "image": "cuda:12", "resources": {{"limits": {{"{resource}": "{count}"}}}}}}]}}}}"#,
            kubelab_core::api::meta::Uid(uid)
        );
        serde_json::from_str(&text).unwrap()
    }

    #[test]
    fn containers_get_distinct_free_devices_until_none_are_left() {
        let file = "migStrategy: mixed\ngpus:\n- model: A100-SXM4-40GB\n  mig: all-1g.5gb\n- model: A100-SXM4-40GB\n";
        let mut allocator = DeviceAllocator::new(Some(fake::parse(file, "gpu-1").unwrap()));
        let whole = allocator.allocate(&pod(1, "nvidia.com/gpu", 1)).unwrap();
        assert!(whole["main"][0].starts_with("GPU-"));
        let first = allocator.allocate(&pod(2, "nvidia.com/mig-1g.5gb", 1)).unwrap();
        let second = allocator.allocate(&pod(3, "nvidia.com/mig-1g.5gb", 1)).unwrap();
        assert!(first["main"][0].starts_with("MIG-"));
        assert_ne!(first["main"], second["main"]);
        assert_eq!(
            allocator.allocate(&pod(2, "nvidia.com/mig-1g.5gb", 1)).unwrap(),
            first,
            "the same pod, the same devices"
        );
        let refused = allocator.allocate(&pod(4, "nvidia.com/gpu", 1)).unwrap_err();
        assert_eq!(
            refused,
            "Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0, which is unexpected"
        );
        allocator.release(&kubelab_core::api::meta::Uid(1).to_string());
        assert_eq!(allocator.allocate(&pod(4, "nvidia.com/gpu", 1)).unwrap()["main"], whole["main"]);
        let env = visible_devices_env(&first["main"]);
        assert_eq!(env[0].0, "NVIDIA_VISIBLE_DEVICES");
        assert_eq!(env[1], ("CUDA_VISIBLE_DEVICES".to_string(), first["main"][0].clone()));
    }

    #[test]
    fn a_machine_without_gpus_refuses_gpu_pods_and_runs_the_rest() {
        let mut allocator = DeviceAllocator::new(None);
        assert!(allocator.allocate(&pod(1, "nvidia.com/gpu", 1)).unwrap_err().contains("Available: 0"));
        assert!(allocator.allocate(&pod(2, "cpu", 1)).unwrap().is_empty());
    }
}
