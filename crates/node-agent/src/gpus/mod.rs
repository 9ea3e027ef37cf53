//! The node's GPUs, as the GPU Operator's node parts see them (device plugin, feature
//! discovery) and the kubelet's device manager hands them out: one inventory type, filled
//! from NVML (`--gpus nvml`) or from a file (`--gpus fake:FILE`), so everything above the
//! hardware read is one code path — the simulation's own device plugin and GFD functions.

pub mod allocator;
pub mod fake;
pub mod inventory;
pub mod nvml;

pub use allocator::DeviceAllocator;
pub use inventory::Inventory;
pub use kubelab_core::gpu::MigStrategy;

/// Where the GPU inventory comes from (`--gpus`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GpuSource {
    None,
    Nvml,
    Fake(std::path::PathBuf),
}

impl GpuSource {
    pub fn parse(text: &str) -> Result<GpuSource, String> {
        match text {
            "none" => Ok(GpuSource::None),
            "nvml" => Ok(GpuSource::Nvml),
            _ => match text.strip_prefix("fake:") {
                Some(path) if !path.is_empty() => Ok(GpuSource::Fake(path.into())),
                _ => Err(format!("invalid --gpus {text:?}: use none, nvml or fake:FILE")),
            },
        }
    }

    /// The machine's GPUs; `None` without any. `node` names the machine (derived UUIDs),
    /// `cpus` is its core count (the GPUs' CPU affinity) and `strategy` the device plugin's MIG
    /// strategy when given (`--mig-strategy`; else the file's, else `single`).
    pub fn load(&self, node: &str, cpus: u32, strategy: Option<MigStrategy>) -> Result<Option<Inventory>, String> {
        let mut inventory = match self {
            GpuSource::None => return Ok(None),
            GpuSource::Nvml => nvml::read(node, strategy.unwrap_or_default())?,
            GpuSource::Fake(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("cannot read the GPU file {}: {e}", path.display()))?;
                fake::parse(&text, node).map_err(|e| format!("{}: {e}", path.display()))?
            }
        };
        if let Some(strategy) = strategy {
            inventory.machine.strategy = strategy;
        }
        Ok(Some(inventory.with_cpus(cpus)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flag_names_none_nvml_or_a_file() {
        assert_eq!(GpuSource::parse("none").unwrap(), GpuSource::None);
        assert_eq!(GpuSource::parse("fake:/tmp/g.yaml").unwrap(), GpuSource::Fake("/tmp/g.yaml".into()));
        assert!(GpuSource::parse("fake:").unwrap_err().contains("none, nvml or fake:FILE"));
        assert!(GpuSource::parse("cuda").is_err());
    }
}
