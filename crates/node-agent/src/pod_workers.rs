//! One worker per pod bound to this node (pkg/kubelet/pod_workers.go, with kuberuntime's
//! `SyncPod`/`computePodActions` and the status manager): admission, image pulls with back-off,
//! init containers in order, starts through the runtime, exits and restarts with the crash
//! back-off, probes, graceful deletion, and the pod's status and Events. The state it keeps is
//! the simulation's runtime view (`PodRuntime`), stepped on the wall clock, so transitions,
//! status and event wording are the simulated kubelet's.

use crate::containers::Containers;
use crate::events::{EventType, Recorder, pod_reference};
use crate::gpus::DeviceAllocator;
use crate::gpus::allocator::{PodDevices, visible_devices_env};
use crate::ipam::Ipam;
use crate::pod_status::{self, Waiting};
use crate::runtime::{ContainerRuntime, ContainerSpec, ContainerState, RUN_ERROR_PREFIX, RunningContainer};
use crate::{backoff::Backoff, client::ApiClient, clock, prober};
use kubelab_core::api::Pod;
use kubelab_core::api::container::{Container, Probe};
use kubelab_core::api::meta::Time;
use kubelab_core::api::pod::{ContainerStateTerminated, PodStatus};
use kubelab_core::kubelet::node::NodeRuntime;
use kubelab_core::kubelet::prober::{ProbeKind, Timing};
use kubelab_core::kubelet::runtime::{ContainerPhase, Ending, PodRuntime, Running, RuntimeContainer, Stopping};
use kubelab_core::sim::time::{Duration, SimTime};
use std::collections::{BTreeMap, HashSet};
use std::sync::{Arc, Mutex};
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// How often a worker looks at its pod when nothing else wakes it.
const TICK: std::time::Duration = std::time::Duration::from_millis(250);
/// After a failed pull, how long `ErrImagePull` shows before `ImagePullBackOff` (the simulation's).
const PULL_ERROR_SHOWN: Duration = Duration::from_secs(1);
/// A pull still running is due at no time.
const NEVER: SimTime = SimTime(u64::MAX / 4);

/// What every pod worker shares: the kubelet's managers.
pub struct Kubelet {
    pub client: ApiClient,
    pub runtime: Arc<dyn ContainerRuntime>,
    pub node_name: String,
    pub host_ip: String,
    pub ipam: Mutex<Ipam>,
    pub devices: Mutex<DeviceAllocator>,
    pub events: Recorder,
    pub containers: Containers,
    /// Images pulled on this machine.
    pub images: Mutex<HashSet<String>>,
    /// Pulls run one at a time (`serializeImagePulls`).
    pub pull_lock: tokio::sync::Mutex<()>,
}

/// The handle the pod manager keeps: the latest pod goes to the worker; `None` means the pod
/// is gone from the API.
#[derive(Debug)]
pub struct PodHandle {
    pub sender: watch::Sender<Option<Pod>>,
}

/// Starts the worker of a pod newly bound here.
pub fn spawn(kubelet: Arc<Kubelet>, pod: Pod) -> PodHandle {
    let (sender, receiver) = watch::channel(Some(pod.clone()));
    tokio::spawn(async move {
        let mut worker = Worker::new(kubelet, pod);
        worker.run(receiver).await;
    });
    PodHandle { sender }
}

/// A pull in flight: its task, which answers with the result and how long the pull took.
type Pull = JoinHandle<(Result<(), String>, Duration)>;

/// What the worker holds for one container beyond the runtime view.
#[derive(Default)]
struct Live {
    process: Option<Arc<dyn RunningContainer>>,
    pull: Option<Pull>,
    /// Back-off between attempts to create a container that failed to be created or started.
    start_backoff: Backoff,
}

struct Worker {
    kubelet: Arc<Kubelet>,
    pod: Pod,
    rt: PodRuntime,
    live: BTreeMap<String, Live>,
    devices: PodDevices,
    waiting: Waiting,
    written: Option<PodStatus>,
    /// Admitted and running (not rejected, not finished before it came here).
    active: bool,
}

impl Worker {
    fn new(kubelet: Arc<Kubelet>, pod: Pod) -> Worker {
        let rt = PodRuntime {
            uid: pod.metadata.uid,
            node: kubelet.node_name.clone(),
            admitted_at: clock::now(),
            pod_ip: String::new(),
            init_containers: Vec::new(),
            containers: Vec::new(),
            terminating: false,
        };
        Worker {
            kubelet,
            pod,
            rt,
            live: BTreeMap::new(),
            devices: PodDevices::new(),
            waiting: Waiting::new(),
            written: None,
            active: false,
        }
    }

    async fn run(&mut self, mut updates: watch::Receiver<Option<Pod>>) {
        self.active = self.admit().await;
        loop {
            if self.active {
                let now = clock::now();
                self.sync(now).await;
                if self.rt.terminating && self.rt.all().all(|c| c.running().is_none()) {
                    self.write_status(now).await;
                    self.finish_deletion().await;
                    return;
                }
                self.write_status(now).await;
            }
            tokio::select! {
                changed = updates.changed() => {
                    let latest = if changed.is_ok() { updates.borrow_and_update().clone() } else { None };
                    match latest {
                        Some(pod) if pod.metadata.uid == self.rt.uid => self.pod = pod,
                        _ => {
                            self.kill_all().await;
                            self.release();
                            return;
                        }
                    }
                }
                _ = tokio::time::sleep(TICK) => {}
            }
        }
    }

    fn reference(&self, c: &RuntimeContainer) -> kubelab_core::api::endpoint_slice::ObjectReference {
        pod_reference(&self.pod, Some(c.field_path()))
    }

    fn event(&self, c: &RuntimeContainer, type_: EventType, reason: &str, message: String) {
        self.kubelet.events.event(self.reference(c), type_, reason, message);
    }

    fn spec_of(&self, c: &RuntimeContainer) -> Option<&Container> {
        let list = if c.init { &self.pod.spec.init_containers } else { &self.pod.spec.containers };
        list.iter().find(|s| s.name == c.name)
    }

    fn spec_image(&self, c: &RuntimeContainer) -> String {
        self.spec_of(c).and_then(|s| s.image.clone()).unwrap_or_default()
    }

    /// `canAdmitPod` and the sandbox's IP: false when the pod is not to run here.
    async fn admit(&mut self) -> bool {
        let pod = self.pod.clone();
        if matches!(pod.phase(), "Succeeded" | "Failed") {
            return false;
        }
        let path = format!("/api/v1/namespaces/{}/pods/{}", pod.metadata.namespace, pod.metadata.name);
        if pod.metadata.deletion_timestamp.is_some() {
            // Never started here: nothing to stop.
            let _ = self.kubelet.client.delete(&path, Some(&serde_json::json!({"gracePeriodSeconds": 0}))).await;
            return false;
        }
        let uid = pod.metadata.uid.to_string();
        let allocated = self.kubelet.devices.lock().unwrap_or_else(|e| e.into_inner()).allocate(&pod);
        let ip = if pod.spec.host_network == Some(true) {
            Some(self.kubelet.host_ip.clone())
        } else {
            self.kubelet.ipam.lock().unwrap_or_else(|e| e.into_inner()).allocate(&uid).map(|ip| ip.to_string())
        };
        let refusal = match (allocated, ip) {
            (Err(message), _) => Some(message),
            (Ok(_), None) => Some("no IP addresses available in the node's podCIDR".to_string()),
            (Ok(devices), Some(ip)) => {
                self.devices = devices;
                let mut node = NodeRuntime::new(&self.kubelet.node_name, 0);
                self.rt = kubelab_core::kubelet::pod_worker::admit(&pod, &mut node, &ip, clock::now());
                self.rt.pod_ip = ip;
                None
            }
        };
        let Some(message) = refusal else { return true };
        self.release();
        let reference = pod_reference(&pod, None);
        self.kubelet.events.event(reference, EventType::Warning, "UnexpectedAdmissionError", message.clone());
        let patch = pod_status::rejected("UnexpectedAdmissionError", &message);
        let _ = self.kubelet.client.merge_patch(&format!("{path}/status"), &patch).await;
        false
    }

    /// Advances every container to `now`, again while a step makes more steps due.
    async fn sync(&mut self, now: SimTime) {
        if let Some(deadline) = self.pod.metadata.deletion_timestamp
            && !self.rt.terminating
        {
            self.terminate(deadline.0, now).await;
        }
        for _ in 0..16 {
            let mut progressed = false;
            let count = self.rt.init_containers.len() + self.rt.containers.len();
            for index in 0..count {
                progressed |= self.step(index, now).await;
            }
            if !progressed {
                break;
            }
        }
    }

    fn container(&mut self, index: usize) -> &mut RuntimeContainer {
        let init = self.rt.init_containers.len();
        if index < init { &mut self.rt.init_containers[index] } else { &mut self.rt.containers[index - init] }
    }

    /// One transition of container `index` if one is due; true if something changed.
    async fn step(&mut self, index: usize, now: SimTime) -> bool {
        let mut c = self.container(index).clone();
        let terminating = self.rt.terminating;
        let changed = match c.phase.clone() {
            ContainerPhase::Blocked if self.rt.may_start(index) && !terminating => {
                c.phase = ContainerPhase::Creating { ready_at: now };
                true
            }
            ContainerPhase::Creating { ready_at } if ready_at <= now && !terminating => {
                self.begin_pull(&mut c, now).await;
                true
            }
            ContainerPhase::Pulling { requested_at, .. } => self.poll_pull(&mut c, requested_at, now).await,
            ContainerPhase::PullFailed { retry_at, .. } if retry_at <= now && !terminating => {
                self.begin_pull(&mut c, now).await;
                true
            }
            ContainerPhase::PullFailed { since, retry_at, message, backing_off: false }
                if since.plus(PULL_ERROR_SHOWN) <= now =>
            {
                let image = self.spec_image(&c);
                self.event(&c, EventType::Normal, "BackOff", format!("Back-off pulling image {image:?}"));
                self.event(&c, EventType::Warning, "Failed", "Error: ImagePullBackOff".to_string());
                c.phase = ContainerPhase::PullFailed { since, retry_at, message, backing_off: true };
                true
            }
            ContainerPhase::Running(running) => self.step_running(&mut c, running, now).await,
            ContainerPhase::Exited { restart_at: Some(at) } if at <= now && !terminating => {
                self.start(&mut c, now).await;
                true
            }
            _ => false,
        };
        *self.container(index) = c;
        changed
    }

    /// `EnsureImageExists`: already present, or pull (one at a time, off the worker).
    async fn begin_pull(&mut self, c: &mut RuntimeContainer, now: SimTime) {
        let spec = self.spec_of(c).cloned().unwrap_or_default();
        let image = spec.image.clone().unwrap_or_default();
        c.image = image.clone();
        let present = self.kubelet.images.lock().unwrap_or_else(|e| e.into_inner()).contains(&image)
            || self.kubelet.runtime.has_image(&image);
        if present && spec.image_pull_policy.as_deref() != Some("Always") {
            let message = format!("Container image {image:?} already present on machine");
            self.event(c, EventType::Normal, "Pulled", message);
            c.image_id = self.kubelet.runtime.image_id(&image);
            self.start(c, now).await;
            return;
        }
        self.event(c, EventType::Normal, "Pulling", format!("Pulling image {image:?}"));
        let kubelet = self.kubelet.clone();
        let pull = tokio::spawn(async move {
            let _turn = kubelet.pull_lock.lock().await;
            let started = std::time::Instant::now();
            let runtime = kubelet.runtime.clone();
            let result = tokio::task::spawn_blocking(move || runtime.pull(&image)).await;
            let took = Duration(started.elapsed().as_millis() as u64);
            (result.unwrap_or_else(|e| Err(format!("the pull stopped: {e}"))), took)
        });
        self.live.entry(c.name.clone()).or_default().pull = Some(pull);
        c.phase = ContainerPhase::Pulling { requested_at: now, done_at: NEVER, took: Duration::ZERO };
    }

    /// A finished pull: the `Pulled` event and a start, or `ErrImagePull` and a back-off.
    async fn poll_pull(&mut self, c: &mut RuntimeContainer, requested_at: SimTime, now: SimTime) -> bool {
        let live = self.live.entry(c.name.clone()).or_default();
        if !live.pull.as_ref().is_some_and(JoinHandle::is_finished) {
            return false;
        }
        let Some(pull) = live.pull.take() else { return false };
        let (result, took) = pull.await.unwrap_or_else(|e| (Err(format!("the pull stopped: {e}")), Duration::ZERO));
        let image = c.image.clone();
        match result {
            Ok(()) => {
                self.kubelet.images.lock().unwrap_or_else(|e| e.into_inner()).insert(image.clone());
                let waited = now.since(requested_at);
                let size = self.kubelet.runtime.image_size(&image);
                let message = format!(
                    "Successfully pulled image {image:?} in {took} ({waited} including waiting). Image size: {size} bytes."
                );
                self.event(c, EventType::Normal, "Pulled", message);
                c.image_id = self.kubelet.runtime.image_id(&image);
                if !self.rt.terminating {
                    self.start(c, now).await;
                } else {
                    c.phase = ContainerPhase::Exited { restart_at: None };
                }
            }
            Err(message) => {
                self.event(c, EventType::Warning, "Failed", format!("Failed to pull image {image:?}: {message}"));
                self.event(c, EventType::Warning, "Failed", "Error: ErrImagePull".to_string());
                c.image_backoff.next(now, now);
                let retry_at = c.image_backoff.ends_at(now);
                c.phase = ContainerPhase::PullFailed { since: now, retry_at, message, backing_off: false };
            }
        }
        true
    }

    /// The container's environment, made as it starts: `env` and `envFrom` with the
    /// ConfigMaps, Secrets and pod fields they name.
    async fn container_env(&self, c: &RuntimeContainer) -> Result<Vec<(String, String)>, String> {
        let Some(spec) = self.spec_of(c) else { return Ok(Vec::new()) };
        let place = (self.rt.pod_ip.as_str(), self.kubelet.host_ip.as_str());
        crate::config_fetch::container_env(&self.kubelet.client, &self.pod, spec, place).await
    }

    /// `CreateContainerConfigError`: the `Failed` event, and another try after the kubelet's
    /// sync back-off (the simulated kubelet's `BACK_OFF_PERIOD`).
    fn config_error(&mut self, c: &mut RuntimeContainer, now: SimTime, message: String) {
        self.event(c, EventType::Warning, "Failed", format!("Error: {message}"));
        self.waiting.insert(c.name.clone(), ("CreateContainerConfigError".to_string(), message));
        let ready_at = now.plus(kubelab_core::kubelet::container_config::BACK_OFF_PERIOD);
        c.phase = ContainerPhase::Creating { ready_at };
    }

    /// What the runtime is asked to run for container `c`, with its environment.
    fn container_spec(&self, c: &RuntimeContainer, env: Vec<(String, String)>) -> ContainerSpec {
        let spec = self.spec_of(c).cloned().unwrap_or_default();
        // A pod names its GPUs by asking the device plugin, never by setting the variable itself:
        // the NVIDIA container toolkit's `accept-nvidia-visible-devices-envvar-when-unprivileged
        // = false`, which keeps a host process (`process_runtime.rs`) to what was allocated.
        let mut env: Vec<(String, String)> =
            env.into_iter().filter(|(name, _)| name != "NVIDIA_VISIBLE_DEVICES").collect();
        env.extend(visible_devices_env(self.devices.get(&c.name).map(Vec::as_slice).unwrap_or_default()));
        let cpu = spec.resources.limits.get("cpu").map(|q| q.milli_value()).and_then(|m| u64::try_from(m).ok());
        ContainerSpec {
            pod_name: self.pod.metadata.name.clone(),
            namespace: self.pod.metadata.namespace.clone(),
            container: c.name.clone(),
            image: spec.image.clone().unwrap_or_default(),
            argv: spec.command.iter().chain(spec.args.iter()).cloned().collect(),
            env,
            memory_limit_bytes: kubelab_core::kubelet::pod_worker::memory_limit(&spec),
            cpu_limit_millicores: cpu,
            ip: self.rt.pod_ip.parse().unwrap_or(std::net::IpAddr::from([127, 0, 0, 1])),
            ports: spec.ports.iter().filter_map(|p| u16::try_from(p.container_port).ok()).collect(),
        }
    }

    /// Creates and starts a new instance; a runtime error leaves it waiting
    /// (`CreateContainerError` / `RunContainerError`) until the next attempt.
    async fn start(&mut self, c: &mut RuntimeContainer, now: SimTime) {
        if let Some(reference) = c.pending_backoff_reference.take() {
            c.crash_backoff.next(reference, now);
        }
        if let Some(refusal) = self.kubelet.containers.refusal() {
            return self.start_failed(c, now, &refusal);
        }
        let env = match self.container_env(c).await {
            Ok(env) => env,
            Err(message) => return self.config_error(c, now, message),
        };
        let spec = self.container_spec(c, env);
        let runtime = self.kubelet.runtime.clone();
        let started = tokio::task::spawn_blocking(move || runtime.start(spec)).await;
        let started = started.unwrap_or_else(|e| Err(format!("the runtime stopped: {e}")));
        let process: Arc<dyn RunningContainer> = match started {
            Ok(process) => Arc::from(process),
            Err(error) => return self.start_failed(c, now, &error),
        };
        if c.last_terminated.is_some() {
            c.restart_count += 1;
        }
        self.waiting.remove(&c.name);
        self.event(c, EventType::Normal, "Created", "Container created".to_string());
        self.event(c, EventType::Normal, "Started", "Container started".to_string());
        let (namespace, pod) = (&self.pod.metadata.namespace, &self.pod.metadata.name);
        self.kubelet.containers.started(namespace, pod, &c.name, process.clone());
        let live = self.live.entry(c.name.clone()).or_default();
        live.process = Some(process);
        live.start_backoff = Backoff::default();
        let container_id = format!("wasmtime://{}", container_id(&self.rt.uid.to_string(), &c.name, c.restart_count));
        c.probes = Default::default();
        c.phase = ContainerPhase::Running(Running {
            started_at: now,
            container_id,
            ends: None,
            stopping: None,
            hog_mib: 0,
            config_found: false,
        });
    }

    fn start_failed(&mut self, c: &mut RuntimeContainer, now: SimTime, error: &str) {
        let (reason, message) = match error.strip_prefix(RUN_ERROR_PREFIX) {
            Some(message) => {
                self.event(c, EventType::Normal, "Created", "Container created".to_string());
                ("RunContainerError", message)
            }
            None => ("CreateContainerError", error),
        };
        self.event(c, EventType::Warning, "Failed", format!("Error: {message}"));
        self.waiting.insert(c.name.clone(), (reason.to_string(), message.to_string()));
        let live = self.live.entry(c.name.clone()).or_default();
        live.start_backoff.next(now, now);
        let ready_at = live.start_backoff.ends_at(now);
        c.phase = ContainerPhase::Creating { ready_at };
    }

    /// A running container: its exit if it has exited, else its probes.
    async fn step_running(&mut self, c: &mut RuntimeContainer, running: Running, now: SimTime) -> bool {
        let Some(process) = self.live.get(&c.name).and_then(|l| l.process.clone()) else { return false };
        let state = tokio::task::spawn_blocking(move || process.state()).await;
        if let Ok(ContainerState::Exited { exit_code, reason, message, finished_at, .. }) = state {
            let ending =
                Ending { at: clock::from_system(finished_at).max(running.started_at), exit_code, reason, message };
            let restart_on_stop = running.stopping.is_some_and(|s| s.restart);
            self.exited(c, &running, ending, restart_on_stop, now).await;
            return true;
        }
        if running.stopping.is_none() && !self.rt.terminating {
            return self.run_probes(c, &running, now).await;
        }
        false
    }

    /// The process is gone: record it, then restart now, after a back-off, or never.
    async fn exited(
        &mut self,
        c: &mut RuntimeContainer,
        running: &Running,
        ending: Ending,
        killed: bool,
        now: SimTime,
    ) {
        c.last_terminated = Some(ContainerStateTerminated {
            exit_code: ending.exit_code,
            reason: Some(ending.reason.clone()),
            message: ending.message.clone(),
            started_at: Some(Time(running.started_at)),
            finished_at: Some(Time(ending.at)),
            container_id: Some(running.container_id.clone()),
            ..Default::default()
        });
        // A kill and its restart happen in one sync upstream, which then sees the exit before this one.
        let reference = if killed { c.previous_finished } else { Some(ending.at) };
        c.previous_finished = Some(ending.at);
        if self.rt.terminating || !self.should_restart(c, ending.exit_code) {
            c.phase = ContainerPhase::Exited { restart_at: None };
            return;
        }
        match reference {
            Some(reference) if c.crash_backoff.in_backoff_since(reference, now) => {
                c.pending_backoff_reference = Some(reference);
                c.phase = ContainerPhase::Exited { restart_at: Some(c.crash_backoff.ends_at(reference)) };
                let pod = &self.pod.metadata;
                let message = format!(
                    "Back-off restarting failed container {} in pod {}_{}({})",
                    c.name, pod.name, pod.namespace, pod.uid
                );
                self.event(c, EventType::Warning, "BackOff", message);
            }
            Some(reference) => {
                c.crash_backoff.next(reference, now);
                self.start(c, now).await;
            }
            None => self.start(c, now).await,
        }
    }

    /// The pod's (or a sidecar's own) restartPolicy; init containers restart only on failure.
    fn should_restart(&self, c: &RuntimeContainer, exit_code: i32) -> bool {
        if c.sidecar {
            return true;
        }
        match (c.init, self.pod.spec.restart_policy.as_deref().unwrap_or("Always")) {
            (_, "Never") => false,
            (true, _) | (false, "OnFailure") => exit_code != 0,
            _ => true,
        }
    }

    /// Runs whichever probes are due; a settled liveness/startup failure stops the container.
    async fn run_probes(&mut self, c: &mut RuntimeContainer, running: &Running, now: SimTime) -> bool {
        let Some(spec) = self.spec_of(c).cloned() else { return false };
        let started = spec.startup_probe.is_none() || c.probes.startup.result == Some(true);
        let kinds = if started {
            vec![
                (ProbeKind::Liveness, spec.liveness_probe.clone()),
                (ProbeKind::Readiness, spec.readiness_probe.clone()),
            ]
        } else {
            vec![(ProbeKind::Startup, spec.startup_probe.clone())]
        };
        let mut changed = false;
        for (kind, probe) in kinds {
            let Some(probe) = probe else { continue };
            let timing = Timing::of(&probe);
            let worker = *c.probes.get_mut(kind);
            let Some(tick) = worker.due_tick(self.rt.admitted_at, timing, running.started_at, now) else { continue };
            let process = self.live.get(&c.name).and_then(|l| l.process.clone());
            let outcome = prober::run(&probe, &spec, &self.rt.pod_ip, process).await;
            if let Some(message) = &outcome {
                let text = format!("{} probe failed: {message}", kind.title());
                self.event(c, EventType::Warning, "Unhealthy", text);
            }
            let settled = c.probes.get_mut(kind).record(tick, outcome.is_none(), timing);
            changed |= settled.is_some();
            if settled == Some(false) && kind != ProbeKind::Readiness {
                self.stop_for_restart(c, running, kind, &probe, now);
                return true;
            }
        }
        changed
    }

    /// `killContainer` after a failed liveness or startup probe: SIGTERM, then a restart.
    fn stop_for_restart(
        &mut self,
        c: &mut RuntimeContainer,
        running: &Running,
        kind: ProbeKind,
        probe: &Probe,
        now: SimTime,
    ) {
        let what = if kind == ProbeKind::Liveness { "liveness" } else { "startup" };
        let message = format!("Container {} failed {what} probe, will be restarted", c.name);
        self.event(c, EventType::Normal, "Killing", message);
        let grace = probe
            .termination_grace_period_seconds
            .or(self.pod.spec.termination_grace_period_seconds)
            .unwrap_or(30)
            .max(0) as u64;
        let deadline = now.plus(Duration::from_secs(grace));
        self.stop_process(c, deadline.since(now));
        let mut next = running.clone();
        next.stopping = Some(Stopping { sigterm_at: now, sigkill_at: deadline, restart: true });
        c.phase = ContainerPhase::Running(next);
    }

    /// SIGTERM now, SIGKILL after `grace`, off the worker.
    fn stop_process(&self, c: &RuntimeContainer, grace: Duration) {
        if let Some(process) = self.live.get(&c.name).and_then(|l| l.process.clone()) {
            let grace = std::time::Duration::from_millis(grace.0);
            tokio::task::spawn_blocking(move || process.stop(grace));
        }
    }

    /// The container's preStop hook, then SIGTERM, then SIGKILL when `grace` (which the hook's
    /// time counts against, as upstream's does) runs out; off the worker.
    fn stop_after_pre_stop(&self, c: &RuntimeContainer, grace: Duration) {
        let spec = self.spec_of(c).cloned().unwrap_or_default();
        let hook = spec.lifecycle.as_ref().and_then(|l| l.pre_stop.clone());
        let process = self.live.get(&c.name).and_then(|l| l.process.clone());
        let (Some(hook), Some(process)) = (hook, process) else { return self.stop_process(c, grace) };
        let meta = &self.pod.metadata;
        let pod = format!("{}_{}({})", meta.name, meta.namespace, meta.uid);
        let (events, reference, pod_ip) = (self.kubelet.events.clone(), self.reference(c), self.rt.pod_ip.clone());
        let grace = std::time::Duration::from_millis(grace.0);
        tokio::spawn(async move {
            let started = std::time::Instant::now();
            let hooked = crate::lifecycle_hooks::pre_stop(&hook, &spec, (&pod_ip, &pod), process.clone(), grace);
            if let Ok(Some(message)) = tokio::time::timeout(grace, hooked).await {
                events.event(reference, EventType::Warning, "FailedPreStopHook", message);
            }
            let left = grace.saturating_sub(started.elapsed());
            let _ = tokio::task::spawn_blocking(move || process.stop(left)).await;
        });
    }

    /// The pod is being deleted: stop every running container by the deadline.
    async fn terminate(&mut self, deadline: SimTime, now: SimTime) {
        self.rt.terminating = true;
        let count = self.rt.init_containers.len() + self.rt.containers.len();
        for index in 0..count {
            let mut c = self.container(index).clone();
            match c.phase.clone() {
                ContainerPhase::Running(running) if running.stopping.is_none() => {
                    self.event(&c, EventType::Normal, "Killing", format!("Stopping container {}", c.name));
                    self.stop_after_pre_stop(&c, deadline.since(now));
                    let mut next = running.clone();
                    next.stopping = Some(Stopping { sigterm_at: now, sigkill_at: deadline, restart: false });
                    c.phase = ContainerPhase::Running(next);
                }
                ContainerPhase::Running(_) => {}
                _ => {
                    if let Some(pull) = self.live.get_mut(&c.name).and_then(|l| l.pull.take()) {
                        pull.abort();
                    }
                    c.phase = ContainerPhase::Exited { restart_at: None };
                }
            }
            *self.container(index) = c;
        }
    }

    /// Every container stopped: the status manager deletes the pod for good.
    async fn finish_deletion(&mut self) {
        let pod = &self.pod.metadata;
        let path = format!("/api/v1/namespaces/{}/pods/{}", pod.namespace, pod.name);
        let body = serde_json::json!({"gracePeriodSeconds": 0});
        if let Err(e) = self.kubelet.client.delete(&path, Some(&body)).await
            && !e.is_not_found()
        {
            eprintln!("kubelab-agent: deleting pod {}/{}: {e}", pod.namespace, pod.name);
        }
        self.release();
    }

    /// The pod is gone from the API: its processes are killed at once.
    async fn kill_all(&mut self) {
        for live in self.live.values_mut() {
            if let Some(pull) = live.pull.take() {
                pull.abort();
            }
            if let Some(process) = live.process.take() {
                let _ = tokio::task::spawn_blocking(move || process.kill()).await;
            }
        }
    }

    /// Its IP, devices and containers are free.
    fn release(&self) {
        self.release_resources();
        self.kubelet.containers.forget_pod(&self.pod.metadata.namespace, &self.pod.metadata.name);
    }

    /// Its IP and devices are free.
    fn release_resources(&self) {
        let uid = self.pod.metadata.uid.to_string();
        self.kubelet.ipam.lock().unwrap_or_else(|e| e.into_inner()).release(&uid);
        self.kubelet.devices.lock().unwrap_or_else(|e| e.into_inner()).release(&uid);
    }

    /// The status manager: posts the status when it differs from the last one posted.
    async fn write_status(&mut self, now: SimTime) {
        let status = pod_status::build(&self.pod, &self.rt, now, &self.kubelet.host_ip, &self.waiting);
        if self.written.as_ref() == Some(&status) {
            return;
        }
        if matches!(status.phase.as_deref(), Some("Succeeded" | "Failed")) {
            // A finished pod's sandbox is torn down: its IP and devices go back (its logs stay).
            self.release_resources();
        }
        match pod_status::post(&self.kubelet.client, &self.pod, &status).await {
            Ok(()) => self.written = Some(status),
            Err(e) if e.is_not_found() => {}
            Err(e) => eprintln!("kubelab-agent: status of pod {}: {e}", self.pod.metadata.name),
        }
    }
}

/// A container ID: 64 hex digits, unique to the pod, container and instance.
fn container_id(uid: &str, name: &str, instance: i32) -> String {
    use std::hash::{BuildHasher, Hasher};
    let seed = std::collections::hash_map::RandomState::new();
    (0..4)
        .map(|part| {
            let mut hasher = seed.build_hasher();
            hasher.write(uid.as_bytes());
            hasher.write(name.as_bytes());
            hasher.write_i32(instance);
            hasher.write_u8(part);
            format!("{:016x}", hasher.finish())
        })
        .collect()
}
