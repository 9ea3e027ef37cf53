//! `--gpus fake:FILE`: a machine's GPUs described in YAML, for machines without NVIDIA's driver
//! (tests, demos). The format:
//!
//! ```yaml
//! migStrategy: mixed            # the device plugin's: none, single (default) or mixed
//! gpus:
//! - model: A100-SXM4-40GB       # a model the lab knows (models.yaml)
//!   uuid: GPU-5c3e1c7a-…        # optional: as `nvidia-smi -L` prints it; derived when left out
//!   mig: all-1g.5gb             # optional: a mig-parted config (all-disabled, all-1g.5gb, …)
//!   migUuids: [MIG-…, …]        # optional: the MIG devices' UUIDs, in GPU instance order
//! - model: A100-SXM4-40GB
//! ```
//!
//! Every GPU is one model (a machine has one kind). UUIDs left out are the ones the simulation
//! gives the same GPU of a node with this name.

use super::inventory::Inventory;
use kubelab_core::gpu::device::Gpu;
use kubelab_core::gpu::machine::{GpuInventory, GpuMachine, MigStrategy};
use kubelab_core::gpu::{mig_manager, model};
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct File {
    #[serde(default)]
    mig_strategy: Option<String>,
    gpus: Vec<FileGpu>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct FileGpu {
    model: String,
    #[serde(default)]
    uuid: Option<String>,
    #[serde(default)]
    mig: Option<String>,
    #[serde(default)]
    mig_uuids: Vec<String>,
}

/// The inventory `text` describes for machine `node`, or what is wrong with it.
pub fn parse(text: &str, node: &str) -> Result<Inventory, String> {
    let file: File = serde_yaml::from_str(text).map_err(|e| format!("invalid GPU file: {e}"))?;
    let strategy = MigStrategy::parse(file.mig_strategy.as_deref().unwrap_or("single"))?;
    if file.gpus.is_empty() || file.gpus.len() > 16 {
        return Err(format!("a machine holds 1 to 16 GPUs, not {}", file.gpus.len()));
    }
    let first = find_model(&file.gpus[0].model)?;
    let count = file.gpus.len() as u32;
    let mut machine = GpuMachine::new(node, &GpuInventory { model: first, count }, strategy);
    let mut mig_uuids = BTreeMap::new();
    for (index, entry) in file.gpus.iter().enumerate() {
        let model = find_model(&entry.model)?;
        if model.name != first.name {
            return Err(format!("gpus[{index}]: a machine has one kind of GPU: {} and {}", first.name, model.name));
        }
        let gpu = &mut machine.gpus[index];
        if let Some(uuid) = &entry.uuid {
            check_uuid(uuid, "GPU-").map_err(|e| format!("gpus[{index}].uuid: {e}"))?;
            gpu.uuid = uuid.clone();
        }
        if let Some(config) = &entry.mig {
            configure_mig(gpu, node, config).map_err(|e| format!("gpus[{index}].mig: {e}"))?;
        }
        let instances: Vec<u32> = gpu.mig_devices().iter().map(|d| d.gpu_instance.id).collect();
        if !entry.mig_uuids.is_empty() && entry.mig_uuids.len() != instances.len() {
            return Err(format!(
                "gpus[{index}].migUuids: {} UUIDs for {} MIG devices",
                entry.mig_uuids.len(),
                instances.len()
            ));
        }
        for (gi, uuid) in instances.iter().zip(&entry.mig_uuids) {
            check_uuid(uuid, "MIG-").map_err(|e| format!("gpus[{index}].migUuids: {e}"))?;
            mig_uuids.insert((index as u32, *gi), uuid.clone());
        }
    }
    Ok(Inventory { machine, mig_uuids })
}

fn find_model(name: &str) -> Result<&'static model::GpuModel, String> {
    model::find(name).ok_or_else(|| format!("unknown GPU model {name:?}; known: {}", model::names().join(", ")))
}

/// Lays the GPU out as the MIG manager would for `config` (`all-1g.5gb`, `all-disabled`).
fn configure_mig(gpu: &mut Gpu, node: &str, config: &str) -> Result<(), String> {
    let mut one = GpuMachine::new(node, &GpuInventory { model: gpu.model, count: 1 }, MigStrategy::Mixed);
    mig_manager::apply(&mut one, config).map_err(|e| e.trim_start_matches("error: ").to_string())?;
    gpu.mig_enabled = one.gpus[0].mig_enabled;
    gpu.mig = one.gpus[0].mig.clone();
    Ok(())
}

/// `GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` (or `MIG-…`), hexadecimal, as the driver prints it.
fn check_uuid(uuid: &str, prefix: &str) -> Result<(), String> {
    let groups: Vec<&str> = uuid.strip_prefix(prefix).unwrap_or("").split('-').collect();
    let shaped = groups.iter().map(|g| g.len()).eq([8, 4, 4, 4, 12])
        && groups.iter().all(|g| g.bytes().all(|b| b.is_ascii_hexdigit()));
    if shaped {
        Ok(())
    } else {
        Err(format!("{uuid:?} is not a UUID as nvidia-smi prints one ({prefix}xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIXED: &str =
        "migStrategy: mixed\ngpus:\n- model: A100-SXM4-40GB\n  mig: all-1g.5gb\n- model: A100-SXM4-40GB\n";

    #[test]
    fn a_file_describes_gpus_mig_layouts_and_the_strategy() {
        let inventory = parse(MIXED, "gpu-1").unwrap();
        assert_eq!(inventory.machine.strategy, MigStrategy::Mixed);
        assert_eq!(inventory.machine.gpus[0].mig_devices().len(), 7);
        assert!(!inventory.machine.gpus[1].mig_enabled);
        let capacity: Vec<(String, i64)> = inventory.capacity().into_iter().collect();
        assert_eq!(capacity, [("nvidia.com/gpu".to_string(), 1), ("nvidia.com/mig-1g.5gb".to_string(), 7)]);
        assert!(inventory.machine.gpus[0].uuid.starts_with("GPU-"));
        assert!(inventory.devices().iter().filter(|d| d.gpu_instance.is_some()).all(|d| d.id.starts_with("MIG-")));
    }

    #[test]
    fn given_uuids_are_kept() {
        let text = "gpus:\n- model: L4\n  uuid: GPU-5c3e1c7a-8f0b-4d2e-9a61-0123456789ab\n";
        let inventory = parse(text, "n").unwrap();
        assert_eq!(inventory.devices()[0].id, "GPU-5c3e1c7a-8f0b-4d2e-9a61-0123456789ab");
        let mig = "migStrategy: mixed\ngpus:\n- model: A100-SXM4-40GB\n  mig: all-3g.20gb\n  migUuids: [MIG-11111111-2222-5333-8444-555555555555, MIG-aaaaaaaa-bbbb-5ccc-8ddd-eeeeeeeeeeee]\n";
        let inventory = parse(mig, "n").unwrap();
        let ids: Vec<String> = inventory.devices().into_iter().map(|d| d.id).collect();
        assert!(ids.contains(&"MIG-11111111-2222-5333-8444-555555555555".to_string()), "{ids:?}");
    }

    #[test]
    fn mistakes_are_named() {
        let error = |text: &str| parse(text, "n").unwrap_err();
        assert!(error("gpus: []").contains("1 to 16 GPUs, not 0"));
        assert!(error("gpus:\n- model: V100\n").contains("unknown GPU model \"V100\"; known: A100-SXM4-40GB"));
        assert!(
            error("gpus:\n- model: L4\n- model: T4\n").contains("gpus[1]: a machine has one kind of GPU: L4 and T4")
        );
        assert!(error("gpus:\n- model: L4\n  uuid: 1234\n").contains("gpus[0].uuid: \"1234\" is not a UUID"));
        assert!(
            error("gpus:\n- model: A100-SXM4-40GB\n  mig: all-9g.99gb\n")
                .contains("gpus[0].mig: config \"all-9g.99gb\"")
        );
        assert!(error("migStrategy: some\ngpus:\n- model: L4\n").contains("unknown MIG strategy \"some\""));
        assert!(error("gpus:\n- model: L4\n  memory: 1\n").contains("unknown field `memory`"));
        assert!(error("gpus:\n- model: L4\n  mig: all-1g.5gb\n").contains("gpus[0].mig:"));
        let short = "gpus:\n- model: A100-SXM4-40GB\n  mig: all-3g.20gb\n  migUuids: [MIG-11111111-2222-5333-8444-555555555555]\n";
        assert!(error(short).contains("1 UUIDs for 2 MIG devices"));
    }
}
