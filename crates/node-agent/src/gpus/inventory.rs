//! A machine's GPUs in the simulation's terms (`GpuMachine`: models, UUIDs, MIG layouts, the
//! device plugin's strategy), with the MIG device UUIDs the driver reported where it did. The
//! Node's `nvidia.com/*` capacity and labels come from the simulation's device plugin and GPU
//! Feature Discovery, so a real machine publishes exactly what a simulated one would.

use kubelab_core::api::string_map::StringMap;
use kubelab_core::gpu::GpuMachine;
use kubelab_core::gpu::device_plugin::{self, Device};
use kubelab_core::gpu::feature_discovery;
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq)]
pub struct Inventory {
    pub machine: GpuMachine,
    /// The driver's MIG device UUIDs by (GPU index, GPU instance ID); a device not listed has
    /// the UUID the simulation derives for it.
    pub mig_uuids: BTreeMap<(u32, u32), String>,
}

impl Inventory {
    pub fn new(machine: GpuMachine) -> Inventory {
        Inventory { machine, mig_uuids: BTreeMap::new() }
    }

    pub fn with_cpus(mut self, cpus: u32) -> Inventory {
        self.machine.cpus = cpus;
        self
    }

    /// The devices the device plugin advertises, in its order, with the driver's UUIDs.
    pub fn devices(&self) -> Vec<Device> {
        let mut devices = device_plugin::devices(&self.machine);
        for device in &mut devices {
            if let Some(uuid) = device.gpu_instance.and_then(|gi| self.mig_uuids.get(&(device.gpu, gi))) {
                device.id = uuid.clone();
            }
        }
        devices
    }

    /// `nvidia.com/gpu`, `nvidia.com/mig-1g.5gb`, … and how many of each.
    pub fn capacity(&self) -> BTreeMap<String, i64> {
        device_plugin::capacity(&self.devices())
    }

    /// GPU Feature Discovery's `nvidia.com/*` labels.
    pub fn labels(&self) -> StringMap {
        feature_discovery::labels(&self.machine)
    }

    /// One line per GPU and MIG device, as `nvidia-smi -L` lists them.
    pub fn describe(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for gpu in &self.machine.gpus {
            lines.push(format!("GPU {}: {} (UUID: {})", gpu.index, gpu.model.product, gpu.uuid));
            for (index, mig) in gpu.mig_devices().into_iter().enumerate() {
                let uuid = self.mig_uuids.get(&(gpu.index, mig.gpu_instance.id)).cloned().unwrap_or(mig.uuid.clone());
                lines.push(format!("  MIG {:<11} Device {index:>2}: (UUID: {uuid})", mig.profile.name));
            }
        }
        lines
    }
}
