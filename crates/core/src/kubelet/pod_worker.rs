//! One pod's life on its node, stepped to a virtual time: sandbox, image pull, init
//! containers, start, probes, exits and restarts with back-off, OOM kills, and graceful
//! termination. Mirrors pkg/kubelet/pod_workers.go + kuberuntime_manager.go (`SyncPod`,
//! `computePodActions`, `doBackOff`) and kuberuntime_container.go (`killContainer`).

use super::container_runtime::ContainerRuntime;
use super::node::NodeRuntime;
use super::prober::{ProbeKind, ProbeWorker, Timing};
use super::runtime::{ContainerPhase, Ending, PodRuntime, Running, RuntimeContainer, Stopping};
use crate::api::Pod;
use crate::api::container::{Container, Probe};
use crate::api::meta::Time;
use crate::api::pod::ContainerStateTerminated;
use crate::api::quantity::Quantity;
use crate::sim::random::Purpose;
use crate::sim::time::{Duration, SimTime};
use crate::store::Store;
use crate::store::event_recorder::{EventType, container_reference};
use crate::workload::{ImageInfo, ProbeContext, ProbeOutcome, ProcessState};

/// Sandbox creation: how long a new pod shows `ContainerCreating` before its first pull/start.
pub const SANDBOX_SETUP: Duration = Duration::from_millis(500);
/// After a failed pull, how long `ErrImagePull` shows before the kubelet reports `ImagePullBackOff`.
const PULL_ERROR_SHOWN: Duration = Duration::from_secs(1);

/// Everything one step of one pod works with.
pub struct PodStep<'a> {
    pub store: &'a mut Store,
    pub node: &'a mut NodeRuntime,
    /// The Node object (its allocatable backs the downward API's unset limits).
    pub node_object: Option<&'a crate::api::Node>,
    /// The node's InternalIP (`status.hostIP`).
    pub host_ip: &'a str,
    pub pod: &'a Pod,
    pub runtime: &'a mut PodRuntime,
    /// Its volumes and what its containers were started with (`container_config.rs`).
    pub config: &'a mut super::container_config::PodConfig,
    /// The node's container runtime (what an image is and does).
    pub container_runtime: &'a dyn ContainerRuntime,
    pub devices: &'a mut super::device_manager::DeviceManager,
    /// The nodes' disks, where what a process wrote under a claim's volume or an emptyDir stays.
    pub disks: &'a mut super::node_disk::NodeDisks,
    pub now: SimTime,
    /// The earliest time this pod needs another step.
    pub wake: Option<SimTime>,
    /// Requests per second its first container serves (`lab load`, the traffic generator).
    pub served_rps: u64,
}

/// How often a pod under load is looked at again: its share of the load moves as its peers
/// come and go, and with it its memory and its probes' waits.
const LOAD_RECHECK: Duration = Duration::from_secs(5);

/// A fresh runtime for a pod the kubelet just admitted. A pod on the host's network has the
/// node's IP; any other gets the next address of the node's pod subnet.
pub fn admit(pod: &Pod, node: &mut NodeRuntime, host_ip: &str, now: SimTime) -> PodRuntime {
    let ready_at = now.plus(SANDBOX_SETUP);
    let has_init = !pod.spec.init_containers.is_empty();
    let init_containers = pod
        .spec
        .init_containers
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let phase = if i == 0 { ContainerPhase::Creating { ready_at } } else { ContainerPhase::Blocked };
            RuntimeContainer::new(&c.name, true, is_sidecar(c), phase)
        })
        .collect();
    let containers = pod
        .spec
        .containers
        .iter()
        .map(|c| {
            let phase = if has_init { ContainerPhase::Blocked } else { ContainerPhase::Creating { ready_at } };
            RuntimeContainer::new(&c.name, false, false, phase)
        })
        .collect();
    PodRuntime {
        uid: pod.metadata.uid,
        node: node.name.clone(),
        admitted_at: now,
        pod_ip: if pod.spec.host_network == Some(true) { host_ip.to_string() } else { node.allocate_ip() },
        init_containers,
        containers,
        terminating: false,
    }
}

fn is_sidecar(c: &Container) -> bool {
    c.restart_policy.as_deref() == Some("Always")
}

impl PodStep<'_> {
    pub(super) fn wake_at(&mut self, at: SimTime) {
        if at > self.now {
            self.wake = Some(self.wake.map_or(at, |w| w.min(at)));
        }
    }

    pub(super) fn event(&mut self, container: &RuntimeContainer, type_: EventType, reason: &str, message: String) {
        let reference = container_reference(self.pod, container.field_path());
        self.store.record_event(reference, type_, reason, message);
    }

    pub(super) fn spec_of(&self, c: &RuntimeContainer) -> Option<&Container> {
        let list = if c.init { &self.pod.spec.init_containers } else { &self.pod.spec.containers };
        list.iter().find(|s| s.name == c.name)
    }

    /// Advances every container to `now`; loops while a step makes more steps due now.
    pub fn run(&mut self) {
        if !self.runtime.terminating && !self.mount_volumes() {
            self.collect_wakes();
            return;
        }
        for _ in 0..16 {
            let mut progressed = false;
            let count = self.runtime.init_containers.len() + self.runtime.containers.len();
            for index in 0..count {
                progressed |= self.step_container(index);
            }
            if !progressed {
                break;
            }
        }
        self.collect_wakes();
    }

    fn container(&mut self, index: usize) -> &mut RuntimeContainer {
        let init = self.runtime.init_containers.len();
        if index < init { &mut self.runtime.init_containers[index] } else { &mut self.runtime.containers[index - init] }
    }

    /// One transition of container `index` if one is due; true if something changed.
    fn step_container(&mut self, index: usize) -> bool {
        let now = self.now;
        let mut c = self.container(index).clone();
        if self.image_changed(&c) && !self.runtime.terminating && self.follow_new_image(&mut c) {
            *self.container(index) = c;
            return true;
        }
        let changed = match c.phase.clone() {
            ContainerPhase::Blocked if self.runtime.may_start(index) && !self.runtime.terminating => {
                c.phase = ContainerPhase::Creating { ready_at: now };
                true
            }
            ContainerPhase::Creating { ready_at } if ready_at <= now && !self.runtime.terminating => {
                self.begin_pull(&mut c);
                true
            }
            ContainerPhase::Pulling { requested_at, done_at, took } if done_at <= now => {
                self.finish_pull(&mut c, requested_at, done_at, took);
                true
            }
            ContainerPhase::PullFailed { retry_at, .. } if retry_at <= now && !self.runtime.terminating => {
                self.begin_pull(&mut c);
                true
            }
            ContainerPhase::PullFailed { since, retry_at, message, backing_off: false }
                if since.plus(PULL_ERROR_SHOWN) <= now =>
            {
                // The next sync finds the image in back-off: `ImagePullBackOff` from here on.
                let image = self.spec_of(&c).and_then(|s| s.image.clone()).unwrap_or_default();
                self.event(&c, EventType::Normal, "BackOff", format!("Back-off pulling image {image:?}"));
                self.event(&c, EventType::Warning, "Failed", "Error: ImagePullBackOff".to_string());
                c.phase = ContainerPhase::PullFailed { since, retry_at, message, backing_off: true };
                true
            }
            ContainerPhase::ConfigError { retry_at, .. } if retry_at <= now && !self.runtime.terminating => {
                // The pod worker's next sync tries the container again, from its image.
                self.begin_pull(&mut c);
                true
            }
            ContainerPhase::Running(_) => self.step_running(&mut c),
            ContainerPhase::Exited { restart_at: Some(at) } if at <= now && !self.runtime.terminating => {
                self.restart(&mut c);
                true
            }
            _ => false,
        };
        *self.container(index) = c;
        changed
    }

    pub(super) fn image_info(&self, c: &RuntimeContainer) -> Result<ImageInfo, crate::workload::PullError> {
        let image = self.spec_of(c).and_then(|s| s.image.clone()).unwrap_or_default();
        self.container_runtime.resolve_image(&image)
    }

    /// `EnsureImageExists`: already present, pull, or fail and back off.
    fn begin_pull(&mut self, c: &mut RuntimeContainer) {
        let now = self.now;
        let spec = self.spec_of(c).cloned().unwrap_or_default();
        let image = spec.image.clone().unwrap_or_default();
        c.image = image.clone();
        match self.image_info(c) {
            Err(err) => {
                self.event(c, EventType::Normal, "Pulling", format!("Pulling image {image:?}"));
                self.event(c, EventType::Warning, err.event_reason(), err.event_message());
                self.event(c, EventType::Warning, err.event_reason(), format!("Error: {}", err.reason()));
                c.image_backoff.next(now, now);
                let retry_at = c.image_backoff.ends_at(now);
                c.phase =
                    ContainerPhase::PullFailed { since: now, retry_at, message: err.message(), backing_off: false };
            }
            Ok(info) => {
                c.image_id = info.image_id.clone();
                let always = spec.image_pull_policy.as_deref() == Some("Always");
                if (info.preloaded || self.node.has_image(&info.reference, now)) && !always {
                    let message = format!("Container image {image:?} already present on machine");
                    self.event(c, EventType::Normal, "Pulled", message);
                    self.start(c);
                } else {
                    self.event(c, EventType::Normal, "Pulling", format!("Pulling image {image:?}"));
                    let (done_at, took) = self.node.pull(&info, now);
                    c.phase = ContainerPhase::Pulling { requested_at: now, done_at, took };
                }
            }
        }
    }

    /// The pull's event, timed as the kubelet's image manager times it: the pull itself, then
    /// the whole wait since the request (Go's Duration.String: `1.19s`, `705ms`).
    fn finish_pull(&mut self, c: &mut RuntimeContainer, requested_at: SimTime, done_at: SimTime, took: Duration) {
        let image = self.spec_of(c).and_then(|s| s.image.clone()).unwrap_or_default();
        if let Ok(info) = self.image_info(c) {
            let waited = done_at.since(requested_at);
            let message = format!(
                "Successfully pulled image {image:?} in {took} ({waited} including waiting). Image size: {} bytes.",
                info.size_bytes
            );
            self.event(c, EventType::Normal, "Pulled", message);
        }
        self.start(c);
    }

    /// Creates and starts a new instance of the container.
    fn start(&mut self, c: &mut RuntimeContainer) {
        let now = self.now;
        let env = match self.container_env(c) {
            Ok(env) => env,
            Err(message) => return self.config_error(c, message),
        };
        if let Err(message) = self.verify_run_as_non_root(c) {
            return self.config_error(c, message);
        }
        let sub_path_files = match (self.spec_of(c), &self.config.volumes) {
            (Some(spec), Some(volumes)) => super::volumes::container_files(spec, volumes, true),
            _ => Default::default(),
        };
        if let Some(reference) = c.pending_backoff_reference.take() {
            c.crash_backoff.next(reference, now);
        }
        let restarted = c.last_terminated.is_some();
        if restarted {
            c.restart_count += 1;
        }
        self.event(c, EventType::Normal, "Created", "Container created".to_string());
        self.event(c, EventType::Normal, "Started", "Container started".to_string());
        let id: String =
            (0..4).map(|_| format!("{:016x}", self.store.random_below(Purpose::ContainerId, u64::MAX))).collect();
        let container_id = format!("containerd://{id}");
        let (namespace, pod) = (&self.pod.metadata.namespace, &self.pod.metadata.name);
        c.gpu = self.devices.start(namespace, pod, &c.name);
        let started_with = super::container_config::StartedWith { env, sub_path_files };
        self.config.started.insert(c.name.clone(), started_with);
        let config_found = self.config_found(c);
        let mut running =
            Running { started_at: now, container_id, ends: None, stopping: None, hog_mib: 0, config_found };
        running.ends = self.natural_end(c, &running);
        if let (Some(spec), Ok(info)) = (self.spec_of(c), self.image_info(c)) {
            let held = info.workload.gpu_memory_held(spec, c.gpu);
            self.devices.hold(namespace, pod, &c.name, held);
        }
        c.probes = Default::default();
        c.phase = ContainerPhase::Running(running);
    }

    /// Whether the config file the container's image reads at start is among its files now.
    fn config_found(&self, c: &RuntimeContainer) -> bool {
        let (Some(spec), Ok(info)) = (self.spec_of(c), self.image_info(c)) else { return false };
        let Some(config) = &info.workload.behaviour.config_file else { return false };
        self.config.mounted_files(spec).contains_key(&config.path)
    }

    /// The environment the container's current process started with (`container_config.rs`
    /// keeps what the kubelet made).
    fn process_env(&self, c: &RuntimeContainer) -> Vec<(String, String)> {
        let made = self.config.started.get(&c.name).map(|s| s.env.as_slice()).unwrap_or_default();
        super::container_env::process_environment(self.pod, made)
    }

    /// When the process ends on its own: its workload's exit, or an OOM kill at start.
    fn natural_end(&self, c: &RuntimeContainer, running: &Running) -> Option<Ending> {
        let spec = self.spec_of(c)?;
        let info = self.image_info(c).ok()?;
        if let Some(limit) = memory_limit(spec)
            && info.workload.memory_bytes(Duration::ZERO, running.hog_mib) > limit
        {
            return Some(oom_kill(self.now));
        }
        let state = ProcessState { gpu: c.gpu, config_found: running.config_found, ..Default::default() };
        let exit = info.workload.exit_at_with_env(spec, &self.process_env(c), state)?;
        Some(Ending {
            at: running.started_at.plus(exit.after),
            exit_code: exit.exit_code,
            reason: exit.reason.to_string(),
            message: exit.message,
        })
    }

    /// A running container: its end if due, else its probes.
    fn step_running(&mut self, c: &mut RuntimeContainer) -> bool {
        let ContainerPhase::Running(running) = c.phase.clone() else { return false };
        if let Some(ending) = running.ends.clone().filter(|e| e.at <= self.now) {
            let restart_on_stop = running.stopping.is_some_and(|s| s.restart);
            self.exited(c, &running, ending, restart_on_stop);
            return true;
        }
        if running.stopping.is_none() && !self.runtime.terminating {
            if let Some(ending) = self.out_of_memory_under_load(c, &running) {
                let mut killed = running.clone();
                killed.ends = Some(ending.clone());
                self.exited(c, &killed, ending, false);
                return true;
            }
            if self.served_rps > 0 && !c.init {
                self.wake_at(self.now.plus(LOAD_RECHECK));
            }
            return self.run_probes(c, &running);
        }
        false
    }

    /// The load the container carries: requests go to the pod's first container.
    fn load_on(&self, c: &RuntimeContainer, spec: &Container) -> crate::workload::Load {
        let first = self.pod.spec.containers.first().is_some_and(|f| f.name == c.name) && !c.init;
        crate::workload::Load::on(spec, if first { self.served_rps } else { 0 })
    }

    /// The kernel's OOM kill when the requests in flight take the container past its limit.
    fn out_of_memory_under_load(&self, c: &RuntimeContainer, running: &Running) -> Option<Ending> {
        let spec = self.spec_of(c)?;
        let load = self.load_on(c, spec);
        if load.requests_per_second == 0 {
            return None;
        }
        let info = self.image_info(c).ok()?;
        let used = info.workload.memory_bytes(self.now.since(running.started_at), running.hog_mib)
            + info.workload.load_memory_bytes(load.requests_per_second);
        (used > memory_limit(spec)?).then(|| oom_kill(self.now))
    }

    /// What the process wrote under a mount on its node's disk stays there (`node_disk.rs`).
    fn keep_written_files(&mut self, c: &RuntimeContainer, running: &Running, ended: SimTime) {
        let Some(spec) = self.spec_of(c).cloned() else { return };
        let mounts = super::node_disk::disk_mounts(self.store, self.pod, &spec);
        if mounts.is_empty() {
            return;
        }
        let Ok(info) = self.image_info(c) else { return };
        let files = info.workload.files_at(&spec, &self.process_env(c), ended.since(running.started_at));
        for change in super::node_disk::written(&info.workload.behaviour.files, &files) {
            self.disks.apply(&mounts, &change);
        }
    }

    /// The process is gone: record it, then restart now, after a back-off, or never.
    fn exited(&mut self, c: &mut RuntimeContainer, running: &Running, ending: Ending, killed_for_restart: bool) {
        let now = self.now;
        self.keep_written_files(c, running, ending.at);
        self.devices.release(&self.pod.metadata.namespace, &self.pod.metadata.name, &c.name);
        c.last_gpu = c.gpu;
        let terminated = ContainerStateTerminated {
            exit_code: ending.exit_code,
            reason: Some(ending.reason.clone()),
            message: ending.message.clone(),
            started_at: Some(Time(running.started_at)),
            finished_at: Some(Time(ending.at)),
            container_id: Some(running.container_id.clone()),
            ..Default::default()
        };
        // A kill and its restart happen in one sync upstream, which then sees the exit before this one.
        let reference = if killed_for_restart { c.previous_finished } else { Some(ending.at) };
        c.previous_finished = Some(ending.at);
        c.last_terminated = Some(terminated);
        if self.runtime.terminating || !self.should_restart(c, ending.exit_code) {
            c.phase = ContainerPhase::Exited { restart_at: None };
            return;
        }
        match reference {
            Some(reference) if c.crash_backoff.in_backoff_since(reference, now) => {
                let restart_at = c.crash_backoff.ends_at(reference);
                c.pending_backoff_reference = Some(reference);
                c.phase = ContainerPhase::Exited { restart_at: Some(restart_at) };
                let message = format!(
                    "Back-off restarting failed container {} in pod {}_{}({})",
                    c.name, self.pod.metadata.name, self.pod.metadata.namespace, self.pod.metadata.uid
                );
                self.event(c, EventType::Warning, "BackOff", message);
            }
            Some(reference) => {
                c.crash_backoff.next(reference, now);
                self.restart(c);
            }
            None => self.restart(c),
        }
    }

    /// A new instance: straight from the image on the machine, or through a pull for a new image.
    fn restart(&mut self, c: &mut RuntimeContainer) {
        if self.image_changed(c) {
            if let Some(reference) = c.pending_backoff_reference.take() {
                c.crash_backoff.next(reference, self.now);
            }
            self.begin_pull(c);
        } else {
            self.start(c);
        }
    }

    fn spec_image(&self, c: &RuntimeContainer) -> String {
        self.spec_of(c).and_then(|s| s.image.clone()).unwrap_or_default()
    }

    /// The spec names another image than the one this instance was made from (`kubectl set image` on a pod).
    fn image_changed(&self, c: &RuntimeContainer) -> bool {
        !c.image.is_empty() && c.image != self.spec_image(c)
    }

    /// `computePodActions` on a changed container: a waiting one pulls the new image now (the
    /// old image's back-off does not apply); a running one is stopped and restarted with it.
    fn follow_new_image(&mut self, c: &mut RuntimeContainer) -> bool {
        match c.phase.clone() {
            ContainerPhase::Running(running) if running.stopping.is_none() => {
                let message = format!("Container {} definition changed, will be restarted", c.name);
                self.event(c, EventType::Normal, "Killing", message);
                let grace = self.pod.spec.termination_grace_period_seconds.unwrap_or(30).max(0) as u64;
                let deadline = self.now.plus(Duration::from_secs(grace));
                c.phase = ContainerPhase::Running(self.stopping(c, &running, self.now, deadline, true));
                // The restart that follows pulls the new image.
                true
            }
            // Already stopping, or waiting to restart: the restart pulls the new image.
            ContainerPhase::Running(_) | ContainerPhase::Exited { .. } | ContainerPhase::Blocked => false,
            _ => {
                c.image_backoff = Default::default();
                self.begin_pull(c);
                true
            }
        }
    }

    /// The pod's (or a sidecar's own) restartPolicy; init containers restart only on failure.
    fn should_restart(&self, c: &RuntimeContainer, exit_code: i32) -> bool {
        if c.sidecar {
            return true;
        }
        let policy = self.pod.spec.restart_policy.as_deref().unwrap_or("Always");
        match (c.init, policy) {
            (_, "Never") => false,
            (true, _) | (false, "OnFailure") => exit_code != 0,
            _ => true,
        }
    }

    /// Runs whichever probes are due; a settled liveness/startup failure stops the container.
    fn run_probes(&mut self, c: &mut RuntimeContainer, running: &Running) -> bool {
        let Some(spec) = self.spec_of(c).cloned() else { return false };
        let mut changed = false;
        let started = spec.startup_probe.is_none() || c.probes.startup.result == Some(true);
        let kinds: &[(ProbeKind, Option<&Probe>)] = if started {
            &[
                (ProbeKind::Liveness, spec.liveness_probe.as_deref()),
                (ProbeKind::Readiness, spec.readiness_probe.as_deref()),
            ]
        } else {
            &[(ProbeKind::Startup, spec.startup_probe.as_deref())]
        };
        for (kind, probe) in kinds.iter().copied() {
            let Some(probe) = probe else { continue };
            let timing = Timing::of(probe);
            let worker = *c.probes.get_mut(kind);
            let Some(tick) = worker.due_tick(self.runtime.admitted_at, timing, running.started_at, self.now) else {
                continue;
            };
            let outcome = self.probe_outcome(c, &spec, probe, running, tick);
            let ok = outcome.is_none();
            if let Some(message) = outcome {
                let text = format!("{} probe failed: {message}", kind.title());
                self.event(c, EventType::Warning, "Unhealthy", text);
            }
            let settled = c.probes.get_mut(kind).record(tick, ok, timing);
            changed |= settled.is_some();
            if settled == Some(false) && kind != ProbeKind::Readiness {
                self.stop_for_restart(c, running, kind, probe);
                return true;
            }
        }
        changed
    }

    /// One probe's failure message, or `None` when it passed.
    fn probe_outcome(
        &self,
        c: &RuntimeContainer,
        spec: &Container,
        probe: &Probe,
        running: &Running,
        tick: SimTime,
    ) -> Option<String> {
        let info = self.image_info(c).ok()?;
        let env = self.process_env(c);
        let ctx = ProbeContext {
            workload: &info.workload,
            container: spec,
            env: &env,
            pod_ip: &self.runtime.pod_ip,
            since_start: tick.since(running.started_at),
            state: ProcessState {
                hog_mib: running.hog_mib,
                sigterm_after: None,
                gpu: c.gpu,
                config_found: running.config_found,
            },
            load: self.load_on(c, spec),
        };
        match crate::workload::run_probe(probe, &ctx) {
            ProbeOutcome::Success => None,
            ProbeOutcome::Failure(message) | ProbeOutcome::Errored(message) => Some(message),
        }
    }

    /// `killContainer` after a failed liveness or startup probe: SIGTERM, then restart.
    fn stop_for_restart(&mut self, c: &mut RuntimeContainer, running: &Running, kind: ProbeKind, probe: &Probe) {
        let what = if kind == ProbeKind::Liveness { "liveness" } else { "startup" };
        let message = format!("Container {} failed {what} probe, will be restarted", c.name);
        self.event(c, EventType::Normal, "Killing", message);
        let grace = probe
            .termination_grace_period_seconds
            .or(self.pod.spec.termination_grace_period_seconds)
            .unwrap_or(30)
            .max(0) as u64;
        let deadline = self.now.plus(Duration::from_secs(grace));
        c.phase = ContainerPhase::Running(self.stopping(c, running, self.now, deadline, true));
    }

    /// SIGTERM at `sigterm_at`, SIGKILL at `sigkill_at`; the process ends at whichever comes first.
    pub fn stopping(
        &self,
        c: &RuntimeContainer,
        running: &Running,
        sigterm_at: SimTime,
        sigkill_at: SimTime,
        restart: bool,
    ) -> Running {
        let mut next = running.clone();
        next.stopping = Some(Stopping { sigterm_at, sigkill_at, restart });
        let response = self.image_info(c).ok().map(|info| info.workload.on_sigterm());
        let by_sigterm = response.and_then(|r| r.exits_after.map(|after| (sigterm_at.plus(after), r.exit_code)));
        let ending = match by_sigterm {
            Some((at, code)) if at <= sigkill_at => {
                Ending { at, exit_code: code, reason: exit_reason(code), message: None }
            }
            _ => Ending { at: sigkill_at, exit_code: 137, reason: "Error".to_string(), message: None },
        };
        let earlier = next.ends.as_ref().filter(|e| e.at <= ending.at).cloned();
        next.ends = Some(earlier.unwrap_or(ending));
        next
    }

    /// How long the container's preStop hook runs, which SIGTERM waits for
    /// (pkg/kubelet/lifecycle/handlers.go): a `sleep` action its seconds, an exec hook as long
    /// as its command takes in the image (forever: until the grace period ends), an httpGet
    /// hook as long as the handler takes to answer. A hook that cannot run takes no time and
    /// says why (the `FailedPreStopHook` event's message, as handlers.go words it).
    fn pre_stop_duration(&self, c: &RuntimeContainer, running: &Running) -> Result<Duration, String> {
        let Some(spec) = self.spec_of(c) else { return Ok(Duration::ZERO) };
        let Some(hook) = spec.lifecycle.as_ref().and_then(|l| l.pre_stop.as_ref()) else { return Ok(Duration::ZERO) };
        if let Some(sleep) = &hook.sleep {
            return Ok(Duration::from_secs(sleep.seconds.max(0) as u64));
        }
        let Ok(info) = self.image_info(c) else { return Ok(Duration::ZERO) };
        let since_start = self.now.since(running.started_at);
        if let Some(exec) = &hook.exec {
            return match info.workload.exec(spec, &self.process_env(c), &exec.command, since_start) {
                Ok(result) => Ok(result.exit.map_or(FOREVER, |(after, _)| after)),
                Err(program) => Err(self.failed_exec_hook(spec, &exec.command, &program)),
            };
        }
        let Some(http) = &hook.http_get else { return Ok(Duration::ZERO) };
        let port = match &http.port {
            crate::api::intstr::IntOrString::Int(port) => Some(*port),
            crate::api::intstr::IntOrString::String(name) => {
                spec.ports.iter().find(|p| p.name.as_deref() == Some(name.as_str())).map(|p| p.container_port)
            }
        };
        let path = http.path.as_deref().unwrap_or("/");
        let answer =
            port.and_then(|port| info.workload.respond(spec, path, port, &self.pod.metadata.name, since_start).ok());
        Ok(answer.map_or(Duration::ZERO, |answer| answer.latency))
    }

    /// `Exec lifecycle hook ([sh -c sleep 5]) for Container "hello" in Pod "NAME_NS(UID)" failed…`.
    fn failed_exec_hook(&self, spec: &Container, command: &[String], program: &str) -> String {
        let pod = &self.pod.metadata;
        let exec_id = crate::workload::pseudo_digest(&format!("{}/{}/{}", pod.uid, spec.name, command.join(" ")));
        format!(
            "Exec lifecycle hook ([{}]) for Container {:?} in Pod \"{}_{}({})\" failed - error: rpc error: code = Unknown desc = failed to exec in container: failed to start exec {:?}: OCI runtime exec failed: exec failed: unable to start container process: exec: {program:?}: executable file not found in $PATH: unknown, message: \"\"",
            command.join(" "),
            spec.name,
            pod.name,
            pod.namespace,
            pod.uid,
            exec_id.trim_start_matches("sha256:"),
        )
    }

    /// The pod is being deleted: stop every running container (preStop, SIGTERM, SIGKILL at the deadline).
    pub fn terminate(&mut self, deadline: SimTime) {
        self.runtime.terminating = true;
        let count = self.runtime.init_containers.len() + self.runtime.containers.len();
        for index in 0..count {
            let mut c = self.container(index).clone();
            match c.phase.clone() {
                ContainerPhase::Running(running) if running.stopping.is_none() => {
                    self.event(&c, EventType::Normal, "Killing", format!("Stopping container {}", c.name));
                    let pre_stop = match self.pre_stop_duration(&c, &running) {
                        Ok(duration) => duration,
                        Err(message) => {
                            self.event(&c, EventType::Warning, "FailedPreStopHook", message);
                            Duration::ZERO
                        }
                    };
                    let sigterm_at = self.now.plus(pre_stop).min(deadline);
                    c.phase = ContainerPhase::Running(self.stopping(&c, &running, sigterm_at, deadline, false));
                }
                ContainerPhase::Running(_) => {}
                _ => c.phase = ContainerPhase::Exited { restart_at: None },
            }
            *self.container(index) = c;
        }
    }

    /// Injects a process end now (`lab pod crash`, `lab pod oom`).
    pub fn kill_now(&mut self, ending: Ending) -> bool {
        let Some(index) = (0..self.runtime.containers.len()).find(|i| self.runtime.containers[*i].running().is_some())
        else {
            return false;
        };
        let offset = self.runtime.init_containers.len();
        if let ContainerPhase::Running(running) = &mut self.container(offset + index).phase {
            running.ends = Some(ending);
        }
        true
    }

    /// The next time anything in this pod falls due.
    fn collect_wakes(&mut self) {
        let mut wakes = Vec::new();
        for c in self.runtime.all() {
            match &c.phase {
                ContainerPhase::Creating { ready_at } => wakes.push(*ready_at),
                ContainerPhase::Pulling { done_at, .. } => wakes.push(*done_at),
                ContainerPhase::PullFailed { since, retry_at, backing_off, .. } => {
                    if !backing_off {
                        wakes.push(since.plus(PULL_ERROR_SHOWN));
                    }
                    wakes.push(*retry_at);
                }
                ContainerPhase::Exited { restart_at: Some(at) } => wakes.push(*at),
                ContainerPhase::ConfigError { retry_at, .. } => wakes.push(*retry_at),
                ContainerPhase::Running(running) => {
                    wakes.extend(running.ends.as_ref().map(|e| e.at));
                    if running.stopping.is_none() {
                        wakes.extend(self.probe_wakes(c, running));
                    }
                }
                _ => {}
            }
        }
        let volumes_due = self.config.volumes.is_none() || super::volumes::has_projected_files(self.pod);
        if !self.runtime.terminating && volumes_due {
            wakes.push(self.config.volumes_due_at);
        }
        for at in wakes {
            self.wake_at(at);
        }
    }

    /// Next tick of each active probe: always while failing or unsettled, else when the workload changes.
    fn probe_wakes(&self, c: &RuntimeContainer, running: &Running) -> Vec<SimTime> {
        let Some(spec) = self.spec_of(c) else { return Vec::new() };
        let started = spec.startup_probe.is_none() || c.probes.startup.result == Some(true);
        let active: Vec<(ProbeKind, &Probe)> = if started {
            [(ProbeKind::Liveness, &spec.liveness_probe), (ProbeKind::Readiness, &spec.readiness_probe)]
                .into_iter()
                .filter_map(|(k, p)| Some((k, p.as_deref()?)))
                .collect()
        } else {
            spec.startup_probe.iter().map(|p| (ProbeKind::Startup, &**p)).collect()
        };
        let mut wakes = Vec::new();
        for (kind, probe) in active {
            let timing = Timing::of(probe);
            let worker = match kind {
                ProbeKind::Startup => c.probes.startup,
                ProbeKind::Liveness => c.probes.liveness,
                ProbeKind::Readiness => c.probes.readiness,
            };
            let grid = self.runtime.admitted_at;
            // Under load a probe's outcome moves with the load, not only with the workload.
            let after = if worker.steady() && self.served_rps == 0 {
                match self.next_change(c, spec, probe, running) {
                    Some(at) => SimTime(at.0.saturating_sub(1)),
                    None => continue,
                }
            } else {
                self.now
            };
            wakes.push(ProbeWorker::next_tick(grid, timing, running.started_at, after.max(self.now)));
        }
        wakes
    }

    fn next_change(&self, c: &RuntimeContainer, spec: &Container, probe: &Probe, running: &Running) -> Option<SimTime> {
        let info = self.image_info(c).ok()?;
        let env = self.process_env(c);
        let ctx = ProbeContext {
            workload: &info.workload,
            container: spec,
            env: &env,
            pod_ip: &self.runtime.pod_ip,
            since_start: self.now.since(running.started_at),
            state: ProcessState {
                hog_mib: running.hog_mib,
                sigterm_after: None,
                gpu: c.gpu,
                config_found: running.config_found,
            },
            load: self.load_on(c, spec),
        };
        crate::workload::next_change(probe, &ctx).map(|d| running.started_at.plus(d))
    }
}

/// The container's memory limit in bytes, if it has one.
pub fn memory_limit(spec: &Container) -> Option<u64> {
    let limits = &spec.resources.limits;
    let quantity: &Quantity = limits.get("memory")?;
    u64::try_from(quantity.value()).ok()
}

pub fn oom_kill(at: SimTime) -> Ending {
    Ending { at, exit_code: 137, reason: "OOMKilled".to_string(), message: None }
}

/// A hook that never ends: it runs until the grace period's SIGKILL.
const FOREVER: Duration = Duration(u64::MAX / 4);

fn exit_reason(code: i32) -> String {
    if code == 0 { "Completed".to_string() } else { "Error".to_string() }
}
