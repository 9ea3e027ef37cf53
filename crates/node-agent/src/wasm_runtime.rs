//! The wasmtime runtime (`kubelab-wasm-runtime`) behind the kubelet's runtime seam, as
//! containerd sits behind the CRI: images are the simulation's catalogue, pulled from its
//! registry at the speed the simulation models (1 s plus the image's size at 100 Mbit/s, so a
//! real node's pods tell the same story as a simulated node's), and each container is the
//! guest acting out its image's behaviour with the pod's limits and the memory of the GPUs
//! the device plugin gave it (what CUDA would find behind `NVIDIA_VISIBLE_DEVICES`).

use crate::gpus::Inventory;
use crate::runtime::{ContainerRuntime, ContainerSpec, ContainerState, RunningContainer};
use kubelab_core::workload::{Catalogue, ImageInfo};
use kubelab_wasm_runtime as wasm;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

/// The longest one call into a guest may run before its container is killed (a request, a
/// timer): a guest stuck in a loop never holds its thread longer.
const WALL_CLOCK_CAP: Duration = Duration::from_secs(10);

pub struct WasmRuntime {
    runtime: wasm::Runtime,
    catalogue: Arc<Catalogue>,
    /// Images pulled since the agent started (the node image's own are always present).
    pulled: Mutex<BTreeSet<String>>,
    /// When each image's pull is (or was) done: a later pull of it waits for that one and
    /// takes no time of its own, as the simulation's node pulls (`NodeRuntime::pull`).
    pulls: Mutex<BTreeMap<String, Instant>>,
    /// Each GPU and MIG device of this machine (its UUID) and its memory in MiB.
    gpu_memory: BTreeMap<String, u64>,
}

impl WasmRuntime {
    /// Compiles the guest once; every container instantiates it.
    pub fn new(guest: &Path) -> Result<WasmRuntime, String> {
        let runtime = wasm::Runtime::new(guest).map_err(|e| format!("the guest {}: {e}", guest.display()))?;
        Ok(WasmRuntime {
            runtime,
            catalogue: Catalogue::builtin_shared(),
            pulled: Mutex::default(),
            pulls: Mutex::default(),
            gpu_memory: BTreeMap::new(),
        })
    }

    /// The machine's GPUs, whose memory a container given them sees.
    pub fn with_gpus(mut self, inventory: Option<&Inventory>) -> WasmRuntime {
        self.gpu_memory = inventory.map(device_memory).unwrap_or_default();
        self
    }

    fn resolve(&self, image: &str) -> Result<ImageInfo, String> {
        self.catalogue.resolve(image).map_err(|e| e.message())
    }
}

impl ContainerRuntime for WasmRuntime {
    fn pull(&self, image: &str) -> Result<(), String> {
        let info = self.resolve(image)?;
        let pull = Duration::from_millis(info.pull_duration.as_millis());
        let done_at = *self
            .pulls
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(image.to_string())
            .or_insert_with(|| Instant::now() + pull);
        std::thread::sleep(done_at.saturating_duration_since(Instant::now()));
        self.pulled.lock().unwrap_or_else(|e| e.into_inner()).insert(image.to_string());
        Ok(())
    }

    fn start(&self, spec: ContainerSpec) -> Result<Box<dyn RunningContainer>, String> {
        let behaviour = wasm::behaviour_for(&spec.image).map_err(|e| e.message())?;
        let gpus = visible_gpus(&self.gpu_memory, &spec.env);
        let container = self.runtime.start(wasm::ContainerSpec {
            pod_name: spec.pod_name,
            container: spec.container,
            behaviour,
            argv: spec.argv,
            env: spec.env,
            memory_limit_bytes: spec.memory_limit_bytes,
            cpu_limit_millicores: spec.cpu_limit_millicores,
            ip: spec.ip,
            ports: spec.ports,
            wall_clock_cap: WALL_CLOCK_CAP,
            gpus,
        })?;
        Ok(Box::new(WasmContainer(container)))
    }

    fn has_image(&self, image: &str) -> bool {
        self.resolve(image).is_ok_and(|info| info.preloaded)
            || self.pulled.lock().unwrap_or_else(|e| e.into_inner()).contains(image)
    }

    fn image_id(&self, image: &str) -> String {
        self.resolve(image).map(|info| info.image_id).unwrap_or_default()
    }

    fn image_size(&self, image: &str) -> u64 {
        self.resolve(image).map(|info| info.size_bytes).unwrap_or_default()
    }
}

/// Every device the device plugin advertises, with its memory: a whole GPU's model's, a MIG
/// device's profile's (as the simulation's GPU Operator hands memory to its device manager).
fn device_memory(inventory: &Inventory) -> BTreeMap<String, u64> {
    let gpus = &inventory.machine.gpus;
    let memory = |device: &kubelab_core::gpu::device_plugin::Device| {
        let gpu = gpus.iter().find(|g| g.index == device.gpu)?;
        let mig = device.gpu_instance.and_then(|id| gpu.mig_devices().into_iter().find(|m| m.gpu_instance.id == id));
        Some(mig.map_or(gpu.model.memory_mib, |m| m.profile.memory_mib))
    };
    inventory.devices().iter().filter_map(|d| Some((d.id.split("::").next()?.to_string(), memory(d)?))).collect()
}

/// The devices in the container's `NVIDIA_VISIBLE_DEVICES` with their memory (a time-sliced
/// replica, `<uuid>::<n>`, is its device's); the variable is the kubelet's, set from the
/// allocation (`gpus::allocator::visible_devices_env`).
fn visible_gpus(memory: &BTreeMap<String, u64>, env: &[(String, String)]) -> Vec<(String, u64)> {
    let visible = env.iter().rev().find(|(name, _)| name == "NVIDIA_VISIBLE_DEVICES").map(|(_, v)| v.as_str());
    let ids = visible.unwrap_or_default().split(',').filter(|id| !id.is_empty());
    let mib = |id: &str| memory.get(id.split("::").next().unwrap_or(id)).copied();
    ids.filter_map(|id| Some((id.to_string(), mib(id)?))).collect()
}

struct WasmContainer(wasm::Container);

impl RunningContainer for WasmContainer {
    fn state(&self) -> ContainerState {
        match self.0.state() {
            wasm::State::Running { started_at } => ContainerState::Running { started_at },
            wasm::State::Exited { exit_code, reason, message, started_at, finished_at } => {
                ContainerState::Exited { exit_code, reason, message, started_at, finished_at }
            }
        }
    }

    fn logs(&self) -> Vec<(SystemTime, String)> {
        self.0.logs()
    }

    fn exec(&self, argv: &[String], timeout: Duration) -> (String, i32) {
        self.0.exec(argv, timeout)
    }

    fn stop(&self, grace: Duration) {
        self.0.stop(grace);
    }

    fn kill(&self) {
        self.0.kill();
    }

    fn cpu_usage(&self) -> Duration {
        self.0.cpu_usage()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpus::allocator::visible_devices_env;

    #[test]
    fn a_container_sees_the_memory_of_the_devices_it_was_given() {
        let file = "migStrategy: mixed\ngpus:\n- model: A100-SXM4-40GB\n  mig: all-1g.5gb\n- model: A100-SXM4-40GB\n";
        let inventory = crate::gpus::fake::parse(file, "gpu-1").unwrap();
        let memory = device_memory(&inventory);
        let devices = inventory.devices();
        let (whole, slice) = (&devices.iter().find(|d| d.gpu_instance.is_none()).unwrap().id, &devices[0].id);
        assert!(slice.starts_with("MIG-") && whole.starts_with("GPU-"), "{devices:?}");
        let a100 = kubelab_core::gpu::model::find("A100-SXM4-40GB").unwrap();
        let slice_mib = a100.profile("1g.5gb").unwrap().memory_mib;
        let env = visible_devices_env(std::slice::from_ref(slice));
        assert_eq!(visible_gpus(&memory, &env), [(slice.clone(), slice_mib)]);
        let env = visible_devices_env(&[whole.clone(), slice.clone()]);
        assert_eq!(visible_gpus(&memory, &env), [(whole.clone(), a100.memory_mib), (slice.clone(), slice_mib)]);
        assert_eq!(visible_gpus(&memory, &[("PATH".into(), "/bin".into())]), []);
    }
}
