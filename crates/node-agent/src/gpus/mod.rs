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

/// The inventory against the simulation: a node the lab adds with the same GPUs publishes the
/// same `nvidia.com/*` capacity, allocatable and labels.
#[cfg(test)]
mod simulation_tests {
    use kubelab_core::api::Node;
    use kubelab_core::cluster::ClusterSpec;
    use kubelab_core::kubectl::MemoryFiles;
    use kubelab_core::script;
    use kubelab_core::sim::Sim;

    fn run(sim: &mut Sim, lines: &str) -> String {
        let steps = script::parse(lines).expect("script lines");
        let transcript = script::run(sim, &steps, &MemoryFiles::default(), true);
        assert_eq!(transcript.exit_code, 0, "{}", transcript.text);
        transcript.text
    }

    #[test]
    fn a_fake_file_publishes_what_the_simulation_gives_the_same_machine() {
        let mut sim = Sim::new(1, &ClusterSpec::workers_only(Vec::new()));
        run(
            &mut sim,
            "lab node add gpu-1 --gpu A100-SXM4-40GBx2 --mig-strategy mixed\n\
             lab node exec gpu-1 -- nvidia-smi -i 0 -mig 1\n\
             lab node exec gpu-1 -- nvidia-smi mig -i 0 -cgi 19,19,19,19,19,19,19 -C\n",
        );
        let simulated = sim.store().get::<Node>("", "gpu-1").unwrap().clone();
        let file = "migStrategy: mixed\ngpus:\n- model: A100-SXM4-40GB\n  mig: all-1g.5gb\n- model: A100-SXM4-40GB\n";
        let inventory = super::fake::parse(file, "gpu-1").unwrap();

        let nvidia = |list: &kubelab_core::api::container::ResourceList| -> Vec<(String, String)> {
            list.iter().filter(|(k, _)| k.starts_with("nvidia.com/")).map(|(k, v)| (k.clone(), v.to_string())).collect()
        };
        let mine: Vec<(String, String)> = inventory.capacity().into_iter().map(|(k, v)| (k, v.to_string())).collect();
        assert_eq!(mine, nvidia(&simulated.status.capacity));
        assert_eq!(mine, nvidia(&simulated.status.allocatable));
        assert_eq!(
            mine,
            [("nvidia.com/gpu".to_string(), "1".to_string()), ("nvidia.com/mig-1g.5gb".into(), "7".into())]
        );

        let gfd = |labels: &kubelab_core::api::string_map::StringMap| -> Vec<(String, String)> {
            labels
                .iter()
                .filter(|(k, _)| kubelab_core::gpu::feature_discovery::owned_by_gfd(k))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        assert_eq!(gfd(&inventory.labels()), gfd(&simulated.metadata.labels));
        let labels = inventory.labels();
        assert_eq!(labels.get("nvidia.com/gpu.product"), Some("NVIDIA-A100-SXM4-40GB"));
        assert_eq!(labels.get("nvidia.com/gpu.count"), Some("2"));
        assert_eq!(labels.get("nvidia.com/mig.strategy"), Some("mixed"));
        assert_eq!(labels.get("nvidia.com/mig-1g.5gb.count"), Some("7"));
    }
}
