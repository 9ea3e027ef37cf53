//! One physical GPU in a machine: its model, index, UUID and PCI address, MIG mode and layout,
//! and the NVLink domain it shares with its board's other GPUs. What NVML enumerates.

use super::mig::{GpuInstance, MigLayout};
use super::model::{GpuModel, MigProfile};

#[derive(Clone, Debug, PartialEq)]
pub struct Gpu {
    pub index: u32,
    pub model: &'static GpuModel,
    /// `GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, fixed for the machine.
    pub uuid: String,
    /// `00000000:07:00.0`, as `nvidia-smi` prints the bus ID.
    pub bus_id: String,
    /// MIG mode as it is now (`-mig 1` takes effect at once here: no GPU reset is pending).
    pub mig_enabled: bool,
    pub mig: MigLayout,
    /// GPUs with the same domain talk over NVLink/NVSwitch; `None` on PCIe-only cards.
    pub nvlink_domain: Option<u32>,
}

/// A MIG device as the device plugin and `nvidia-smi -L` see it: a GPU instance with its
/// compute instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MigDevice<'a> {
    pub gpu: u32,
    pub gpu_instance: &'a GpuInstance,
    pub compute_instance: u32,
    pub profile: &'a MigProfile,
    /// `MIG-xxxxxxxx-…`, derived from the GPU and the instance.
    pub uuid: String,
}

/// DGX A100's and HGX H100's GPU bus numbers, in index order; more GPUs continue past them.
const BUS_NUMBERS: [u32; 8] = [0x07, 0x0F, 0x47, 0x4E, 0x87, 0x90, 0xB7, 0xBD];

impl Gpu {
    /// GPU `index` of machine `node` (the UUID follows from both, so it is stable across runs).
    pub fn new(model: &'static GpuModel, node: &str, index: u32) -> Gpu {
        let bus = BUS_NUMBERS.get(index as usize).copied().unwrap_or(0xC0 + index);
        Gpu {
            index,
            model,
            uuid: format!("GPU-{}", uuid_text(&[node.as_bytes(), &index.to_le_bytes()], false)),
            bus_id: format!("00000000:{bus:02X}:00.0"),
            mig_enabled: false,
            mig: MigLayout::default(),
            nvlink_domain: model.nvlink.then_some(0),
        }
    }

    /// The MIG devices (GPU instances that have their compute instance), by GI ID.
    pub fn mig_devices(&self) -> Vec<MigDevice<'_>> {
        let Some(geometry) = &self.model.mig else { return Vec::new() };
        if !self.mig_enabled {
            return Vec::new();
        }
        let mut devices = Vec::new();
        for gi in &self.mig.gpu_instances {
            let Some(profile) = geometry.profiles.iter().find(|p| p.id == gi.profile_id) else { continue };
            for ci in &gi.compute_instances {
                let uuid = format!(
                    "MIG-{}",
                    uuid_text(&[self.uuid.as_bytes(), &gi.id.to_le_bytes(), &ci.id.to_le_bytes()], true)
                );
                devices.push(MigDevice { gpu: self.index, gpu_instance: gi, compute_instance: ci.id, profile, uuid });
            }
        }
        devices
    }

    /// The GPU instance profile with this ID, on this model.
    pub fn mig_profile(&self, id: u32) -> Option<&'static MigProfile> {
        self.model.mig.as_ref()?.profiles.iter().find(|p| p.id == id)
    }
}

/// A UUID's text from a hash of `parts` (FNV-1a, then splitmix64 for the bits): a pure
/// function, so no stream of the lab's randomness is drawn for it. MIG device UUIDs are
/// name-based (version 5, RFC 4122 variant) as the driver derives them from the GPU and
/// instance; GPU UUIDs are the board's, with no structure.
fn uuid_text(parts: &[&[u8]], name_based: bool) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for byte in part.iter().chain([0xffu8].iter()) {
            hash ^= u64::from(*byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    let mut next = || crate::sim::rng::splitmix64(&mut hash);
    let (mut a, mut b) = (next(), next());
    if name_based {
        a = (a & !0xf000) | 0x5000;
        b = (b & !(0xc000 << 48)) | (0x8000 << 48);
    }
    format!(
        "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xffff,
        b >> 48,
        b & 0xffff_ffff_ffff
    )
}
