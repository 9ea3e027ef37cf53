//! GPUs: the hardware model (models and their MIG geometry as data, each GPU's MIG layout), the
//! GPU Operator's node-side parts (feature discovery, device plugin, MIG manager) and
//! `nvidia-smi` as it prints on a node and inside a pod.

pub mod device;
pub mod device_plugin;
pub mod device_plugin_config;
pub mod dra_driver;
pub mod feature_discovery;
pub mod machine;
pub mod mig;
pub mod mig_manager;
pub mod model;
pub mod nvidia_smi;
pub mod operator;
pub mod topology;

#[cfg(test)]
mod tests;

pub use machine::{GpuInventory, GpuMachine, MigStrategy};
pub use operator::GpuOperator;
