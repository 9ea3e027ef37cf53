//! The GPU Operator on every GPU node, as one component: GPU Feature Discovery's labels, the
//! device plugin's resources in the Node's capacity (as the kubelet adds them), the kubelet
//! device manager's allocation of devices to pods, and the MIG manager's reconfigurations.
//! Upstream these are DaemonSets of NVIDIA/gpu-operator; here one loop keeps them in step.

use super::device_plugin::{self, Device};
use super::device_plugin_config::{self as plugin_config, PluginConfig};
use super::dra_driver;
use super::feature_discovery;
use super::machine::{GpuMachine, MigStrategy};
use super::mig_manager;
use crate::api::meta::ObjectMeta;
use crate::api::quantity::{Format, Quantity};
use crate::api::{ConfigMap, DeviceClass, Kind, Namespace, Node, Pod, ResourceSlice};
use crate::kubelet::device_manager::ContainerDevices;
use crate::runtime::informer::{Changes, Informer};
use crate::runtime::wakeups::Wakeups;
use crate::sim::time::SimTime;
use crate::store::event_recorder::{EventType, object_reference};
use crate::store::{Store, UserInfo};
use std::collections::{BTreeMap, BTreeSet};

type PodKey = (String, String);

/// The devices one pod's containers were given, by container.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PodDevices {
    pub node: String,
    pub containers: Vec<(String, Vec<Device>)>,
}

#[derive(Clone, Debug, Default)]
pub struct GpuOperator {
    pub(crate) informer: Informer,
    machines: BTreeMap<String, GpuMachine>,
    allocations: BTreeMap<PodKey, PodDevices>,
    /// Nodes whose MIG manager is mid-reconfiguration: the config, and when it is done.
    reconfiguring: BTreeMap<String, (String, SimTime)>,
    wakeups: Wakeups<String>,
    /// Nodes whose labels and capacity must be published again.
    dirty: BTreeSet<String>,
    /// Each machine's MIG strategy as installed, which a device plugin config may override.
    installed_strategy: BTreeMap<String, MigStrategy>,
    /// Each node's device plugin config now, or the error that kept the last one in place.
    configs: BTreeMap<String, Result<PluginConfig, String>>,
    /// Pods whose allocation changed since the kubelet's device manager last heard.
    handed_over: BTreeSet<PodKey>,
    /// Nodes whose time-slicing config changed (or that left) since the kubelet last heard.
    sharing_changed: BTreeSet<String>,
}

/// The label a learner (or the GPU Operator's ClusterPolicy) sets, and the one the manager answers on.
pub const MIG_CONFIG_LABEL: &str = "nvidia.com/mig.config";
pub const MIG_CONFIG_STATE_LABEL: &str = "nvidia.com/mig.config.state";

impl GpuOperator {
    /// A machine with GPUs joins: its GPUs are published once its Node is seen.
    pub fn add_machine(&mut self, node: &str, machine: GpuMachine) {
        self.installed_strategy.insert(node.to_string(), machine.strategy);
        self.machines.insert(node.to_string(), machine);
        self.dirty.insert(node.to_string());
    }

    /// The machine left the cluster.
    pub fn remove_machine(&mut self, node: &str) {
        self.machines.remove(node);
        self.installed_strategy.remove(node);
        self.configs.remove(node);
        self.reconfiguring.remove(node);
        self.sharing_changed.insert(node.to_string());
        let gone = self.allocations.iter().filter(|(_, a)| a.node == node).map(|(k, _)| k.clone());
        self.handed_over.extend(gone.collect::<Vec<_>>());
        self.allocations.retain(|_, a| a.node != node);
    }

    /// Every node with GPUs.
    pub fn nodes(&self) -> impl Iterator<Item = &str> {
        self.machines.keys().map(String::as_str)
    }

    pub fn machine(&self, node: &str) -> Option<&GpuMachine> {
        self.machines.get(node)
    }

    /// The machine, to change its hardware state (`nvidia-smi` on the node); its labels and
    /// capacity are published again on the next sync.
    pub fn machine_mut(&mut self, node: &str) -> Option<&mut GpuMachine> {
        self.dirty.insert(node.to_string());
        self.machines.get_mut(node)
    }

    /// The devices a pod was given.
    pub fn pod_devices(&self, namespace: &str, name: &str) -> Option<&PodDevices> {
        self.allocations.get(&(namespace.to_string(), name.to_string()))
    }

    /// Every allocation on a node (whose pods hold which GPU or MIG device).
    pub fn node_allocations(&self, node: &str) -> impl Iterator<Item = (&PodKey, &PodDevices)> {
        self.allocations.iter().filter(move |(_, a)| a.node == node)
    }

    /// What pods hold on a node, for the driver's "In use by another client".
    pub fn in_use(&self, node: &str) -> super::nvidia_smi::InUse {
        super::nvidia_smi::InUse::from_devices(
            self.node_allocations(node).flat_map(|(_, a)| a.containers.iter().flat_map(|(_, d)| d.iter())),
        )
    }

    /// `nvidia-smi ARGS` on the node's host (it may change the GPUs), or `None` without GPUs.
    pub fn host_nvidia_smi(&mut self, node: &str, args: &[String], now: SimTime) -> Option<super::nvidia_smi::Outcome> {
        let in_use = self.in_use(node);
        let machine = self.machine_mut(node)?;
        Some(super::nvidia_smi::run(machine, super::nvidia_smi::Scope::Host, &in_use, args, now))
    }

    /// `nvidia-smi ARGS` in a pod's container, seeing only its devices; `None` when the device
    /// plugin gave the container none (the toolkit then mounts no driver and no `nvidia-smi`).
    pub fn container_nvidia_smi(
        &self,
        namespace: &str,
        pod: &str,
        container: &str,
        args: &[String],
        now: SimTime,
    ) -> Option<super::nvidia_smi::Outcome> {
        let allocation = self.pod_devices(namespace, pod)?;
        let (_, devices) = allocation.containers.iter().find(|(name, _)| name == container)?;
        let mut machine = self.machine(&allocation.node)?.clone();
        let scope = super::nvidia_smi::Scope::Container(devices);
        Some(super::nvidia_smi::run(&mut machine, scope, &super::nvidia_smi::InUse::default(), args, now))
    }

    pub fn next_wake(&self) -> Option<SimTime> {
        self.wakeups.next()
    }

    pub fn sync(&mut self, store: &mut Store) {
        if self.machines.is_empty() {
            // No GPU anywhere: nothing to watch (a CPU-only lab pays nothing for this loop).
            self.informer.listed(store);
            return;
        }
        ensure_namespace(store);
        let now = store.now();
        let mut nodes: BTreeSet<String> = std::mem::take(&mut self.dirty);
        nodes.extend(self.wakeups.take_due(now));
        let mut pods: BTreeSet<PodKey> = BTreeSet::new();
        match self.informer.poll(store) {
            Changes::Events(events) => {
                for event in events {
                    match event.kind {
                        Kind::Node => {
                            nodes.insert(event.name.clone());
                        }
                        Kind::Pod => {
                            pods.insert((event.namespace.clone(), event.name.clone()));
                        }
                        // The DRA driver installed or removed: every node publishes anew.
                        Kind::DeviceClass => nodes.extend(self.machines.keys().cloned()),
                        Kind::ConfigMap
                            if event.namespace == plugin_config::CONFIG_MAP_NAMESPACE
                                && event.name == plugin_config::CONFIG_MAP_NAME =>
                        {
                            nodes.extend(self.machines.keys().cloned());
                        }
                        _ => {}
                    }
                }
            }
            Changes::Relist => {
                nodes.extend(self.machines.keys().cloned());
                pods.extend(store.list::<Pod>(None).map(|p| (p.metadata.namespace.clone(), p.metadata.name.clone())));
                pods.extend(self.allocations.keys().cloned());
            }
        }
        for key in pods {
            self.sync_pod(store, key);
        }
        nodes.retain(|n| self.machines.contains_key(n));
        for node in nodes {
            self.mig_manager(store, &node);
            self.configure_plugin(store, &node);
            self.publish(store, &node);
        }
    }

    /// The kubelet device manager: devices for a pod bound to a GPU node, back when it is gone.
    fn sync_pod(&mut self, store: &Store, key: PodKey) {
        let pod = store.try_get::<Pod>(&key.0, &key.1);
        let live = pod.filter(|p| !matches!(p.phase(), "Succeeded" | "Failed"));
        let Some(pod) = live.filter(|p| p.node_name().is_some_and(|n| self.machines.contains_key(n))) else {
            if self.allocations.remove(&key).is_some() {
                self.handed_over.insert(key.clone());
                self.dirty.extend(pod.and_then(Pod::node_name).map(str::to_string));
            }
            return;
        };
        if self.allocations.contains_key(&key) {
            return;
        }
        let node = pod.node_name().unwrap_or_default().to_string();
        if !pod.spec.resource_claims.is_empty() {
            // DRA: the driver prepares the devices the pod's claims were allocated.
            let claims = crate::dra::pod_claims::claims(store, pod).unwrap_or_default();
            let containers = dra_driver::pod_devices(pod, &claims, &self.machines[&node]);
            if !containers.is_empty() {
                self.handed_over.insert(key.clone());
                self.allocations.insert(key, PodDevices { node, containers });
            }
            return;
        }
        let machine = &self.machines[&node];
        let devices = device_plugin::devices(machine);
        let taken: BTreeSet<&str> = self
            .node_allocations(&node)
            .flat_map(|(_, a)| a.containers.iter().flat_map(|(_, d)| d.iter().map(|d| d.id.as_str())))
            .collect();
        let mut given: BTreeSet<String> = BTreeSet::new();
        let mut containers = Vec::new();
        for container in pod.spec.containers.iter() {
            let mut mine = Vec::new();
            for (resource, quantity) in container.resources.requests.iter() {
                if !resource.starts_with("nvidia.com/") || quantity.value() <= 0 {
                    continue;
                }
                let busy = |id: &str| taken.contains(id) || given.contains(id);
                // Too few free: the kubelet would reject the pod (UnexpectedAdmissionError);
                // the scheduler's fit keeps that from happening.
                let Some(picked) =
                    device_plugin::allocate(machine, &devices, &busy, resource, quantity.value() as usize)
                else {
                    continue;
                };
                let picked: Vec<Device> = picked.into_iter().cloned().collect();
                given.extend(picked.iter().map(|d| d.id.clone()));
                mine.extend(picked);
            }
            if !mine.is_empty() {
                containers.push((container.name.clone(), mine));
            }
        }
        if !containers.is_empty() {
            self.handed_over.insert(key.clone());
            self.allocations.insert(key, PodDevices { node, containers });
        }
    }

    /// Tells the kubelet's device manager what changed: each container's GPU memory, from the
    /// devices it holds (a whole GPU's or a time-sliced replica's memory is the GPU's; a MIG
    /// device's is its profile's).
    pub fn hand_over_devices(&mut self, manager: &mut crate::kubelet::device_manager::DeviceManager) {
        for node in std::mem::take(&mut self.sharing_changed) {
            let sharing = self.machines.get(&node).and_then(|m| m.time_slicing.as_ref());
            let strict: Vec<String> = match sharing {
                Some(sharing) if sharing.fail_requests_greater_than_one => {
                    sharing.resources.iter().filter(|r| r.replicas >= 2).map(|r| sharing.shared_name(&r.name)).collect()
                }
                _ => Vec::new(),
            };
            manager.set_one_replica_only(&node, strict);
        }
        for key in std::mem::take(&mut self.handed_over) {
            let mut containers = BTreeMap::new();
            if let Some(allocation) = self.allocations.get(&key)
                && let Some(machine) = self.machines.get(&allocation.node)
            {
                for (name, devices) in &allocation.containers {
                    let total_mib = devices.iter().map(|d| device_memory_mib(machine, d)).sum();
                    // A time-sliced replica (`<uuid>::<n>`) is its device, shared.
                    let physical =
                        devices.iter().map(|d| d.id.split("::").next().unwrap_or(&d.id).to_string()).collect();
                    containers.insert(name.clone(), ContainerDevices { total_mib, physical });
                }
            }
            manager.set(&key.0, &key.1, containers);
        }
    }

    /// The MIG manager: a changed `nvidia.com/mig.config` goes pending, then is applied (at once
    /// when the GPUs already have that layout). The label's latest value wins: changed again
    /// while pending, the manager starts over with the new one.
    fn mig_manager(&mut self, store: &mut Store, node: &str) {
        let Some(object) = store.try_get::<Node>("", node) else { return };
        let wanted = object.metadata.labels.get(MIG_CONFIG_LABEL).map(str::to_string);
        let machine = &self.machines[node];
        let now = store.now();
        match (wanted, self.reconfiguring.get(node).cloned()) {
            // Still reconfiguring: nothing to do until it is due.
            (Some(config), Some((pending, due))) if config == pending && due > now => {}
            (Some(config), Some((pending, _))) if config == pending => {
                self.reconfiguring.remove(node);
                let in_use = self.node_allocations(node).next().is_some();
                let machine = self.machines.get_mut(node).expect("checked above");
                // A GPU in use cannot be reset: the manager gives up until the label changes.
                let applied = !in_use && mig_manager::apply(machine, &config).is_ok();
                machine.applied_config = Some(config);
                set_state(store, node, if applied { "success" } else { "failed" });
            }
            (Some(config), pending)
                if pending.is_some() || machine.applied_config.as_deref() != Some(config.as_str()) =>
            {
                if mig_manager::already_applied(machine, &config) {
                    self.reconfiguring.remove(node);
                    self.machines.get_mut(node).expect("checked above").applied_config = Some(config);
                    set_state(store, node, "success");
                    return;
                }
                let due = now.plus(mig_manager::RECONFIGURE);
                self.reconfiguring.insert(node.to_string(), (config, due));
                self.wakeups.add_at(due, node.to_string());
                set_state(store, node, "pending");
            }
            (None, _) if machine.model().is_some_and(|m| m.mig.is_some()) => {
                // The GPU Operator labels every MIG-capable node with its default config; the
                // manager then applies it as it would any other.
                self.reconfiguring.remove(node);
                self.machines.get_mut(node).expect("checked above").applied_config = None;
                set_labels(store, node, &[(MIG_CONFIG_LABEL, mig_manager::DEFAULT_CONFIG)]);
                self.dirty.insert(node.to_string());
            }
            _ => {}
        }
    }

    /// The device plugin's config manager: the config the node's label (or `default`) names
    /// in the ConfigMap, applied to the machine; a broken one is reported once on the Node and
    /// the last good one stays (the plugin keeps running with it).
    fn configure_plugin(&mut self, store: &mut Store, node: &str) {
        let Some(object) = store.try_get::<Node>("", node) else { return };
        let reference = object_reference(object);
        let label = object.metadata.labels.get(plugin_config::CONFIG_LABEL).map(str::to_string);
        let map = store.try_get::<ConfigMap>(plugin_config::CONFIG_MAP_NAMESPACE, plugin_config::CONFIG_MAP_NAME);
        let wanted = match (&label, map) {
            (None, None) => Ok(PluginConfig::default()),
            (None, Some(map)) => {
                map.data.get(plugin_config::DEFAULT_KEY).map_or(Ok(PluginConfig::default()), plugin_config::parse)
            }
            (Some(key), None) => Err(format!(
                "unable to get config \"{key}\": configmap \"{}\" not found in namespace \"{}\"",
                plugin_config::CONFIG_MAP_NAME,
                plugin_config::CONFIG_MAP_NAMESPACE
            )),
            (Some(key), Some(map)) => map.data.get(key).map_or_else(
                || {
                    Err(format!(
                        "unable to get config \"{key}\": no such key in configmap \"{}\"",
                        plugin_config::CONFIG_MAP_NAME
                    ))
                },
                plugin_config::parse,
            ),
        };
        if self.configs.get(node) == Some(&wanted) {
            return;
        }
        match &wanted {
            Ok(config) => {
                let machine = self.machines.get_mut(node).expect("a GPU node");
                machine.strategy = config.mig_strategy.unwrap_or(self.installed_strategy[node]);
                machine.time_slicing = config.time_slicing.clone();
                self.sharing_changed.insert(node.to_string());
            }
            Err(error) => {
                let message = format!("device plugin config not applied: {error}");
                store.record_event(reference, EventType::Warning, "FailedDevicePluginConfig", message);
            }
        }
        self.configs.insert(node.to_string(), wanted);
    }

    /// GFD's labels and the device plugin's capacity, written where they differ.
    fn publish(&self, store: &mut Store, node: &str) {
        let machine = &self.machines[node];
        let Some(object) = store.try_get::<Node>("", node) else { return };
        let mut labels = object.metadata.labels.clone();
        let stale: Vec<String> =
            labels.iter().filter(|(k, _)| feature_discovery::owned_by_gfd(k)).map(|(k, _)| k.to_string()).collect();
        for key in stale {
            labels.remove(&key);
        }
        for (k, v) in feature_discovery::labels(machine).iter() {
            labels.insert(k, v);
        }
        if labels != object.metadata.labels {
            let mut updated = object.clone();
            updated.metadata.labels = labels;
            let caller = store.act_as(UserInfo::service_account("gpu-operator", "gpu-feature-discovery"));
            let _ = store.update(updated);
            store.act_as(caller);
        }
        let dra = dra_driver_installed(store);
        publish_slice(store, node, dra.then_some(machine));
        let Some(object) = store.try_get::<Node>("", node) else { return };
        // With the DRA driver in its place, the device plugin advertises nothing.
        let devices = if dra { Vec::new() } else { device_plugin::devices(machine) };
        let capacity = device_plugin::capacity(&devices);
        let mut status = object.status.clone();
        for list in [&mut status.capacity, &mut status.allocatable] {
            list.retain(|name, _| !name.starts_with("nvidia.com/"));
            for (name, count) in &capacity {
                list.insert(name.clone(), Quantity::from_int(*count, Format::DecimalSI));
            }
        }
        if status != object.status {
            let mut updated = object.clone();
            updated.status = status;
            let caller = store.act_as(UserInfo::node(node));
            let _ = store.update_status(updated);
            store.act_as(caller);
        }
    }
}

/// Whether the `nvidia-dra-driver` add-on is installed (its `gpu.nvidia.com` DeviceClass is
/// there): its kubelet plugin then publishes the GPUs as ResourceSlices.
pub fn dra_driver_installed(store: &Store) -> bool {
    let class = store.try_get::<DeviceClass>("", dra_driver::GPU_CLASS);
    class.is_some_and(|c| c.metadata.labels.get(crate::addons::ADDON_LABEL).is_some())
}

/// The driver's slice for the node, written where it differs; `None` removes it.
fn publish_slice(store: &mut Store, node: &str, machine: Option<&GpuMachine>) {
    let existing = store
        .list::<ResourceSlice>(None)
        .find(|s| s.spec.driver == dra_driver::DRIVER && s.node() == Some(node))
        .cloned();
    let wanted = match (machine, store.try_get::<Node>("", node)) {
        (Some(machine), Some(object)) => Some(dra_driver::slice(object, machine)),
        _ => None,
    };
    let caller =
        store.act_as(UserInfo::service_account("nvidia-dra-driver-gpu", "nvidia-dra-driver-gpu-kubelet-plugin"));
    match (existing, wanted) {
        (None, Some(slice)) => {
            let _ = store.create(slice);
        }
        (Some(mut existing), Some(slice)) if existing.spec != slice.spec => {
            existing.spec = slice.spec;
            let _ = store.update(existing);
        }
        (Some(existing), None) => {
            let _ = store.delete::<ResourceSlice>("", &existing.metadata.name, &crate::store::DeleteOptions::default());
        }
        _ => {}
    }
    store.act_as(caller);
}

/// The memory one device gives a container, in MiB.
fn device_memory_mib(machine: &GpuMachine, device: &Device) -> u64 {
    let Some(gpu) = machine.gpus.get(device.gpu as usize) else { return 0 };
    let mig = device.gpu_instance.and_then(|id| gpu.mig_devices().into_iter().find(|m| m.gpu_instance.id == id));
    mig.map_or(gpu.model.memory_mib, |m| m.profile.memory_mib)
}

/// The operator's own namespace, where its config lives (created with the first GPU node).
fn ensure_namespace(store: &mut Store) {
    if store.try_get::<Namespace>("", plugin_config::CONFIG_MAP_NAMESPACE).is_none() {
        let namespace =
            Namespace { metadata: ObjectMeta::named("", plugin_config::CONFIG_MAP_NAMESPACE), ..Default::default() };
        let caller = store.act_as(UserInfo::admin());
        let _ = store.create(namespace);
        store.act_as(caller);
    }
}

/// The MIG manager's answer on the node.
fn set_state(store: &mut Store, node: &str, state: &str) {
    set_labels(store, node, &[(MIG_CONFIG_STATE_LABEL, state)]);
}

/// Writes labels as the MIG manager, if any differs.
fn set_labels(store: &mut Store, node: &str, labels: &[(&str, &str)]) {
    let Some(object) = store.try_get::<Node>("", node) else { return };
    if labels.iter().all(|(k, v)| object.metadata.labels.get(k) == Some(*v)) {
        return;
    }
    let mut updated = object.clone();
    for (k, v) in labels {
        updated.metadata.labels.insert(*k, *v);
    }
    let caller = store.act_as(UserInfo::service_account("gpu-operator", "nvidia-mig-manager"));
    let _ = store.update(updated);
    store.act_as(caller);
}
