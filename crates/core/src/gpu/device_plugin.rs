//! NVIDIA's device plugin (k8s-device-plugin): the devices it advertises to the kubelet under
//! each strategy — whole GPUs, MIG devices as `nvidia.com/gpu` (single) or per profile
//! (mixed), time-sliced replicas — and the kubelet device manager's allocation of them to
//! containers, which `nvidia-smi` inside a pod reads.

use super::device_plugin_config::TimeSlicing;
use super::machine::{GpuMachine, MigStrategy};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The resource every whole GPU (and, under the single strategy, every MIG device) is.
pub const GPU_RESOURCE: &str = "nvidia.com/gpu";

/// One device as the plugin lists it (`ListAndWatch`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Device {
    /// `nvidia.com/gpu`, `nvidia.com/mig-1g.5gb`, `nvidia.com/gpu.shared`.
    pub resource: String,
    /// Its ID: the GPU's or MIG device's UUID, `::N` appended for a time-sliced replica.
    pub id: String,
    pub gpu: u32,
    /// The GPU instance, for a MIG device.
    pub gpu_instance: Option<u32>,
}

/// What the single strategy finds: whole GPUs, one MIG profile throughout, or neither.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SingleLayout {
    WholeGpus,
    Mig(String),
    /// MIG enabled with more than one profile (or none): the plugin advertises nothing and GFD
    /// labels the product `…-MIG-INVALID`.
    Invalid,
}

pub fn single_layout(machine: &GpuMachine) -> SingleLayout {
    if machine.gpus.iter().all(|g| !g.mig_enabled) {
        return SingleLayout::WholeGpus;
    }
    let mut profiles: Vec<String> =
        machine.gpus.iter().flat_map(|g| g.mig_devices()).map(|d| d.profile.name.clone()).collect();
    profiles.dedup();
    let all_mig = machine.gpus.iter().all(|g| g.mig_enabled);
    match profiles.as_slice() {
        [one] if all_mig => SingleLayout::Mig(one.clone()),
        _ => SingleLayout::Invalid,
    }
}

/// Every device the plugin advertises, in the order it lists them.
pub fn devices(machine: &GpuMachine) -> Vec<Device> {
    let mut devices = Vec::new();
    let single = single_layout(machine);
    for gpu in &machine.gpus {
        let whole = Device { resource: GPU_RESOURCE.into(), id: gpu.uuid.clone(), gpu: gpu.index, gpu_instance: None };
        match machine.strategy {
            MigStrategy::None => devices.push(whole),
            MigStrategy::Single if single == SingleLayout::WholeGpus => devices.push(whole),
            MigStrategy::Single | MigStrategy::Mixed if gpu.mig_enabled => {
                if machine.strategy == MigStrategy::Single && single == SingleLayout::Invalid {
                    continue;
                }
                for mig in gpu.mig_devices() {
                    let resource = match machine.strategy {
                        MigStrategy::Mixed => format!("nvidia.com/mig-{}", mig.profile.resource_name()),
                        _ => GPU_RESOURCE.to_string(),
                    };
                    devices.push(Device {
                        resource,
                        id: mig.uuid,
                        gpu: gpu.index,
                        gpu_instance: Some(mig.gpu_instance.id),
                    });
                }
            }
            MigStrategy::Mixed => devices.push(whole),
            MigStrategy::Single => {}
        }
    }
    match &machine.time_slicing {
        Some(sharing) => replicate(devices, sharing),
        None => devices,
    }
}

/// Time-slicing: each shared device `replicas` times (IDs `<uuid>::<replica>`), replica-major
/// so that successive allocations land on different GPUs first; a device whose resource is
/// not listed is advertised as it is.
fn replicate(devices: Vec<Device>, sharing: &TimeSlicing) -> Vec<Device> {
    let most = devices.iter().map(|d| sharing.replicas_of(&d.resource)).max().unwrap_or(1);
    let mut shared = Vec::with_capacity(devices.len() * most as usize);
    for replica in 0..most {
        for device in &devices {
            let replicas = sharing.replicas_of(&device.resource);
            if replicas < 2 {
                if replica == 0 {
                    shared.push(device.clone());
                }
            } else if replica < replicas {
                let resource = sharing.shared_name(&device.resource);
                shared.push(Device { resource, id: format!("{}::{replica}", device.id), ..device.clone() });
            }
        }
    }
    shared
}

/// Capacity per resource: what the kubelet adds to the Node's capacity and allocatable.
pub fn capacity(devices: &[Device]) -> BTreeMap<String, i64> {
    let mut counts = BTreeMap::new();
    for device in devices {
        *counts.entry(device.resource.clone()).or_insert(0) += 1;
    }
    counts
}

/// The kubelet device manager's pick: `count` free devices of `resource`, or `None` when fewer
/// are free (the kubelet then rejects the pod with `UnexpectedAdmissionError`). Several whole
/// GPUs come as the plugin's `GetPreferredAllocation` prefers them, the best-connected set
/// (`topology::best_set`); otherwise the first free in the plugin's order.
pub fn allocate<'a>(
    machine: &GpuMachine,
    devices: &'a [Device],
    taken: &dyn Fn(&str) -> bool,
    resource: &str,
    count: usize,
) -> Option<Vec<&'a Device>> {
    let free: Vec<&Device> = devices.iter().filter(|d| d.resource == resource && !taken(&d.id)).collect();
    let whole_gpus = free.iter().all(|d| d.gpu_instance.is_none() && !d.id.contains("::"));
    if count >= 2 && whole_gpus {
        let indexes: Vec<u32> = free.iter().map(|d| d.gpu).collect();
        let set = super::topology::best_set(machine, &indexes, count)?;
        return Some(free.into_iter().filter(|d| set.contains(&d.gpu)).collect());
    }
    let picked: Vec<&Device> = free.into_iter().take(count).collect();
    (picked.len() == count).then_some(picked)
}

/// Every resource name the plugin can advertise for the lab's models (whole GPUs, each MIG
/// profile, their `.shared` forms), sorted: the scheduler keeps one shared copy of each.
pub fn advertisable_resources() -> &'static [String] {
    static KNOWN: OnceLock<Vec<String>> = OnceLock::new();
    KNOWN.get_or_init(|| {
        let mut names = vec![GPU_RESOURCE.to_string()];
        for model in super::model::models() {
            for profile in model.mig.iter().flat_map(|m| m.profiles.iter()) {
                names.push(format!("nvidia.com/mig-{}", profile.resource_name()));
            }
        }
        names.sort();
        names.dedup();
        let shared: Vec<String> = names.iter().map(|n| format!("{n}.shared")).collect();
        names.extend(shared);
        names.sort();
        names
    })
}
