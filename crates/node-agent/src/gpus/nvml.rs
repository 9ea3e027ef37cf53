//! `--gpus nvml`: the machine's GPUs read from NVIDIA's management library (as GPU Feature
//! Discovery and the device plugin read them): count, name, memory, UUID, MIG mode and each MIG
//! device's UUID and profile, into the same inventory a fake file gives. NVML is loaded at run
//! time, so without NVIDIA's driver this fails with a clear message and nothing else changes.

use super::inventory::Inventory;
use kubelab_core::gpu::machine::{GpuInventory, GpuMachine, MigStrategy};
use kubelab_core::gpu::model::{self, GpuModel, MigProfile};
use nvml_wrapper::Nvml;
use std::collections::BTreeMap;

/// One MIG device as NVML describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MigReading {
    pub uuid: String,
    /// GPU instance slices (the `Ng` of a profile).
    pub slices: u32,
    pub memory_mib: u64,
    /// Whether it holds the media engines (a `+me` profile).
    pub media: bool,
}

/// One GPU as NVML describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GpuReading {
    pub name: String,
    pub uuid: String,
    pub memory_mib: u64,
    pub mig_enabled: bool,
    pub mig: Vec<MigReading>,
}

/// The machine's GPUs, or why NVML cannot say; `strategy` is the device plugin's.
pub fn read(node: &str, strategy: MigStrategy) -> Result<Inventory, String> {
    let nvml = Nvml::init().map_err(|e| {
        format!("--gpus nvml: cannot load NVML ({e}); is NVIDIA's driver installed? (--gpus none runs without GPUs)")
    })?;
    let count = nvml.device_count().map_err(|e| format!("NVML: device count: {e}"))?;
    let mut readings = Vec::new();
    for index in 0..count {
        readings.push(read_gpu(&nvml, index).map_err(|e| format!("NVML: GPU {index}: {e}"))?);
    }
    inventory(node, &readings, strategy)
}

fn read_gpu(nvml: &Nvml, index: u32) -> Result<GpuReading, nvml_wrapper::error::NvmlError> {
    let device = nvml.device_by_index(index)?;
    let mig_enabled = device.mig_mode().map(|m| m.current == 1).unwrap_or(false);
    let mut mig = Vec::new();
    if mig_enabled {
        let most = device.mig_device_count().unwrap_or(0);
        for slot in 0..most {
            let Ok(instance) = device.mig_device_by_index(slot) else { continue };
            let attributes = instance.attributes()?;
            mig.push(MigReading {
                uuid: instance.uuid()?,
                slices: attributes.gpu_instance_slice_count,
                memory_mib: attributes.memory_size_mb,
                media: attributes.shared_decoder_count > 0 && attributes.gpu_instance_slice_count == 1,
            });
        }
    }
    Ok(GpuReading {
        name: device.name()?,
        uuid: device.uuid()?,
        memory_mib: device.memory_info()?.total >> 20,
        mig_enabled,
        mig,
    })
}

/// What NVML read, in the simulation's terms. MIG devices are laid out in the order NVML
/// lists them, as the driver would place them; their UUIDs are the driver's.
pub fn inventory(node: &str, readings: &[GpuReading], strategy: MigStrategy) -> Result<Inventory, String> {
    let first = readings.first().ok_or("NVML found no GPU on this machine")?;
    let model = model_named(&first.name)?;
    let count = readings.len() as u32;
    let mut machine = GpuMachine::new(node, &GpuInventory { model, count }, strategy);
    let mut mig_uuids = BTreeMap::new();
    for (index, reading) in readings.iter().enumerate() {
        if model_named(&reading.name)?.name != model.name {
            return Err(format!("GPU {index} is a {}: the lab models machines with one kind of GPU", reading.name));
        }
        let gpu = &mut machine.gpus[index];
        gpu.uuid = reading.uuid.clone();
        gpu.mig_enabled = reading.mig_enabled;
        let Some(geometry) = model.mig.as_ref().filter(|_| reading.mig_enabled) else { continue };
        for device in &reading.mig {
            let profile = profile_of(model, device)?;
            let gi = gpu.mig.create(geometry, profile, None).map_err(|e| format!("GPU {index}: {}", e.rule))?;
            gpu.mig.create_compute_instance(gi, profile).map_err(|e| format!("GPU {index}: {}", e.rule))?;
            mig_uuids.insert((index as u32, gi), device.uuid.clone());
        }
    }
    Ok(Inventory { machine, mig_uuids })
}

/// The lab's model for NVML's product name (`NVIDIA A100-SXM4-40GB`, `NVIDIA H100 80GB HBM3`).
fn model_named(name: &str) -> Result<&'static GpuModel, String> {
    model::find(name)
        .or_else(|| model::models().iter().find(|m| m.product.eq_ignore_ascii_case(name)))
        .ok_or_else(|| format!("GPU {name:?} is not a model the lab knows ({})", model::names().join(", ")))
}

/// The MIG profile with the device's slices, media engines and (nearest) memory.
fn profile_of<'a>(model: &'a GpuModel, device: &MigReading) -> Result<&'a MigProfile, String> {
    let geometry = model.mig.as_ref().ok_or_else(|| format!("{} has no MIG", model.name))?;
    geometry
        .profiles
        .iter()
        .filter(|p| u32::from(p.compute_slices) == device.slices && p.media_extensions() == device.media)
        .min_by_key(|p| p.memory_mib.abs_diff(device.memory_mib))
        .ok_or_else(|| format!("no {} MIG profile has {} slices", model.name, device.slices))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mig(uuid: &str) -> MigReading {
        MigReading { uuid: uuid.into(), slices: 1, memory_mib: 4864, media: false }
    }

    #[test]
    fn nvml_readings_become_the_same_inventory_as_a_file() {
        let readings = [
            GpuReading {
                name: "NVIDIA A100-SXM4-40GB".into(),
                uuid: "GPU-11111111-2222-3333-4444-555555555555".into(),
                memory_mib: 40960,
                mig_enabled: true,
                mig: (0..7).map(|i| mig(&format!("MIG-{i:08x}-2222-5333-8444-555555555555"))).collect(),
            },
            GpuReading {
                name: "NVIDIA A100-SXM4-40GB".into(),
                uuid: "GPU-66666666-2222-3333-4444-555555555555".into(),
                memory_mib: 40960,
                mig_enabled: false,
                mig: Vec::new(),
            },
        ];
        let from_nvml = inventory("gpu-1", &readings, MigStrategy::Mixed).unwrap();
        let file = "migStrategy: mixed\ngpus:\n- model: A100-SXM4-40GB\n  mig: all-1g.5gb\n- model: A100-SXM4-40GB\n";
        let from_file = super::super::fake::parse(file, "gpu-1").unwrap();
        assert_eq!(from_nvml.capacity(), from_file.capacity());
        assert_eq!(from_nvml.labels(), from_file.labels());
        let ids: Vec<String> = from_nvml.devices().into_iter().map(|d| d.id).collect();
        assert!(ids.contains(&"MIG-00000006-2222-5333-8444-555555555555".to_string()), "{ids:?}");
        assert!(ids.contains(&"GPU-66666666-2222-3333-4444-555555555555".to_string()));
    }

    #[test]
    fn an_unknown_product_is_named() {
        let reading = GpuReading {
            name: "NVIDIA GeForce RTX 4090".into(),
            uuid: String::new(),
            memory_mib: 0,
            mig_enabled: false,
            mig: Vec::new(),
        };
        let error = inventory("n", &[reading], MigStrategy::Single).unwrap_err();
        assert!(error.contains("\"NVIDIA GeForce RTX 4090\" is not a model the lab knows"), "{error}");
    }
}
