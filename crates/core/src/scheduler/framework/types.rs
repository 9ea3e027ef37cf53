//! The scheduler's resource arithmetic and per-node state: `Resource`, `NodeInfo` and a pod's
//! requests. Mirrors pkg/scheduler/framework/types.go and component-helpers' `resource.PodRequests`.

use crate::api::Pod;
use crate::api::affinity::PodAffinity;
use crate::api::container::{Container, ResourceList};
use crate::api::node::Taint;
use crate::api::string_map::StringMap;
use crate::scheduler::framework::node_images::NodeImages;
use crate::scheduler::framework::scalar_name::ScalarResources;
use std::collections::BTreeSet;
use std::sync::Arc;

/// `DefaultMilliCPURequest`: what a container without a cpu request counts as when scoring.
pub const DEFAULT_MILLI_CPU_REQUEST: i64 = 100;
/// `DefaultMemoryRequest`: 200Mi, for a container without a memory request when scoring.
pub const DEFAULT_MEMORY_REQUEST: i64 = 200 * 1024 * 1024;

/// A pod's identity in the scheduler: (namespace, name).
pub type PodKey = (String, String);

/// How many score plugins a profile has (a decision keeps one score per plugin per node).
pub const SCORE_PLUGINS: usize = 7;

/// Amounts of compute resources, in the units upstream keeps them: millicores, bytes, counts.
/// Scalar (extended) resources are kept sorted by name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resource {
    pub milli_cpu: i64,
    pub memory: i64,
    pub ephemeral_storage: i64,
    pub allowed_pod_number: i64,
    pub scalar_resources: ScalarResources,
}

/// Upstream `IsScalarResourceName`: extended (`example.com/foo`), hugepages and attachable volumes.
pub fn is_scalar_resource_name(name: &str) -> bool {
    name.contains('/') || name.starts_with("hugepages-") || name.starts_with("attachable-volumes-")
}

impl Resource {
    /// Upstream `NewResource`: the sum of a resource list.
    pub fn from_list(list: &ResourceList) -> Resource {
        let mut resource = Resource::default();
        resource.add_list(list);
        resource
    }

    pub fn add_list(&mut self, list: &ResourceList) {
        for (name, quantity) in list {
            match name.as_str() {
                "cpu" => self.milli_cpu = self.milli_cpu.saturating_add(quantity.milli_value()),
                "memory" => self.memory = self.memory.saturating_add(quantity.value()),
                "pods" => self.allowed_pod_number = self.allowed_pod_number.saturating_add(quantity.value()),
                "ephemeral-storage" => self.ephemeral_storage = self.ephemeral_storage.saturating_add(quantity.value()),
                other if is_scalar_resource_name(other) => self.add_scalar(other, quantity.value()),
                _ => {}
            }
        }
    }

    pub fn scalar(&self, name: &str) -> i64 {
        self.scalar_resources.get(name)
    }

    pub fn add_scalar(&mut self, name: &str, amount: i64) {
        let value = self.scalar_resources.entry(name);
        *value = value.saturating_add(amount);
    }

    /// `self += other` (pods count included).
    pub fn add(&mut self, other: &Resource) {
        self.milli_cpu = self.milli_cpu.saturating_add(other.milli_cpu);
        self.memory = self.memory.saturating_add(other.memory);
        self.ephemeral_storage = self.ephemeral_storage.saturating_add(other.ephemeral_storage);
        self.allowed_pod_number = self.allowed_pod_number.saturating_add(other.allowed_pod_number);
        for (name, amount) in other.scalar_resources.iter() {
            let value = self.scalar_resources.entry_for(name);
            *value = value.saturating_add(amount);
        }
    }

    /// `self -= other`.
    pub fn sub(&mut self, other: &Resource) {
        self.milli_cpu = self.milli_cpu.saturating_sub(other.milli_cpu);
        self.memory = self.memory.saturating_sub(other.memory);
        self.ephemeral_storage = self.ephemeral_storage.saturating_sub(other.ephemeral_storage);
        self.allowed_pod_number = self.allowed_pod_number.saturating_sub(other.allowed_pod_number);
        for (name, amount) in other.scalar_resources.iter() {
            let value = self.scalar_resources.entry_for(name);
            *value = value.saturating_sub(amount);
        }
    }

    /// Upstream `SetMaxResource`: the larger of each amount.
    pub fn set_max(&mut self, other: &Resource) {
        self.milli_cpu = self.milli_cpu.max(other.milli_cpu);
        self.memory = self.memory.max(other.memory);
        self.ephemeral_storage = self.ephemeral_storage.max(other.ephemeral_storage);
        for (name, amount) in other.scalar_resources.iter() {
            let value = self.scalar_resources.entry_for(name);
            *value = (*value).max(amount);
        }
    }

    pub fn is_zero(&self) -> bool {
        self.milli_cpu == 0 && self.memory == 0 && self.ephemeral_storage == 0 && self.scalar_resources.all_zero()
    }
}

/// What a pod asks of a node: upstream `resource.PodRequests` (max of the containers' sum and the
/// init containers' peak, sidecars adding to both, plus overhead), and the same with 100m/200Mi
/// standing in for missing cpu/memory requests (the `NonZeroRequested` used for scoring).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PodRequests {
    pub requests: Resource,
    pub non_zero_milli_cpu: i64,
    pub non_zero_memory: i64,
}

impl PodRequests {
    pub fn of(pod: &Pod) -> PodRequests {
        let requests = pod_requests(pod, false);
        let non_zero = pod_requests(pod, true);
        PodRequests { requests, non_zero_milli_cpu: non_zero.milli_cpu, non_zero_memory: non_zero.memory }
    }
}

fn container_requests(container: &Container, non_missing: bool) -> Resource {
    let list = &container.resources.requests;
    let mut resource = Resource::from_list(list);
    if non_missing {
        if !list.contains_key("cpu") {
            resource.milli_cpu = DEFAULT_MILLI_CPU_REQUEST;
        }
        if !list.contains_key("memory") {
            resource.memory = DEFAULT_MEMORY_REQUEST;
        }
    }
    resource
}

fn pod_requests(pod: &Pod, non_missing: bool) -> Resource {
    let mut requests = Resource::default();
    for container in pod.spec.containers.iter() {
        requests.add(&container_requests(container, non_missing));
    }
    let mut restartable = Resource::default();
    let mut init_peak = Resource::default();
    for container in pod.spec.init_containers.iter() {
        let own = container_requests(container, non_missing);
        if container.restart_policy.as_deref() == Some("Always") {
            // A sidecar keeps running: it adds to the pod's sum and to every later init step.
            requests.add(&own);
            restartable.add(&own);
            init_peak.set_max(&restartable);
        } else {
            let mut step = own;
            step.add(&restartable);
            init_peak.set_max(&step);
        }
    }
    requests.set_max(&init_peak);
    if let Some(overhead) = &pod.spec.overhead {
        requests.add_list(overhead);
    }
    requests.allowed_pod_number = 0;
    requests
}

/// Upstream `normalizedImageName`: `:latest` when the image has no tag or digest.
pub fn normalized_image_name(image: &str) -> String {
    let last_segment = image.rsplit('/').next().unwrap_or(image);
    if last_segment.contains(':') || image.contains('@') { image.to_string() } else { format!("{image}:latest") }
}

/// The cached view of one node: its schedulable attributes and what its assigned pods request.
#[derive(Clone, Debug)]
pub struct NodeInfo {
    pub name: Arc<str>,
    pub labels: StringMap,
    pub taints: Vec<Taint>,
    pub unschedulable: bool,
    pub allocatable: Resource,
    pub requested: Resource,
    pub non_zero_requested: Resource,
    /// Assigned, non-terminal pods (terminating ones included until they are gone).
    pub pods: BTreeSet<PodKey>,
    /// The images its pods use (ids from `Cache::image_id`).
    pub images: NodeImages,
    /// How many of this node's pods have (anti-)affinity terms of any kind.
    pub pods_with_affinity: u32,
    /// How many of this node's pods have required anti-affinity terms.
    pub pods_with_required_anti_affinity: u32,
}

impl NodeInfo {
    pub fn new(node: &crate::api::Node) -> NodeInfo {
        NodeInfo {
            name: Arc::from(node.metadata.name.as_str()),
            labels: node.metadata.labels.clone(),
            taints: node.spec.taints.clone(),
            unschedulable: node.spec.unschedulable.unwrap_or(false),
            allocatable: Resource::from_list(&node.status.allocatable),
            requested: Resource::default(),
            non_zero_requested: Resource::default(),
            pods: BTreeSet::new(),
            images: NodeImages::default(),
            pods_with_affinity: 0,
            pods_with_required_anti_affinity: 0,
        }
    }

    pub fn pod_count(&self) -> usize {
        self.pods.len()
    }
}

/// The node names in node order, shared by every decision taken while the node set is the same.
pub type NodeNames = Arc<[Arc<str>]>;

/// The pod's (required or preferred) pod affinity, if any.
pub fn pod_affinity(pod: &Pod) -> Option<&PodAffinity> {
    pod.spec.affinity.as_ref()?.pod_affinity.as_ref()
}

/// The pod's (required or preferred) pod anti-affinity, if any.
pub fn pod_anti_affinity(pod: &Pod) -> Option<&PodAffinity> {
    pod.spec.affinity.as_ref()?.pod_anti_affinity.as_ref()
}

/// Required anti-affinity terms (upstream `PodsWithRequiredAntiAffinity`: the cache keeps such
/// pods apart, since every incoming pod must be checked against them).
pub fn has_required_anti_affinity(pod: &Pod) -> bool {
    pod_anti_affinity(pod).is_some_and(|a| !a.required_during_scheduling_ignored_during_execution.is_empty())
}

/// Any affinity or anti-affinity term at all (upstream `PodsWithAffinity`).
pub fn has_any_affinity(pod: &Pod) -> bool {
    pod_affinity(pod).is_some() || pod_anti_affinity(pod).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::quantity::Quantity;
    use crate::api::shared::Shared;

    fn container(cpu: &str, memory: &str, restart_policy: Option<&str>) -> Container {
        let mut c =
            Container { name: "c".into(), restart_policy: restart_policy.map(str::to_string), ..Default::default() };
        c.resources.requests.insert("cpu".into(), Quantity::parse(cpu).unwrap());
        c.resources.requests.insert("memory".into(), Quantity::parse(memory).unwrap());
        c
    }

    #[test]
    fn pod_requests_take_the_larger_of_containers_and_init_containers() {
        let mut pod = Pod::default();
        pod.spec.containers = Shared::new(vec![container("100m", "64Mi", None), container("200m", "64Mi", None)]);
        pod.spec.init_containers = Shared::new(vec![container("500m", "32Mi", None)]);
        let r = PodRequests::of(&pod).requests;
        assert_eq!((r.milli_cpu, r.memory), (500, 128 << 20));
    }

    #[test]
    fn sidecars_add_to_the_sum_and_to_later_init_steps() {
        let mut pod = Pod::default();
        pod.spec.containers = Shared::new(vec![container("100m", "64Mi", None)]);
        pod.spec.init_containers =
            Shared::new(vec![container("50m", "16Mi", Some("Always")), container("400m", "16Mi", None)]);
        let r = PodRequests::of(&pod).requests;
        // containers 100m + sidecar 50m = 150m; init step 400m + sidecar 50m = 450m.
        assert_eq!(r.milli_cpu, 450);
        assert_eq!(r.memory, 80 << 20);
    }

    #[test]
    fn requestless_containers_count_as_100m_and_200mi_for_scoring() {
        let mut pod = Pod::default();
        pod.spec.containers = Shared::new(vec![Container { name: "c".into(), ..Default::default() }]);
        let r = PodRequests::of(&pod);
        assert!(r.requests.is_zero());
        assert_eq!((r.non_zero_milli_cpu, r.non_zero_memory), (100, 200 << 20));
    }
}
