//! What the eviction manager reads each time it looks at a node: the kubelet's summary of it
//! (pkg/kubelet/server/stats `SummaryProvider`): the node's memory capacity and working set,
//! and each active pod's running containers' working sets. The figures are metrics-server's
//! (`metrics::running_containers`, summed as `metrics::node_usage` sums them), so `kubectl top` shows the same.

use super::signals::Observation;
use crate::api::{Node, Pod};
use crate::kubelet::Kubelet;
use crate::metrics;
use crate::store::Store;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

type Key = (String, String);

/// One node's summary.
pub(super) struct NodeSummary {
    pub observation: Observation,
    /// The pods the manager may evict: running here, not stopping, not finished.
    pub active: Vec<PodSummary>,
}

pub(super) struct PodSummary {
    pub key: Key,
    pub pod: Arc<Pod>,
    /// Each running container's working set, in bytes.
    pub containers: Vec<(String, u64)>,
}

impl PodSummary {
    pub fn memory_bytes(&self) -> u64 {
        self.containers.iter().map(|(_, bytes)| bytes).sum()
    }
}

/// A pod this kubelet runs on a node being summarized; `active` when the manager may evict it.
struct RunningPod {
    key: Key,
    pod: Arc<Pod>,
    active: bool,
}

impl Kubelet {
    /// The summaries of `nodes`, in one pass over the pods this kubelet runs.
    pub(super) fn summarize(&self, store: &Store, nodes: &BTreeSet<String>) -> BTreeMap<String, NodeSummary> {
        let mut pods_by_node = self.pods_on(store, nodes);
        let demands = self.load.demands(store);
        let now = store.now();
        let mut summaries = BTreeMap::new();
        for name in nodes {
            let Some(node) = store.try_get::<Node>("", name) else { continue };
            let server = self.node_server(node, now);
            let mut measured = Vec::new();
            for RunningPod { key, pod, active } in pods_by_node.remove(name).unwrap_or_default() {
                let running = metrics::running_containers(now, &server, &pod, demands.of(&key.0, &key.1));
                measured.push((PodSummary { key, pod, containers: Vec::new() }, running, active));
            }
            let all = measured.iter().flat_map(|(_, running, _)| running.iter().cloned());
            let (_, working_set) = metrics::node_total(all);
            let capacity = node.status.capacity.get("memory").map_or(0, |q| q.value());
            let active = measured.into_iter().filter(|(.., active)| *active).map(|(mut summary, running, _)| {
                summary.containers = running.into_iter().map(|c| (c.name, c.memory_bytes)).collect();
                summary
            });
            let observation = Observation::memory_available(capacity, working_set);
            summaries.insert(name.clone(), NodeSummary { observation, active: active.collect() });
        }
        summaries
    }

    /// The pods this kubelet runs on each of `nodes`, by node.
    fn pods_on(&self, store: &Store, nodes: &BTreeSet<String>) -> BTreeMap<String, Vec<RunningPod>> {
        let mut by_node: BTreeMap<String, Vec<RunningPod>> = BTreeMap::new();
        for (key, runtime) in self.pods.iter().filter(|(_, rt)| nodes.contains(&rt.node)) {
            let Some(pod) = store.try_get_shared::<Pod>(&key.0, &key.1) else { continue };
            let active = !runtime.terminating
                && pod.metadata.uid == runtime.uid
                && !matches!(pod.phase(), "Succeeded" | "Failed")
                && self.eviction.evicting(key, pod.metadata.uid).is_none();
            by_node.entry(runtime.node.clone()).or_default().push(RunningPod { key: key.clone(), pod, active });
        }
        by_node
    }
}
