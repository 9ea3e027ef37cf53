//! metrics-server (sigs.k8s.io/metrics-server, the `metrics.k8s.io` PodMetrics): each running
//! pod's CPU and memory, from the workload model and the request load. `kubectl top` and the
//! HPA controller read these same numbers.

pub mod api_service;
pub mod demand;
pub mod load;

use crate::api::{Node, Pod};
use crate::kubelet::Kubelet;
use crate::kubelet::node_server::NodeServer;
use crate::metrics::demand::{Demand, PodDemands};
use crate::sim::time::{Duration, SimTime};
use crate::store::Store;

/// metrics-server's resolution: usage is a rate over the last scrape interval.
pub const METRIC_WINDOW: Duration = Duration::from_secs(15);

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContainerMetrics {
    pub name: String,
    pub cpu_millicores: u64,
    pub memory_bytes: u64,
}

/// One PodMetrics object: when it was taken, over what window, per container.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PodMetrics {
    pub timestamp: SimTime,
    pub window: Duration,
    pub containers: Vec<ContainerMetrics>,
}

impl PodMetrics {
    pub fn cpu_millicores(&self) -> u64 {
        self.containers.iter().map(|c| c.cpu_millicores).sum()
    }
}

/// A pod's metrics at `now`, as its node's kubelet reports them (`/stats`), or `None` while any
/// of its containers is not running (metrics-server reports only pods it could scrape whole).
/// Requests are served by the first container, and usage set directly (`lab usage`) is its
/// usage; a container's CPU never exceeds its limit (the kernel throttles it there).
pub fn pod_metrics(now: SimTime, node: &NodeServer<'_>, pod: &Pod, demand: Demand) -> Option<PodMetrics> {
    let containers = (0..pod.spec.containers.len()).map(|i| container_metrics(now, node, pod, i, demand));
    let containers = containers.collect::<Option<Vec<_>>>()?;
    Some(PodMetrics { timestamp: now, window: METRIC_WINDOW, containers })
}

/// What each running container of a pod uses at `now` (the kubelet's summary of the pod,
/// `/stats/summary`): a container that is not running uses nothing and is left out.
pub fn running_containers(now: SimTime, node: &NodeServer<'_>, pod: &Pod, demand: Demand) -> Vec<ContainerMetrics> {
    (0..pod.spec.containers.len()).filter_map(|i| container_metrics(now, node, pod, i, demand)).collect()
}

/// The use of the pod's `index`th container at `now`, or `None` while it is not running.
fn container_metrics(
    now: SimTime,
    node: &NodeServer<'_>,
    pod: &Pod,
    index: usize,
    demand: Demand,
) -> Option<ContainerMetrics> {
    let spec = &pod.spec.containers[index];
    let (started_at, hog_mib, image) = node.running_usage(pod, &spec.name)?;
    let since_start = now.since(started_at);
    let workload = &image.workload;
    let rps = if index == 0 { demand.requests_per_second } else { 0 };
    let set = if index == 0 { demand.set } else { Default::default() };
    let mut cpu_millicores = set.cpu_millicores.unwrap_or_else(|| workload.cpu_millicores(since_start, rps));
    if let Some(limit) = spec.resources.limits.get("cpu") {
        cpu_millicores = cpu_millicores.min(limit.milli_value().max(0) as u64);
    }
    let memory_bytes = set
        .memory_bytes
        .unwrap_or_else(|| workload.memory_bytes(since_start, hog_mib) + workload.load_memory_bytes(rps));
    Some(ContainerMetrics { name: spec.name.clone(), cpu_millicores, memory_bytes })
}

/// What a node's kubelet, container runtime and system daemons use besides its pods.
pub const NODE_SYSTEM_MILLICORES: u64 = 60;
pub const NODE_SYSTEM_MEMORY_BYTES: u64 = 420 * 1024 * 1024;

/// A node's use at `now` (NodeMetrics; the node's working set in its kubelet's summary, from
/// which the eviction manager derives `memory.available`): its system daemons plus every
/// running container of `pods`, the pods bound to it. Millicores and bytes.
pub fn node_usage<'p>(
    now: SimTime,
    node: &NodeServer<'_>,
    pods: impl IntoIterator<Item = &'p Pod>,
    demands: &PodDemands,
) -> (u64, u64) {
    let containers = pods.into_iter().flat_map(|pod| {
        let demand = demands.of(&pod.metadata.namespace, &pod.metadata.name);
        running_containers(now, node, pod, demand)
    });
    node_total(containers)
}

/// `node_usage` from its pods' running containers' use, already measured.
pub fn node_total(containers: impl IntoIterator<Item = ContainerMetrics>) -> (u64, u64) {
    let (mut millicores, mut bytes) = (NODE_SYSTEM_MILLICORES, NODE_SYSTEM_MEMORY_BYTES);
    for container in containers {
        millicores += container.cpu_millicores;
        bytes += container.memory_bytes;
    }
    (millicores, bytes)
}

/// metrics-server's scrape of one pod: its node's kubelet, asked at the store's time.
pub fn scrape(store: &Store, kubelet: &Kubelet, pod: &Pod, demand: Demand) -> Option<PodMetrics> {
    let node = store.try_get::<Node>("", pod.node_name()?)?;
    pod_metrics(store.now(), &kubelet.node_server(node, store.now()), pod, demand)
}
