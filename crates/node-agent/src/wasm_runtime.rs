//! The wasmtime runtime (`kubelab-wasm-runtime`) behind the kubelet's runtime seam, as
//! containerd sits behind the CRI: images are the simulation's catalogue, pulled from its
//! registry at the speed the simulation models (1 s plus the image's size at 100 Mbit/s, so a
//! real node's pods tell the same story as a simulated node's), and each container is the
//! guest acting out its image's behaviour with the pod's limits.

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
        })
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
