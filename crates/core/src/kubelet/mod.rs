//! The kubelets of every node, as one component: each pod bound to a powered-on node is run
//! by its node's kubelet (`pod_worker.rs`), which reports the pod's status and finishes its
//! deletion. Nothing ticks: each pod asks to be stepped again only when something is due.
//! Mirrors pkg/kubelet (kubelet.go `syncPod`, pod_workers.go, kuberuntime, prober, status).

pub mod admission;
pub mod backoff;
pub mod config_source;
pub mod container_config;
pub mod container_env;
pub mod container_runtime;
pub mod device_manager;
pub mod downward_api;
pub mod dynamic_resources;
pub mod envvars;
pub mod eviction;
pub mod expansion;
pub mod node;
pub mod node_disk;
pub mod node_server;
mod partition;
pub mod pod_worker;
pub mod prober;
pub mod runtime;
pub mod security_context;
pub mod status;
pub mod volumes;

use crate::api::meta::Time;
use crate::api::node::NodeCondition;
use crate::api::{Kind, Node, Pod};
use crate::runtime::informer::{Changes, Informer};
use crate::runtime::wakeups::Wakeups;
use crate::runtime::work_queue::WorkQueue;
use crate::sim::time::SimTime;
use crate::store::event_recorder::{EventType, object_reference};
use crate::store::{DeleteOptions, Store};
use node::NodeRuntime;
use pod_worker::PodStep;
use runtime::{Ending, PodRuntime};
use std::collections::{BTreeMap, BTreeSet};

type Key = (String, String);

#[derive(Clone, Debug, Default)]
pub struct Kubelet {
    pub(crate) informer: Informer,
    /// The devices' GPU memory per container, as the GPU Operator's device plugin allocated them.
    pub(crate) devices: device_manager::DeviceManager,
    /// What changed, synced in batches a turn may leave unfinished (`sync_some`).
    queue: WorkQueue<Key>,
    wakeups: Wakeups<Key>,
    pods: BTreeMap<Key, PodRuntime>,
    /// Each pod's volumes and what its containers were started with, beside `pods` (whose
    /// `PodRuntime` kubelab-agent shares).
    configs: BTreeMap<Key, container_config::PodConfig>,
    nodes: BTreeMap<String, NodeRuntime>,
    /// Machines without power, and since when (a short list: the node controller reads it often).
    powered_off: BTreeMap<String, SimTime>,
    /// Nodes cut off from the control plane (`partition.rs`).
    partitioned: BTreeSet<String>,
    /// The container runtime behind every node's kubelet.
    runtime: container_runtime::Runtime,
    /// Nodes whose kubelet runs outside the simulation (a real machine's agent): nothing here
    /// runs their pods; their status arrives as requests (`Sim::node_input`).
    external: BTreeSet<String>,
    /// The connections the host made to external machines' agents (`connect_agent`).
    agents: BTreeMap<String, std::sync::Arc<dyn node_server::NodeAgent>>,
    /// The request load on the lab's workloads, as the controllers' pass last handed it over.
    load: crate::metrics::load::LoadTable,
    /// What containers wrote into volumes that live on their nodes' disks.
    pub(crate) disks: node_disk::NodeDisks,
    /// Every node's eviction manager (node-pressure eviction, for memory).
    eviction: eviction::EvictionManager,
}

/// Due pods taken from the wake-ups at a time.
const WAKE_BATCH: usize = 2048;

impl Kubelet {
    /// Syncs every pod due now, each as its node's kubelet; the caller's user is restored after.
    pub fn sync(&mut self, store: &mut Store) {
        let caller = store.user().clone();
        let mut unlimited = usize::MAX;
        self.sync_some(store, &mut unlimited, true);
        store.act_as(caller);
    }

    /// `sync` in parts, one pod per unit of `budget`; true when the batch is done. A turn's
    /// first call (`turn_start`, see `Controllers::take_turn`) hears what changed and, once the
    /// last batch is done, takes up the next; later calls go on where the last one stopped.
    /// The request load its pods serve from now on (their probes and memory follow it).
    pub fn set_load(&mut self, load: &crate::metrics::load::LoadTable) {
        if self.load != *load {
            self.load = load.clone();
            // Every loaded pod looks again at once (a new share, a new wait).
            let running: Vec<Key> = self.pods.keys().cloned().collect();
            self.queue.extend(running);
        }
    }

    pub fn sync_some(&mut self, store: &mut Store, budget: &mut usize, turn_start: bool) -> bool {
        let now = store.now();
        if turn_start {
            self.collect_changes(store);
            self.queue.extend(self.wakeups.take_due_at_most(now, WAKE_BATCH));
        }
        while *budget > 0 {
            if self.queue.is_empty() {
                // Pods still due (all of a big cluster's pods can fall due at one instant).
                self.queue.extend(self.wakeups.take_due_at_most(now, WAKE_BATCH));
            }
            if self.queue.is_empty() && self.eviction.any_due(now) {
                // Housekeeping once the pods are synced: it may evict one (queued here).
                *budget -= 1;
                self.synchronize_evictions(store);
                continue;
            }
            let Some((namespace, name)) = self.queue.pop() else { return true };
            *budget -= 1;
            self.sync_pod(store, &namespace, &name);
        }
        self.queue.is_empty() && !self.wakeups.any_due(now) && !self.eviction.any_due(now)
    }

    pub fn next_wake(&self) -> Option<SimTime> {
        [self.wakeups.next(), self.eviction.next_wake()].into_iter().flatten().min()
    }

    /// Runs every node's pods on `runtime` from now on (a lesson's own image catalogue).
    /// What `image` is on this lab's nodes (the container runtime's registry).
    pub fn resolve_image(&self, image: &str) -> Result<crate::workload::ImageInfo, crate::workload::PullError> {
        self.runtime.get().resolve_image(image)
    }

    pub fn use_container_runtime(&mut self, runtime: container_runtime::Runtime) {
        self.runtime = runtime;
    }

    /// The container runtime the nodes run pods with (read through `node_server`).
    fn container_runtime(&self) -> &dyn container_runtime::ContainerRuntime {
        self.runtime.get()
    }

    /// From now on the node's kubelet runs outside the simulation.
    pub fn mark_external(&mut self, node: &str) {
        self.external.insert(node.to_string());
    }

    /// The host reached an external machine's agent: the API server's reads of that node's
    /// pods (logs, exec) go to it from now on.
    pub fn connect_agent(&mut self, node: &str, agent: std::sync::Arc<dyn node_server::NodeAgent>) {
        self.agents.insert(node.to_string(), agent);
    }

    /// The agent of an external machine, while the host is connected to it.
    pub fn agent(&self, node: &str) -> Option<&dyn node_server::NodeAgent> {
        self.agents.get(node).map(|a| a.as_ref())
    }

    /// Whether the node's kubelet runs outside the simulation.
    pub fn is_external(&self, node: &str) -> bool {
        self.external.contains(node)
    }

    /// What the kubelet set up for a pod: its volumes' files, its containers' env.
    fn pod_config(&self, namespace: &str, name: &str) -> Option<&container_config::PodConfig> {
        self.configs.get(&(namespace.to_string(), name.to_string()))
    }

    /// The runtime view of a pod (read through `node_server`: logs, exec, metrics).
    fn pod_runtime(&self, namespace: &str, name: &str) -> Option<&PodRuntime> {
        self.pods.get(&(namespace.to_string(), name.to_string()))
    }

    /// When the node's kubelet last posted status, if it has stopped (the machine is off).
    pub fn heartbeat_lost_at(&self, node: &str) -> Option<SimTime> {
        self.powered_off.get(node).copied()
    }

    /// Every machine without power, and since when.
    pub fn powered_off(&self) -> impl Iterator<Item = (&String, &SimTime)> {
        self.powered_off.iter()
    }

    fn collect_changes(&mut self, store: &Store) {
        match self.informer.poll(store) {
            Changes::Events(events) => {
                for event in events.filter(|e| e.kind == Kind::Pod) {
                    self.queue.add((event.namespace.clone(), event.name.clone()));
                }
            }
            Changes::Relist => {
                self.queue
                    .extend(store.list::<Pod>(None).map(|p| (p.metadata.namespace.clone(), p.metadata.name.clone())));
                // Pods deleted while it was behind: their sync finds them gone and stops them.
                self.queue.extend(self.pods.keys().cloned());
            }
        }
    }

    fn node_runtime(&mut self, name: &str) -> &mut NodeRuntime {
        let subnet = self.nodes.len() as u32 + 1;
        self.nodes.entry(name.to_string()).or_insert_with(|| NodeRuntime::new(name, subnet))
    }

    /// The node's runtime, its pod subnet taken from its InternalIP (`10.0.0.10` → 10.244.1.0/24).
    fn node_runtime_for(&mut self, node: &Node) -> &mut NodeRuntime {
        let octet = internal_ip(node).rsplit('.').next().and_then(|o| o.parse::<u32>().ok());
        let subnet = octet.map_or(self.nodes.len() as u32 + 1, |o| o.saturating_sub(9));
        let name = node.metadata.name.clone();
        self.nodes.entry(name.clone()).or_insert_with(|| NodeRuntime::new(&name, subnet))
    }

    fn sync_pod(&mut self, store: &mut Store, namespace: &str, name: &str) {
        let key = (namespace.to_string(), name.to_string());
        // Shared handles, not copies: the pod is read throughout while its status is written.
        let pod = store.try_get_shared::<Pod>(namespace, name);
        if self.cut_off(&key, pod.as_ref().and_then(|p| p.node_name())) {
            return;
        }
        let Some(pod) = pod else {
            self.pods.remove(&key);
            self.configs.remove(&key);
            self.eviction.evicted(&key);
            return;
        };
        let Some(node_name) = pod.node_name().map(str::to_string) else { return };
        if self.external.contains(&node_name) {
            return;
        }
        let Some(node) = store.try_get_shared::<Node>("", &node_name) else { return };
        let host_ip = internal_ip(&node);
        let node_object = node.clone();
        let node_runtime = self.node_runtime_for(&node);
        if node_runtime.powered_off_at.is_some() {
            return;
        }
        // What follows is this node's kubelet writing.
        store.act_as(node_runtime.user.clone());
        if self.pods.get(&key).is_some_and(|rt| rt.uid != pod.metadata.uid) {
            self.pods.remove(&key);
        }
        if self.configs.get(&key).is_some_and(|c| c.uid != pod.metadata.uid) {
            self.configs.remove(&key);
        }
        let now = store.now();
        self.eviction.touch(&node_name, now);
        if !self.pods.contains_key(&key) {
            if matches!(pod.phase(), "Succeeded" | "Failed") {
                return;
            }
            if pod.metadata.deletion_timestamp.is_some() {
                // Never started here: nothing to stop.
                let _ = store.delete::<Pod>(namespace, name, &force());
                return;
            }
            if let Some((reason, message)) = self.admission_refusal(store, &pod, &node) {
                admission::reject(store, &pod, &reason, message);
                return;
            }
            if let Some(message) = dynamic_resources::unprepared(store, &pod) {
                let reference = crate::store::event_recorder::object_reference(&*pod);
                let warning = crate::store::event_recorder::EventType::Warning;
                store.record_event(reference, warning, "FailedPrepareDynamicResources", message);
                self.wakeups.add_at(now.plus(dynamic_resources::RETRY), key.clone());
                return;
            }
            let runtime = pod_worker::admit(&pod, self.node_runtime(&node_name), &host_ip, now);
            self.pods.insert(key.clone(), runtime);
            self.configs.insert(key.clone(), container_config::PodConfig::new(pod.metadata.uid, now));
        }
        let served_rps = self.load.served_by(store, namespace, name);
        let mut runtime = self.pods.remove(&key).unwrap_or_else(|| unreachable_runtime(&pod));
        let mut config =
            self.configs.remove(&key).unwrap_or_else(|| container_config::PodConfig::new(pod.metadata.uid, now));
        let node = self.nodes.get_mut(&node_name).expect("node runtime created above");
        let container_runtime = self.runtime.get();
        let devices = &mut self.devices;
        let mut step = PodStep {
            store,
            node,
            node_object: Some(&node_object),
            host_ip: &host_ip,
            pod: &pod,
            runtime: &mut runtime,
            config: &mut config,
            container_runtime,
            devices,
            disks: &mut self.disks,
            now,
            wake: None,
            served_rps,
        };
        let evicting = self.eviction.evicting(&key, pod.metadata.uid).cloned();
        if let Some(deadline) = pod.metadata.deletion_timestamp
            && !step.runtime.terminating
        {
            step.terminate(deadline.0);
        } else if let Some(eviction) = &evicting
            && !step.runtime.terminating
        {
            step.terminate(eviction.kill_at);
        }
        step.run();
        let wake = step.wake;
        if runtime.terminating && runtime.all().all(|c| c.running().is_none()) {
            self.finish_stopped(store, &pod, &runtime, host_ip, evicting);
            return;
        }
        write_status(store, &pod, &runtime, host_ip, now);
        if let Some(at) = wake {
            self.wakeups.add_at(at, key.clone());
        }
        self.configs.insert(key.clone(), config);
        self.pods.insert(key, runtime);
    }

    /// Why this node's kubelet refuses a pod bound to it: its admit handlers in order, the
    /// eviction manager's first (`Admit`), then the device manager's and the resource fit.
    fn admission_refusal(&self, store: &Store, pod: &Pod, node: &Node) -> Option<(String, String)> {
        let under_pressure = self.eviction.under_memory_pressure(&node.metadata.name);
        eviction::admit::refusal(under_pressure, pod).or_else(|| admission::rejection(store, pod, node, &self.devices))
    }

    /// Every container of a pod being deleted or evicted has stopped: its last status, then a
    /// deleted pod is removed and an evicted one stays, Failed, for the pod garbage collector.
    /// Nothing of it runs here any more.
    fn finish_stopped(
        &mut self,
        store: &mut Store,
        pod: &Pod,
        runtime: &PodRuntime,
        host_ip: String,
        evicting: Option<eviction::manager::Evicting>,
    ) {
        let key = (pod.metadata.namespace.clone(), pod.metadata.name.clone());
        self.eviction.evicted(&key);
        let now = store.now();
        match evicting.filter(|_| pod.metadata.deletion_timestamp.is_none()) {
            Some(eviction) => {
                let mut status = status::pod_status(pod, runtime, now);
                status.host_ip = Some(host_ip);
                update_status(store, pod, eviction::evicted_status::evicted(status, &eviction, now));
            }
            None => {
                write_status(store, pod, runtime, host_ip, now);
                let _ = store.delete::<Pod>(&key.0, &key.1, &force());
            }
        }
    }

    /// `lab pod crash`: the main container's process exits now with `exit_code`.
    pub fn crash(&mut self, store: &mut Store, namespace: &str, name: &str, exit_code: i32) -> Result<(), String> {
        let reason = if exit_code == 0 { "Completed" } else { "Error" };
        let ending = Ending { at: store.now(), exit_code, reason: reason.to_string(), message: None };
        self.inject(store, namespace, name, ending)
    }

    /// `lab pod oom`: the kernel's OOM killer ends the main container now (exit 137).
    pub fn oom(&mut self, store: &mut Store, namespace: &str, name: &str) -> Result<(), String> {
        self.inject(store, namespace, name, pod_worker::oom_kill(store.now()))
    }

    fn inject(&mut self, store: &mut Store, namespace: &str, name: &str, ending: Ending) -> Result<(), String> {
        let key = (namespace.to_string(), name.to_string());
        let pod = store.get::<Pod>(namespace, name).map_err(|e| e.to_string())?.clone();
        let Some(runtime) = self.pods.get_mut(&key) else {
            return Err(format!("pod {name:?} has no running container"));
        };
        let config = self.configs.entry(key.clone()).or_default();
        let node = self.nodes.get_mut(&runtime.node).ok_or("pod is not on a node")?;
        if node.powered_off_at.is_some() {
            return Err(format!("node {:?} is powered off", node.name));
        }
        let now = store.now();
        let container_runtime = self.runtime.get();
        let devices = &mut self.devices;
        let mut step = PodStep {
            store,
            node,
            node_object: None,
            host_ip: "",
            pod: &pod,
            runtime,
            config,
            container_runtime,
            devices,
            disks: &mut self.disks,
            now,
            wake: None,
            served_rps: 0,
        };
        if !step.kill_now(ending) {
            return Err(format!("pod {name:?} has no running container"));
        }
        self.queue.add(key);
        self.sync(store);
        Ok(())
    }

    /// `/hog?mb=N` served by a running container: its process keeps `mib` more MiB. Past the
    /// container's memory limit the kernel's OOM killer ends it now (OOMKilled, exit 137).
    /// Returns whether it was killed.
    pub fn add_memory(
        &mut self,
        store: &mut Store,
        namespace: &str,
        name: &str,
        container: &str,
        mib: u64,
    ) -> Result<bool, String> {
        let key = (namespace.to_string(), name.to_string());
        let pod = store.get::<Pod>(namespace, name).map_err(|e| e.to_string())?.clone();
        let spec = pod.spec.containers.iter().chain(pod.spec.init_containers.iter()).find(|c| c.name == container);
        let spec = spec.ok_or_else(|| format!("container {container:?} not found"))?;
        let info = self.runtime.get().resolve_image(spec.image.as_deref().unwrap_or(""));
        let runtime = self.pods.get_mut(&key).ok_or_else(|| format!("pod {name:?} has no running container"))?;
        let now = store.now();
        let Some(runtime::ContainerPhase::Running(running)) =
            runtime.all_mut().find(|c| c.name == container).map(|c| &mut c.phase)
        else {
            return Err(format!("container {container:?} is not running"));
        };
        running.hog_mib = running.hog_mib.saturating_add(mib);
        let used = info.map_or(0, |i| i.workload.memory_bytes(now.since(running.started_at), running.hog_mib));
        let over = pod_worker::memory_limit(spec).is_some_and(|limit| used > limit);
        if over && running.ends.as_ref().is_none_or(|e| e.at > now) {
            running.ends = Some(pod_worker::oom_kill(now));
            self.queue.add(key);
            self.sync(store);
        }
        Ok(over)
    }

    /// The machine loses power: its kubelet stops; its containers' fate is unknown.
    pub fn power_off(&mut self, store: &mut Store, node: &str) {
        let now = store.now();
        self.node_runtime(node).powered_off_at = Some(now);
        self.powered_off.insert(node.to_string(), now);
        store.stop_heartbeat(node);
    }

    /// The machine is back: containers did not survive the reboot; the kubelet posts Ready
    /// and restarts (or finishes deleting) every pod bound here.
    pub fn power_on(&mut self, store: &mut Store, node: &str) {
        let Some(off_at) = self.node_runtime(node).powered_off_at.take() else { return };
        self.powered_off.remove(node);
        if let Some(object) = store.try_get_shared::<Node>("", node) {
            store.start_heartbeat(&object);
        }
        let keys: Vec<Key> = self.pods.iter().filter(|(_, rt)| rt.node == node).map(|(k, _)| k.clone()).collect();
        for key in keys {
            if let Some(rt) = self.pods.get_mut(&key) {
                for c in rt.all_mut() {
                    if let runtime::ContainerPhase::Running(r) = &mut c.phase {
                        r.ends = Some(Ending {
                            at: off_at.max(r.started_at),
                            exit_code: 255,
                            reason: "Unknown".into(),
                            message: None,
                        });
                    }
                }
            }
            self.queue.add(key);
        }
        let caller = store.act_as(self.node_runtime(node).user.clone());
        post_ready(store, node);
        store.act_as(caller);
        self.queue.extend(
            store
                .list::<Pod>(None)
                .filter(|p| p.node_name() == Some(node))
                .map(|p| (p.metadata.namespace.clone(), p.metadata.name.clone())),
        );
        self.sync(store);
    }
}

fn force() -> DeleteOptions {
    DeleteOptions { grace_period_seconds: Some(0), ..Default::default() }
}

fn unreachable_runtime(pod: &Pod) -> PodRuntime {
    PodRuntime {
        uid: pod.metadata.uid,
        node: String::new(),
        admitted_at: SimTime::ZERO,
        pod_ip: String::new(),
        init_containers: Vec::new(),
        containers: Vec::new(),
        terminating: false,
    }
}

fn internal_ip(node: &Node) -> String {
    node.status.addresses.iter().find(|a| a.type_ == "InternalIP").map(|a| a.address.clone()).unwrap_or_default()
}

fn write_status(store: &mut Store, pod: &Pod, runtime: &PodRuntime, host_ip: String, now: SimTime) {
    let mut status = status::pod_status(pod, runtime, now);
    status.host_ip = Some(host_ip);
    update_status(store, pod, status);
}

fn update_status(store: &mut Store, pod: &Pod, status: crate::api::pod::PodStatus) {
    if status != pod.status {
        let mut updated = pod.clone();
        updated.status = status;
        let _ = store.update_status(updated);
    }
}

/// The kubelet's node status after a restart: Ready again, heartbeat now.
fn post_ready(store: &mut Store, node_name: &str) {
    let Some(mut node) = store.try_get::<Node>("", node_name).cloned() else { return };
    let now = Time(store.now());
    for condition in &mut node.status.conditions {
        let (status, reason, message) = match condition.type_.as_str() {
            "Ready" => ("True", "KubeletReady", "kubelet is posting ready status"),
            "MemoryPressure" => ("False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
            "DiskPressure" => ("False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
            "PIDPressure" => ("False", "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
            _ => continue,
        };
        set_node_condition(condition, status, reason, message, now);
    }
    if store.update_status(node).is_ok() {
        let reference = object_reference(store.get::<Node>("", node_name).expect("just updated"));
        store.record_event(
            reference,
            EventType::Normal,
            "NodeReady",
            format!("Node {node_name} status is now: NodeReady"),
        );
    }
}

fn set_node_condition(condition: &mut NodeCondition, status: &str, reason: &str, message: &str, now: Time) {
    if condition.status != status {
        condition.last_transition_time = Some(now);
    }
    condition.status = status.to_string();
    condition.reason = Some(reason.to_string());
    condition.message = Some(message.to_string());
    condition.last_heartbeat_time = Some(now);
}
