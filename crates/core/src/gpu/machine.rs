//! A machine's GPUs as the lab describes them (`gpu: A100-SXM4-40GBx2` in a cluster file,
//! `lab node add --gpu`) and as they are now: each GPU's MIG layout, the device plugin's
//! strategy, the time-slicing config, and the MIG config last applied.

use super::device::Gpu;
use super::device_plugin_config::TimeSlicing;
use super::model::{self, GpuModel};
use serde::{Deserialize, Serialize};

/// The device plugin's `migStrategy` (k8s-device-plugin's `--mig-strategy`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MigStrategy {
    /// Whole GPUs only, as `nvidia.com/gpu`, MIG or not.
    None,
    /// MIG devices as `nvidia.com/gpu`; every GPU must have one profile throughout.
    #[default]
    Single,
    /// Each MIG profile as its own resource, `nvidia.com/mig-<profile>`.
    Mixed,
}

impl MigStrategy {
    pub fn as_str(self) -> &'static str {
        match self {
            MigStrategy::None => "none",
            MigStrategy::Single => "single",
            MigStrategy::Mixed => "mixed",
        }
    }

    pub fn parse(text: &str) -> Result<MigStrategy, String> {
        match text {
            "none" => Ok(MigStrategy::None),
            "single" => Ok(MigStrategy::Single),
            "mixed" => Ok(MigStrategy::Mixed),
            _ => Err(format!("unknown MIG strategy \"{text}\": must be none, single or mixed")),
        }
    }
}

/// `MODEL[xN]`: a model the lab knows, N of them (1 when left out).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GpuInventory {
    pub model: &'static GpuModel,
    pub count: u32,
}

impl GpuInventory {
    /// Parses `A100-SXM4-40GB`, `A100-SXM4-40GBx2` or `A100-SXM4-40GB x2`.
    pub fn parse(text: &str) -> Result<GpuInventory, String> {
        let text = text.trim();
        let (name, count) = match text.rsplit_once(['x', 'X']) {
            Some((name, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
                let count = n.parse::<u32>().map_err(|_| format!("invalid GPU count \"{n}\""))?;
                (name.trim_end(), count)
            }
            _ => (text, 1),
        };
        if !(1..=16).contains(&count) {
            return Err(format!("a machine holds 1 to 16 GPUs, not {count}"));
        }
        let model = model::find(name)
            .ok_or_else(|| format!("unknown GPU model \"{name}\"; known: {}", model::names().join(", ")))?;
        Ok(GpuInventory { model, count })
    }

    /// How a cluster file writes it back.
    pub fn text(&self) -> String {
        if self.count == 1 { self.model.name.clone() } else { format!("{}x{}", self.model.name, self.count) }
    }
}

/// A machine's GPUs, now.
#[derive(Clone, Debug, PartialEq)]
pub struct GpuMachine {
    pub gpus: Vec<Gpu>,
    pub strategy: MigStrategy,
    pub time_slicing: Option<TimeSlicing>,
    /// The `nvidia.com/mig.config` the MIG manager last applied (or failed to).
    pub applied_config: Option<String>,
    /// The machine's CPU cores, split evenly over its NUMA nodes (`nvidia-smi topo -m`'s
    /// affinity); 0 when not known.
    pub cpus: u32,
}

impl GpuMachine {
    pub fn new(node: &str, inventory: &GpuInventory, strategy: MigStrategy) -> GpuMachine {
        let gpus = (0..inventory.count).map(|i| Gpu::new(inventory.model, node, i)).collect();
        GpuMachine { gpus, strategy, time_slicing: None, applied_config: None, cpus: 0 }
    }

    /// The model of its GPUs (a machine has one kind).
    pub fn model(&self) -> Option<&'static GpuModel> {
        self.gpus.first().map(|g| g.model)
    }

    /// GPU `index`, or nvidia-smi's complaint.
    pub fn gpu_mut(&mut self, index: u32) -> Option<&mut Gpu> {
        self.gpus.get_mut(index as usize)
    }
}
