//! The GPU Operator's MIG manager (NVIDIA/mig-parted): a node labelled
//! `nvidia.com/mig.config=NAME` is reconfigured to that named layout of mig-parted's default
//! config, while `nvidia.com/mig.config.state` reads `pending`, then `success` or `failed`.

use super::machine::GpuMachine;
use super::model::GpuModel;
use crate::sim::time::Duration;

/// How long a reconfiguration takes: the manager stops the GPU clients (device plugin, GFD,
/// DCGM), resets the GPUs, applies the layout and starts them again.
pub const RECONFIGURE: Duration = Duration::from_secs(30);

/// The config the GPU Operator labels a MIG-capable node with (`migManager.config.default`).
pub const DEFAULT_CONFIG: &str = "all-disabled";

/// One GPU's wanted layout: MIG on or off, and how many instances of each profile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MigConfig {
    pub enabled: bool,
    pub devices: Vec<(String, u8)>,
}

/// The named configs of mig-parted's `config-default.yaml` that apply to `model`:
/// `all-disabled`, `all-enabled`, `all-<profile>` (as many as fit), `all-<profile>.me`
/// (one, with the media engines) and `all-balanced`.
pub fn named_configs(model: &GpuModel) -> Vec<(String, MigConfig)> {
    let mut configs = vec![
        ("all-disabled".to_string(), MigConfig { enabled: false, devices: Vec::new() }),
        ("all-enabled".to_string(), MigConfig { enabled: true, devices: Vec::new() }),
    ];
    let Some(geometry) = &model.mig else {
        configs.truncate(1);
        return configs;
    };
    for profile in &geometry.profiles {
        let (name, count) = match profile.name.strip_suffix("+me") {
            Some(base) => (format!("all-{base}.me"), 1),
            None => (format!("all-{}", profile.name), profile.instances),
        };
        configs.push((name, MigConfig { enabled: true, devices: vec![(profile.name.clone(), count)] }));
    }
    configs.push(("all-balanced".to_string(), MigConfig { enabled: true, devices: geometry.balanced.clone() }));
    configs
}

/// Whether the machine's GPUs already have the layout `name` gives (the manager then reports
/// success without resetting anything).
pub fn already_applied(machine: &GpuMachine, name: &str) -> bool {
    let mut trial = machine.clone();
    apply(&mut trial, name).is_ok() && trial.gpus == machine.gpus
}

/// Reconfigures every GPU of the machine to `name`; the error is the manager's log line.
pub fn apply(machine: &mut GpuMachine, name: &str) -> Result<(), String> {
    let model = machine.model().ok_or("no GPUs on this node")?;
    let (_, config) = named_configs(model)
        .into_iter()
        .find(|(n, _)| n == name)
        .ok_or_else(|| format!("error: config \"{name}\" has no entry for device {}", model.product))?;
    for gpu in &mut machine.gpus {
        let mut layout = super::mig::MigLayout::default();
        if config.enabled {
            let geometry = model.mig.as_ref().ok_or("MIG is not supported on this GPU")?;
            layout = place(geometry, &config.devices)
                .ok_or_else(|| format!("error: no placement of {:?} fits GPU {}", config.devices, gpu.index))?;
        }
        gpu.mig_enabled = config.enabled;
        gpu.mig = layout;
    }
    machine.applied_config = Some(name.to_string());
    Ok(())
}

/// A layout holding every wanted instance, each with its compute instance: largest profiles
/// first, then every placement in turn (mig-parted tries orders until one fits).
fn place(geometry: &super::model::MigGeometry, wanted: &[(String, u8)]) -> Option<super::mig::MigLayout> {
    let mut flat: Vec<&super::model::MigProfile> = Vec::new();
    for (name, count) in wanted {
        let profile = geometry.profiles.iter().find(|p| &p.name == name)?;
        flat.extend(std::iter::repeat_n(profile, usize::from(*count)));
    }
    flat.sort_by_key(|p| std::cmp::Reverse(p.memory_slices));
    let mut layout = super::mig::MigLayout::default();
    if !fill(geometry, &flat, &mut layout) {
        return None;
    }
    let ids: Vec<(u32, u32)> = layout.gpu_instances.iter().map(|gi| (gi.id, gi.profile_id)).collect();
    for (gi, profile_id) in ids {
        let profile = geometry.profiles.iter().find(|p| p.id == profile_id)?;
        layout.create_compute_instance(gi, profile).ok()?;
    }
    Some(layout)
}

fn fill(
    geometry: &super::model::MigGeometry,
    rest: &[&super::model::MigProfile],
    layout: &mut super::mig::MigLayout,
) -> bool {
    let Some((profile, rest)) = rest.split_first() else { return true };
    let free = layout.free_placements(geometry, profile);
    for start in profile.preferred_placements().into_iter().filter(|s| free.contains(s)) {
        let mut trial = layout.clone();
        if trial.create(geometry, profile, Some(start)).is_ok() && fill(geometry, rest, &mut trial) {
            *layout = trial;
            return true;
        }
    }
    false
}
