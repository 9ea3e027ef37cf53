//! What the container runtime knows about a pod's containers: explicit per-container states
//! (the CRI's view, not the API's), from which `status.rs` writes the pod's status.

use super::backoff::Backoff;
use super::prober::ProbeWorkers;
use crate::api::meta::Uid;
use crate::api::pod::ContainerStateTerminated;
use crate::sim::time::SimTime;

/// Where one container is in its life.
#[derive(Clone, Debug, PartialEq)]
pub enum ContainerPhase {
    /// Sandbox and image not ready yet (`ContainerCreating`, or `PodInitializing` behind init containers).
    Creating {
        ready_at: SimTime,
    },
    /// Waiting for an earlier init container to finish.
    Blocked,
    /// The image is being pulled on this node (or waits its turn behind another pull).
    Pulling {
        requested_at: SimTime,
        done_at: SimTime,
        /// The pull itself, without the wait for its turn.
        took: crate::sim::time::Duration,
    },
    /// The pull failed; `ErrImagePull` until the kubelet backs off, then `ImagePullBackOff`.
    PullFailed {
        since: SimTime,
        retry_at: SimTime,
        message: String,
        /// Reported as `ImagePullBackOff` (one sync after the failure).
        backing_off: bool,
    },
    /// The container's configuration could not be made (a missing ConfigMap, Secret or key):
    /// `CreateContainerConfigError` until the kubelet's retry at `retry_at` succeeds.
    ConfigError {
        message: String,
        retry_at: SimTime,
    },
    Running(Running),
    /// Exited; restarts at `restart_at` (`CrashLoopBackOff` while waiting), or never.
    Exited {
        restart_at: Option<SimTime>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Running {
    pub started_at: SimTime,
    pub container_id: String,
    /// When and how the process will end, if it will (its own exit, a kill, an OOM).
    pub ends: Option<Ending>,
    /// SIGTERM sent (pod deletion, failed liveness): the stop's deadline for SIGKILL.
    pub stopping: Option<Stopping>,
    /// MiB allocated through `/hog` (the workload's injected state).
    pub hog_mib: u64,
    /// The config file its image reads at start was mounted then (`configFile`).
    pub config_found: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Ending {
    pub at: SimTime,
    pub exit_code: i32,
    pub reason: String,
    pub message: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopping {
    pub sigterm_at: SimTime,
    pub sigkill_at: SimTime,
    /// Restart afterwards (liveness/startup failure) rather than stay stopped (pod deletion).
    pub restart: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RuntimeContainer {
    pub name: String,
    pub init: bool,
    /// A restartable init container (a sidecar): starts in init order, then keeps running.
    pub sidecar: bool,
    pub phase: ContainerPhase,
    /// The last run's end (`lastState.terminated` once the container runs again).
    pub last_terminated: Option<ContainerStateTerminated>,
    /// The end before that: upstream's back-off reference for a restart in the same sync.
    pub previous_finished: Option<SimTime>,
    /// The exit a pending back-off was measured from; `Next` is called with it at the restart.
    pub pending_backoff_reference: Option<SimTime>,
    pub restart_count: i32,
    pub crash_backoff: Backoff,
    pub image_backoff: Backoff,
    pub image_id: String,
    /// The image this instance was pulled for; a different one in the spec means a new instance.
    pub image: String,
    pub probes: ProbeWorkers,
    /// The GPU memory its devices give it (the device manager's, read at each start).
    pub gpu: Option<crate::workload::GpuMemory>,
    /// What the last run that ended had been given (its logs are replayed from it).
    pub last_gpu: Option<crate::workload::GpuMemory>,
}

impl RuntimeContainer {
    pub fn new(name: &str, init: bool, sidecar: bool, phase: ContainerPhase) -> Self {
        RuntimeContainer {
            name: name.to_string(),
            init,
            sidecar,
            phase,
            last_terminated: None,
            previous_finished: None,
            pending_backoff_reference: None,
            restart_count: 0,
            crash_backoff: Backoff::default(),
            image_backoff: Backoff::default(),
            image_id: String::new(),
            image: String::new(),
            probes: ProbeWorkers::default(),
            gpu: None,
            last_gpu: None,
        }
    }

    pub fn running(&self) -> Option<&Running> {
        match &self.phase {
            ContainerPhase::Running(r) => Some(r),
            _ => None,
        }
    }

    /// `spec.containers{hello}`: how events name this container.
    pub fn field_path(&self) -> String {
        let list = if self.init { "initContainers" } else { "containers" };
        format!("spec.{list}{{{}}}", self.name)
    }

    /// Finished for good with exit code 0 (an init container's success).
    pub fn succeeded(&self) -> bool {
        matches!(self.phase, ContainerPhase::Exited { restart_at: None })
            && self.last_terminated.as_ref().is_some_and(|t| t.exit_code == 0)
    }
}

/// One pod as this node's runtime holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct PodRuntime {
    pub uid: Uid,
    pub node: String,
    pub admitted_at: SimTime,
    pub pod_ip: String,
    pub init_containers: Vec<RuntimeContainer>,
    pub containers: Vec<RuntimeContainer>,
    /// Set once the pod is being deleted and its containers are being stopped.
    pub terminating: bool,
}

impl PodRuntime {
    pub fn all(&self) -> impl Iterator<Item = &RuntimeContainer> {
        self.init_containers.iter().chain(&self.containers)
    }

    pub fn all_mut(&mut self) -> impl Iterator<Item = &mut RuntimeContainer> {
        self.init_containers.iter_mut().chain(&mut self.containers)
    }

    /// Every regular init container has succeeded and every sidecar is running.
    pub fn initialized(&self) -> bool {
        self.init_containers.iter().all(lets_next_start)
    }

    /// Whether the container at `index` (init containers first) may start: init containers run
    /// one at a time; regular containers wait for all of them.
    pub fn may_start(&self, index: usize) -> bool {
        if index >= self.init_containers.len() {
            return self.initialized();
        }
        self.init_containers[..index].iter().all(lets_next_start)
    }
}

/// An init container the next may follow: a sidecar once running, any other once it succeeded.
fn lets_next_start(c: &RuntimeContainer) -> bool {
    if c.sidecar { c.running().is_some() } else { c.succeeded() }
}
