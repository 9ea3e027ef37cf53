//! metrics-server (sigs.k8s.io/metrics-server, the `metrics.k8s.io` PodMetrics): each running
//! pod's CPU and memory, from the workload model and the request load. `kubectl top` and the
//! HPA controller read these same numbers.

pub mod api_service;
pub mod demand;
pub mod load;

use crate::api::{Node, Pod};
use crate::kubelet::Kubelet;
use crate::kubelet::node_server::NodeServer;
use crate::metrics::demand::Demand;
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
    let mut containers = Vec::new();
    for (i, spec) in pod.spec.containers.iter().enumerate() {
        let process = node.running_container(pod, &spec.name)?;
        let since_start = now.since(process.started_at);
        let workload = &process.image.workload;
        let rps = if i == 0 { demand.requests_per_second } else { 0 };
        let set = if i == 0 { demand.set } else { Default::default() };
        let mut cpu_millicores = set.cpu_millicores.unwrap_or_else(|| workload.cpu_millicores(since_start, rps));
        if let Some(limit) = spec.resources.limits.get("cpu") {
            cpu_millicores = cpu_millicores.min(limit.milli_value().max(0) as u64);
        }
        let memory_bytes = set
            .memory_bytes
            .unwrap_or_else(|| workload.memory_bytes(since_start, process.hog_mib) + workload.load_memory_bytes(rps));
        containers.push(ContainerMetrics { name: spec.name.clone(), cpu_millicores, memory_bytes });
    }
    Some(PodMetrics { timestamp: now, window: METRIC_WINDOW, containers })
}

/// metrics-server's scrape of one pod: its node's kubelet, asked at the store's time.
pub fn scrape(store: &Store, kubelet: &Kubelet, pod: &Pod, demand: Demand) -> Option<PodMetrics> {
    let node = store.try_get::<Node>("", pod.node_name()?)?;
    pod_metrics(store.now(), &kubelet.node_server(node, store.now()), pod, demand)
}
