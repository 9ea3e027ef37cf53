//! GPU Feature Discovery: the `nvidia.com/…` node labels GFD writes from what NVML reports and
//! the device plugin's config — product, count, memory, family, compute capability, MIG
//! capability and strategy, and per MIG profile its count, memory, SMs, slices and engines.
//! Label names and values as GFD (k8s-device-plugin/internal/lm) writes them.

use super::device_plugin::{GPU_RESOURCE, SingleLayout, single_layout};
use super::machine::{GpuMachine, MigStrategy};
use super::model::MigProfile;
use crate::api::string_map::StringMap;
use std::collections::BTreeMap;

/// The driver the lab's GPU nodes run, and the CUDA version it supports.
pub const DRIVER_VERSION: &str = "580.126.09";
pub const CUDA_VERSION: &str = "13.0";

/// Labels GFD does not own: the MIG manager's and the device plugin config's (a learner's or
/// the operator's own); GFD rewrites every other `nvidia.com/` label.
pub fn owned_by_gfd(key: &str) -> bool {
    const NOT_GFDS: [&str; 3] =
        ["nvidia.com/mig.config", "nvidia.com/mig.config.state", "nvidia.com/device-plugin.config"];
    key.starts_with("nvidia.com/") && !NOT_GFDS.contains(&key)
}

/// Every label GFD writes for the machine, sorted.
pub fn labels(machine: &GpuMachine) -> StringMap {
    let mut labels = BTreeMap::new();
    let Some(model) = machine.model() else { return StringMap::new() };
    let mut put = |k: &str, v: String| {
        labels.insert(format!("nvidia.com/{k}"), v);
    };
    let (driver_major, rest) = DRIVER_VERSION.split_once('.').unwrap_or((DRIVER_VERSION, ""));
    let (driver_minor, driver_revision) = rest.split_once('.').unwrap_or((rest, ""));
    put("cuda.driver-version.full", DRIVER_VERSION.into());
    put("cuda.driver-version.major", driver_major.into());
    put("cuda.driver-version.minor", driver_minor.into());
    put("cuda.driver-version.revision", driver_revision.into());
    let (cuda_major, cuda_minor) = CUDA_VERSION.split_once('.').unwrap_or((CUDA_VERSION, "0"));
    put("cuda.runtime-version.full", CUDA_VERSION.into());
    put("cuda.runtime-version.major", cuda_major.into());
    put("cuda.runtime-version.minor", cuda_minor.into());
    put("gpu.compute.major", model.compute.0.to_string());
    put("gpu.compute.minor", model.compute.1.to_string());
    put("gpu.family", model.family.clone());
    put("gpu.mode", "compute".into());
    put("gpu.present", "true".into());
    put("mig.capable", model.mig.is_some().to_string());
    put("mps.capable", "false".into());
    put("vgpu.present", "false".into());
    if model.mig.is_some() {
        put("mig.strategy", machine.strategy.as_str().into());
    }
    // `-SHARED` marks a shared product only when it keeps its resource name (`renameByDefault`
    // advertises `<name>.shared` instead, and the product stays as it is).
    let sharing_of = |resource: &str| -> (u32, &'static str, &'static str) {
        match &machine.time_slicing {
            Some(ts) if ts.replicas_of(resource) >= 2 => {
                (ts.replicas_of(resource), "time-slicing", if ts.shares_in_place(resource) { "-SHARED" } else { "" })
            }
            _ => (1, "none", ""),
        }
    };
    let (replicas, sharing, suffix) = sharing_of(GPU_RESOURCE);
    let whole = |put: &mut dyn FnMut(&str, String)| {
        put("gpu.count", machine.gpus.len().to_string());
        put("gpu.memory", model.memory_mib.to_string());
        put("gpu.product", format!("{}{suffix}", model.product_label()));
        put("gpu.replicas", replicas.to_string());
        put("gpu.sharing-strategy", sharing.into());
    };
    match (machine.strategy, single_layout(machine)) {
        (MigStrategy::None, _) | (MigStrategy::Single, SingleLayout::WholeGpus) => whole(&mut put),
        (MigStrategy::Single, SingleLayout::Mig(name)) => {
            let profile = model.profile(&name).expect("a MIG device's profile is its model's");
            let count = machine.gpus.iter().map(|g| g.mig_devices().len()).sum::<usize>();
            mig_labels(&mut put, "gpu", profile, count, &format!("{}-MIG-{name}{suffix}", model.product_label()));
            put("gpu.replicas", replicas.to_string());
            put("gpu.sharing-strategy", sharing.into());
        }
        (MigStrategy::Single, SingleLayout::Invalid) => {
            put("gpu.count", "0".into());
            put("gpu.memory", "0".into());
            put("gpu.product", format!("{}-MIG-INVALID", model.product_label()));
            put("gpu.replicas", "0".into());
            put("gpu.sharing-strategy", String::new());
        }
        (MigStrategy::Mixed, _) => {
            // The parent GPUs are still counted; they are not shared once all are in MIG mode.
            let all_mig = machine.gpus.iter().all(|g| g.mig_enabled);
            put("gpu.count", machine.gpus.len().to_string());
            put("gpu.memory", model.memory_mib.to_string());
            put("gpu.product", format!("{}{suffix}", model.product_label()));
            put("gpu.replicas", if all_mig { "0".to_string() } else { replicas.to_string() });
            put("gpu.sharing-strategy", sharing.into());
            let mut per_profile: BTreeMap<String, (&MigProfile, usize)> = BTreeMap::new();
            for gpu in &machine.gpus {
                for device in gpu.mig_devices() {
                    per_profile.entry(device.profile.resource_name()).or_insert((device.profile, 0)).1 += 1;
                }
            }
            for (name, (profile, count)) in per_profile {
                let prefix = format!("mig-{name}");
                let (replicas, sharing, suffix) = sharing_of(&format!("nvidia.com/{prefix}"));
                mig_labels(
                    &mut put,
                    &prefix,
                    profile,
                    count,
                    &format!("{}-MIG-{}{suffix}", model.product_label(), name),
                );
                put(&format!("{prefix}.replicas"), replicas.to_string());
                put(&format!("{prefix}.sharing-strategy"), sharing.into());
            }
        }
    }
    let mut map = StringMap::new();
    for (k, v) in labels {
        map.insert(&k, &v);
    }
    map
}

/// One MIG profile's labels under `prefix` (`gpu` for single, `mig-1g.5gb` for mixed).
fn mig_labels(put: &mut dyn FnMut(&str, String), prefix: &str, profile: &MigProfile, count: usize, product: &str) {
    put(&format!("{prefix}.count"), count.to_string());
    put(&format!("{prefix}.engines.copy"), profile.copy_engines.to_string());
    put(&format!("{prefix}.engines.decoder"), profile.decoders.to_string());
    put(&format!("{prefix}.engines.encoder"), profile.encoders.to_string());
    put(&format!("{prefix}.engines.jpeg"), profile.jpeg.to_string());
    put(&format!("{prefix}.engines.ofa"), profile.ofa.to_string());
    put(&format!("{prefix}.memory"), profile.memory_mib.to_string());
    put(&format!("{prefix}.multiprocessors"), profile.multiprocessors.to_string());
    put(&format!("{prefix}.product"), product.to_string());
    put(&format!("{prefix}.slices.ci"), profile.compute_slices.to_string());
    put(&format!("{prefix}.slices.gi"), profile.compute_slices.to_string());
}
