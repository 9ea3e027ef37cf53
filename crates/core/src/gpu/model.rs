//! GPU models as the hardware reports them: names, memory, SMs and, for MIG-capable cards, every
//! GPU instance profile with its ID, instance limit, memory, engines and placements. The tables
//! are data (`models.yaml`), each value with its source; this file only reads them.

use serde::Deserialize;
use std::sync::OnceLock;

/// One GPU model.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GpuModel {
    /// What cluster files and `lab node add --gpu` call it (`A100-SXM4-40GB`).
    pub name: String,
    /// As NVML's `nvmlDeviceGetName` and `nvidia-smi` print it (`NVIDIA A100-SXM4-40GB`).
    pub product: String,
    /// Framebuffer memory in MiB (`nvidia-smi`'s total, GFD's `nvidia.com/gpu.memory`).
    pub memory_mib: u64,
    /// Streaming multiprocessors on the whole GPU.
    pub multiprocessors: u32,
    /// Board power limit, watts (`nvidia-smi`'s `Pwr:Usage/Cap`).
    pub power_watts: u32,
    /// GFD's `nvidia.com/gpu.family` (`ampere`, `hopper`, `turing`, `ada-lovelace`).
    pub family: String,
    /// CUDA compute capability, major and minor.
    pub compute: (u32, u32),
    /// GPUs of this model on one board share an NVLink (NVSwitch) domain; PCIe cards do not.
    pub nvlink: bool,
    /// NVLinks each GPU bonds to every other through the NVSwitches (`nvidia-smi topo -m`'s
    /// `NV12`, `NV18`); 0 without NVLink.
    #[serde(default)]
    pub nvlinks: u32,
    /// The MIG geometry, for MIG-capable models.
    #[serde(default)]
    pub mig: Option<MigGeometry>,
}

/// A MIG-capable model's slices and GPU instance profiles.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MigGeometry {
    /// Compute slices (7 on A100, H100 and H200).
    pub compute_slices: u8,
    /// Memory slices (8); placements are counted in these.
    pub memory_slices: u8,
    /// BAR1 memory the MIG devices share, MiB, split by memory slices (the default table).
    pub bar1_mib: u64,
    /// Where the placements come from, or that they are inferred (and from what).
    pub placements_source: String,
    pub profiles: Vec<MigProfile>,
    /// mig-parted's `all-balanced` for this model: profile and count per GPU.
    pub balanced: Vec<(String, u8)>,
}

/// One GPU instance profile (`nvidia-smi mig -lgip`'s row, `-lgipp`'s placements).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MigProfile {
    /// `1g.5gb`, `1g.5gb+me`, …: compute slices, then memory rounded to whole GB.
    pub name: String,
    /// The GPU instance profile ID NVML numbers it with (19, 20, 15, 14, 9, 5, 0).
    pub id: u32,
    /// How many instances of it one GPU holds at most.
    pub instances: u8,
    /// Memory in MiB (`-lgip` prints it in GiB, two decimals).
    pub memory_mib: u64,
    pub multiprocessors: u32,
    pub copy_engines: u32,
    pub decoders: u32,
    pub encoders: u32,
    pub jpeg: u32,
    pub ofa: u32,
    /// Compute slices it takes (the `Ng` of its name).
    pub compute_slices: u8,
    /// Memory slices it takes: its placements' size.
    pub memory_slices: u8,
    /// The memory slices it may start at.
    pub placements: Vec<u8>,
    /// The order the driver tries them in when no placement is given (default: last first).
    #[serde(default)]
    pub preference: Vec<u8>,
    /// Where its numbers come from, or what they are inferred from.
    pub source: String,
}

impl MigProfile {
    /// The placements in the order the driver tries them.
    pub fn preferred_placements(&self) -> Vec<u8> {
        if self.preference.is_empty() {
            self.placements.iter().rev().copied().collect()
        } else {
            self.preference.clone()
        }
    }

    /// Memory as `nvidia-smi mig -lgip` prints it: GiB with two decimals, ties to even as C's
    /// printf rounds an exact binary fraction (20096 MiB is 19.625 GiB, printed 19.62).
    pub fn memory_gib_text(&self) -> String {
        let hundredths_x1024 = self.memory_mib * 100;
        let (whole, rest) = (hundredths_x1024 / 1024, hundredths_x1024 % 1024);
        let rounded = match rest.cmp(&512) {
            std::cmp::Ordering::Greater => whole + 1,
            std::cmp::Ordering::Equal => whole + (whole % 2),
            std::cmp::Ordering::Less => whole,
        };
        format!("{}.{:02}", rounded / 100, rounded % 100)
    }

    /// Whether it is a media-extensions profile (`+me`): the GPU's one set of media engines.
    pub fn media_extensions(&self) -> bool {
        self.name.ends_with("+me")
    }

    /// The compute instance profile ID a whole-GI compute instance of it gets
    /// (nvml.h's `NVML_COMPUTE_INSTANCE_PROFILE_<N>_SLICE`: 0, 1, 2, 3 for 1–4 slices, 4 for
    /// 7, 6 for 6; a `+me` GI's CI is a 1-slice one).
    pub fn compute_instance_profile_id(&self) -> u32 {
        match self.compute_slices {
            2 => 1,
            3 => 2,
            4 => 3,
            7 => 4,
            6 => 6,
            _ => 0,
        }
    }

    /// The device plugin's resource suffix: `+` is not allowed in a resource name, so `+me`
    /// becomes `.me` (`nvidia.com/mig-1g.5gb.me`).
    pub fn resource_name(&self) -> String {
        self.name.replace('+', ".")
    }
}

/// The committed tables.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Tables {
    models: Vec<GpuModel>,
}

/// Every model the lab knows, in the order of `models.yaml`.
pub fn models() -> &'static [GpuModel] {
    static TABLES: OnceLock<Vec<GpuModel>> = OnceLock::new();
    TABLES.get_or_init(|| match serde_yaml::from_str::<Tables>(include_str!("models.yaml")) {
        Ok(tables) => tables.models,
        // The file is part of the build and a unit test parses it; an empty table is only a
        // safeguard against a panic in a browser.
        Err(_) => Vec::new(),
    })
}

/// A model by its name, case-insensitively, with `NVIDIA ` and `NVIDIA-` prefixes allowed.
pub fn find(name: &str) -> Option<&'static GpuModel> {
    let wanted = name.trim_start_matches("NVIDIA ").trim_start_matches("NVIDIA-");
    models().iter().find(|m| m.name.eq_ignore_ascii_case(wanted))
}

/// The names the lab knows, for error messages.
pub fn names() -> Vec<&'static str> {
    models().iter().map(|m| m.name.as_str()).collect()
}

impl GpuModel {
    /// GFD's product label: the product name with spaces as dashes (`NVIDIA-A100-SXM4-40GB`).
    pub fn product_label(&self) -> String {
        self.product.replace(' ', "-")
    }

    /// A MIG profile by name (`1g.5gb`, `MIG 1g.5gb`) or by profile ID (`19`).
    pub fn profile(&self, wanted: &str) -> Option<&MigProfile> {
        let mig = self.mig.as_ref()?;
        let wanted = wanted.trim();
        let wanted = wanted.strip_prefix("MIG ").unwrap_or(wanted);
        match wanted.parse::<u32>() {
            Ok(id) => mig.profiles.iter().find(|p| p.id == id),
            Err(_) => mig.profiles.iter().find(|p| p.name == wanted),
        }
    }
}
