//! The container runtime seam the kubelet drives (upstream: the CRI, pkg/kubelet/kuberuntime).
//!
//! `pull`, `start` and the container's methods block: the kubelet calls them from
//! `spawn_blocking`; `has_image`, `image_id`, `image_size` and `version` answer at once. A runtime is written
//! against this trait alone (the wasmtime runtime lives in its own crate, joined by an adapter);
//! `testing::FakeRuntime` scripts one for tests.

use std::net::IpAddr;
use std::time::{Duration, SystemTime};

/// The runtime under the kubelet: resolves images and starts containers.
pub trait ContainerRuntime: Send + Sync + 'static {
    /// The image's behaviour as the runtime will run it, or the pull error (ErrImagePull wording).
    fn pull(&self, image: &str) -> Result<(), String>;
    /// Creates and starts a container. An error whose text starts with [`RUN_ERROR_PREFIX`]
    /// means the container was created but did not start (`RunContainerError`); any other error
    /// means it could not be created (`CreateContainerError`).
    fn start(&self, spec: ContainerSpec) -> Result<Box<dyn RunningContainer>, String>;
    /// Whether the image is on this machine already (upstream's image manager asks the runtime
    /// before pulling): then an `IfNotPresent` container starts without a pull.
    fn has_image(&self, _image: &str) -> bool {
        false
    }
    /// The image's ID as `imageID` reports it (`sha256:…`); empty when the runtime has none.
    fn image_id(&self, _image: &str) -> String {
        String::new()
    }
    /// The image's size in bytes, for the `Pulled` event.
    fn image_size(&self, _image: &str) -> u64 {
        0
    }
    /// The runtime's name and version as the Node reports it (`wasmtime://48.0.8`).
    fn version(&self) -> String {
        "wasmtime://48.0.8".to_string()
    }
}

/// See [`ContainerRuntime::start`]: the prefix of a start error that happened after creation.
pub const RUN_ERROR_PREFIX: &str = "run: ";

/// One container to run, as the kubelet resolved it from the pod spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContainerSpec {
    pub pod_name: String,
    pub namespace: String,
    pub container: String,
    pub image: String,
    /// `command` then `args` (empty: the image's own entry point).
    pub argv: Vec<String>,
    pub env: Vec<(String, String)>,
    pub memory_limit_bytes: Option<u64>,
    pub cpu_limit_millicores: Option<u64>,
    /// The pod's IP: the container listens there.
    pub ip: IpAddr,
    pub ports: Vec<u16>,
}

/// A container's process as the runtime reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ContainerState {
    Running {
        started_at: SystemTime,
    },
    Exited {
        exit_code: i32,
        /// `Completed`, `Error`, `OOMKilled`.
        reason: String,
        message: Option<String>,
        started_at: SystemTime,
        finished_at: SystemTime,
    },
}

/// A started container.
pub trait RunningContainer: Send + Sync {
    fn state(&self) -> ContainerState;
    /// Everything it printed, with when.
    fn logs(&self) -> Vec<(SystemTime, String)>;
    /// Runs `argv` in the container: its output and exit code.
    fn exec(&self, argv: &[String], timeout: Duration) -> (String, i32);
    /// SIGTERM, then SIGKILL after `grace`; returns once it has exited.
    fn stop(&self, grace: Duration);
    /// SIGKILL now.
    fn kill(&self);
    /// The CPU time it has used (cpuacct's `usage`); zero where the runtime cannot tell.
    fn cpu_usage(&self) -> Duration {
        Duration::ZERO
    }
}
