//! The MIG board's picture: every GPU node's GPUs as their memory slices, each GPU instance as
//! the span it takes with its compute slices and the pod holding it, the profiles that can be
//! dropped, where each may go right now (or the rule that refuses it), and what the device
//! plugin publishes. Plain data, computed from the GPU Operator's state.

use crate::gpu::mig::MigLayout;
use crate::gpu::operator::GpuOperator;
use crate::sim::Sim;
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GpuNode {
    pub node: String,
    pub product: String,
    pub strategy: String,
    pub mig_capable: bool,
    pub gpus: Vec<GpuCard>,
    /// The profiles of the node's model, in `nvidia-smi mig -lgip` order.
    pub profiles: Vec<ProfileChip>,
    /// What the node's allocatable says of `nvidia.com/*`, sorted.
    pub allocatable: Vec<(String, i64)>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GpuCard {
    pub index: u32,
    pub mig_enabled: bool,
    pub memory_slices: u8,
    pub instances: Vec<InstanceSpan>,
    /// Pods given the whole GPU.
    pub holders: Vec<String>,
    /// For each profile (by name) and start slot: `None` when a drop there fits now, else the
    /// rule that refuses it.
    pub drops: BTreeMap<(String, u8), Option<String>>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstanceSpan {
    pub gpu_instance: u32,
    pub profile: String,
    pub start: u8,
    pub size: u8,
    pub compute_slices: u8,
    /// Whether it has its compute instance (only then is it a device the plugin advertises).
    pub device: bool,
    pub holders: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProfileChip {
    pub name: String,
    pub memory_slices: u8,
    pub compute_slices: u8,
    pub memory_mib: u64,
}

/// The board for every node with GPUs, by node name.
pub fn board(sim: &Sim) -> Vec<GpuNode> {
    let operator = &sim.controllers().gpu_operator;
    let mut nodes: Vec<GpuNode> = operator.nodes().filter_map(|name| gpu_node(sim, operator, name)).collect();
    nodes.sort_by(|a, b| a.node.cmp(&b.node));
    nodes
}

fn gpu_node(sim: &Sim, operator: &GpuOperator, name: &str) -> Option<GpuNode> {
    let machine = operator.machine(name)?;
    let model = machine.model()?;
    let mut holders: BTreeMap<(u32, Option<u32>), Vec<String>> = BTreeMap::new();
    for ((_, pod), allocation) in operator.node_allocations(name) {
        for device in allocation.containers.iter().flat_map(|(_, d)| d.iter()) {
            let entry = holders.entry((device.gpu, device.gpu_instance)).or_default();
            if !entry.contains(pod) {
                entry.push(pod.clone());
            }
        }
    }
    let profiles: Vec<ProfileChip> = model
        .mig
        .iter()
        .flat_map(|m| m.profiles.iter())
        .map(|p| ProfileChip {
            name: p.name.clone(),
            memory_slices: p.memory_slices,
            compute_slices: p.compute_slices,
            memory_mib: p.memory_mib,
        })
        .collect();
    let gpus = machine
        .gpus
        .iter()
        .map(|gpu| {
            let instances = gpu
                .mig
                .gpu_instances
                .iter()
                .map(|gi| {
                    let profile = gpu.mig_profile(gi.profile_id);
                    InstanceSpan {
                        gpu_instance: gi.id,
                        profile: profile.map_or(String::new(), |p| p.name.clone()),
                        start: gi.start,
                        size: gi.size,
                        compute_slices: profile.map_or(0, |p| p.compute_slices),
                        device: !gi.compute_instances.is_empty(),
                        holders: holders.get(&(gpu.index, Some(gi.id))).cloned().unwrap_or_default(),
                    }
                })
                .collect();
            GpuCard {
                index: gpu.index,
                mig_enabled: gpu.mig_enabled,
                memory_slices: model.mig.as_ref().map_or(0, |m| m.memory_slices),
                instances,
                holders: holders.get(&(gpu.index, None)).cloned().unwrap_or_default(),
                drops: drops(gpu.mig_enabled, &gpu.mig, model),
            }
        })
        .collect();
    let node = sim.store().try_get::<crate::api::Node>("", name)?;
    let allocatable = node
        .status
        .allocatable
        .iter()
        .filter(|(k, _)| k.starts_with("nvidia.com/"))
        .map(|(k, v)| (k.clone(), v.value()))
        .collect();
    Some(GpuNode {
        node: name.to_string(),
        product: model.product.clone(),
        strategy: machine.strategy.as_str().to_string(),
        mig_capable: model.mig.is_some(),
        gpus,
        profiles,
        allocatable,
    })
}

/// Where each profile may be dropped on this GPU now, and why not elsewhere.
fn drops(
    enabled: bool,
    layout: &MigLayout,
    model: &crate::gpu::model::GpuModel,
) -> BTreeMap<(String, u8), Option<String>> {
    let mut out = BTreeMap::new();
    let Some(geometry) = &model.mig else { return out };
    for profile in &geometry.profiles {
        for start in 0..geometry.memory_slices {
            let verdict = if !enabled {
                Some("MIG mode is off on this GPU: enable it first (nvidia-smi -i N -mig 1)".to_string())
            } else {
                layout.clone().create(geometry, profile, Some(start)).err().map(|r| r.rule)
            };
            out.insert((profile.name.clone(), start), verdict);
        }
    }
    out
}
