//! The node grid of a big cluster: one cell per node (readiness, pods bound, pods running,
//! its pod capacity), kept current the way an informer keeps its cache: one full list, then
//! only the watch log's changes since the resourceVersion it last saw. A redraw of a
//! 150,000-pod cluster then costs what changed since the last one, not a count of every pod.
//! When the log no longer reaches back it lists again (client-go's relist after `410 Gone`).

use crate::api::Kind;
use crate::api::node::Node;
use crate::api::pod::Pod;
use crate::runtime::informer::{Changes, Informer};
use crate::sim::Sim;
use crate::store::Store;
use crate::store::watch::WatchEvent;
use std::collections::{BTreeSet, HashMap};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeCell {
    pub name: String,
    pub ready: bool,
    pub schedulable: bool,
    pub pods: u32,
    pub running: u32,
    /// The node's allocatable pod count (the fill bar's whole).
    pub capacity: u32,
}

impl NodeCell {
    /// How full the node is, 0.0–1.0 of its pod capacity.
    pub fn fill(&self) -> f64 {
        if self.capacity == 0 { 0.0 } else { (f64::from(self.pods) / f64::from(self.capacity)).min(1.0) }
    }

    /// What hovering or clicking the cell says.
    pub fn describe(&self) -> String {
        let state = if self.ready { "Ready" } else { "NotReady" };
        let cordoned = if self.schedulable { "" } else { ", SchedulingDisabled" };
        format!("{}: {state}{cordoned}, {} pods ({} running) of {}", self.name, self.pods, self.running, self.capacity)
    }
}

/// Every node in name order with its pod counts, listed afresh (`GridInformer` keeps them
/// current for a live lab).
pub fn cells(sim: &Sim) -> Vec<NodeCell> {
    GridInformer::default().cells(sim).to_vec()
}

/// A node's cell, before its pods are counted.
fn cell(node: &Node) -> NodeCell {
    let capacity = node.status.allocatable.get("pods").map_or(0, |q| q.value().max(0));
    NodeCell {
        name: node.metadata.name.clone(),
        ready: node.condition("Ready").is_some_and(|c| c.status == "True"),
        schedulable: node.spec.unschedulable != Some(true),
        pods: 0,
        running: 0,
        capacity: u32::try_from(capacity).unwrap_or(u32::MAX),
    }
}

#[derive(Default)]
pub struct GridInformer {
    /// How far the cells follow the store's watch log; `None` before the first list.
    informer: Option<Informer>,
    cells: Vec<NodeCell>,
    /// Node name → its cell.
    index: HashMap<String, usize>,
    /// Each pod counted in a cell, by namespace and name: the cell and whether it runs.
    pods: HashMap<(String, String), (usize, bool)>,
}

impl GridInformer {
    /// Every node in name order with its pod counts, as of the lab now.
    pub fn cells(&mut self, sim: &Sim) -> &[NodeCell] {
        let store = sim.store();
        // A store older than what the cells show is an earlier moment of the timeline: list.
        let informer = self.informer.take().filter(|i| i.resource_version() <= store.resource_version());
        let mut informer = match informer {
            Some(mut informer) => {
                let current = match informer.poll(store) {
                    Changes::Events(changes) => self.catch_up(store, changes),
                    Changes::Relist => false,
                };
                if !current {
                    self.relist(store);
                }
                informer
            }
            None => {
                self.relist(store);
                Informer::default()
            }
        };
        informer.listed(store);
        self.informer = Some(informer);
        &self.cells
    }

    /// Applies the changes; false when a node came or went (the grid's layout changes: list
    /// again).
    fn catch_up<'s>(&mut self, store: &'s Store, changes: impl Iterator<Item = &'s WatchEvent>) -> bool {
        let (mut nodes, mut pods) = (BTreeSet::new(), BTreeSet::new());
        for change in changes {
            match change.kind {
                Kind::Node => nodes.insert(change.name.as_str()),
                Kind::Pod => pods.insert((change.namespace.as_str(), change.name.as_str())),
                _ => false,
            };
        }
        for name in nodes {
            let (Some(&at), Some(node)) = (self.index.get(name), store.try_get::<Node>("", name)) else {
                return false;
            };
            let (pods, running) = (self.cells[at].pods, self.cells[at].running);
            self.cells[at] = NodeCell { pods, running, ..cell(node) };
        }
        for (namespace, name) in pods {
            self.count(namespace, name, store.try_get::<Pod>(namespace, name));
        }
        true
    }

    fn relist(&mut self, store: &Store) {
        self.cells = store.list::<Node>(None).map(cell).collect();
        self.cells.sort_by(|a, b| a.name.cmp(&b.name));
        self.index = self.cells.iter().enumerate().map(|(at, c)| (c.name.clone(), at)).collect();
        self.pods.clear();
        for pod in store.list::<Pod>(None) {
            self.count(&pod.metadata.namespace, &pod.metadata.name, Some(pod));
        }
    }

    /// Moves one pod's share of the counts to where it is now (nowhere when gone or unbound).
    fn count(&mut self, namespace: &str, name: &str, pod: Option<&Pod>) {
        let key = (namespace.to_string(), name.to_string());
        if let Some((at, running)) = self.pods.remove(&key) {
            self.cells[at].pods -= 1;
            self.cells[at].running -= u32::from(running);
        }
        let Some(pod) = pod else { return };
        let Some(&at) = pod.spec.node_name.as_deref().and_then(|node| self.index.get(node)) else { return };
        let running = pod.phase() == "Running";
        self.cells[at].pods += 1;
        self.cells[at].running += u32::from(running);
        self.pods.insert(key, (at, running));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kubectl::fixture::run;
    use crate::sim::Sim;

    /// After every command the kept cells equal a fresh count, through scheduling, a node
    /// powered off and its pods evicted, deletions and a cordon.
    #[test]
    fn kept_cells_match_a_fresh_list() {
        let nodes = (1..=12).map(|i| crate::cluster::NodeTemplate::named(&format!("node-{i:02}"))).collect();
        let mut sim = Sim::new(1, &crate::cluster::ClusterSpec::workers_only(nodes));
        let mut kept = GridInformer::default();
        let script = [
            "kubectl create deployment web --image=hello:v1 --replicas=30",
            "sleep 20s",
            "kubectl cordon node-03",
            "lab node power-off node-02",
            "sleep 6m",
            "kubectl scale deployment web --replicas=7",
            "sleep 30s",
            "kubectl delete deployment web",
            "sleep 1m",
        ];
        for line in script {
            run(&mut sim, line);
            assert_eq!(kept.cells(&sim), cells(&sim), "after {line}");
            if line == "sleep 6m" {
                let gone = &kept.cells(&sim)[1];
                assert!(gone.name == "node-02" && !gone.ready, "{gone:?}");
                // Its pods stay on it, Terminating, while their replacements run elsewhere.
                let running: u32 = kept.cells(&sim).iter().map(|c| c.running).sum();
                assert_eq!(running, 30 + kept.cells(&sim)[1].running);
            }
        }
        // Only the pods of the machine that is off are left: nothing confirms they stopped.
        let cells = kept.cells(&sim).to_vec();
        let counted: u32 = cells.iter().map(|c| c.pods).sum();
        assert_eq!(counted, cells[1].pods, "{cells:?}");
    }

    #[test]
    fn a_cell_says_what_it_shows() {
        let cell =
            NodeCell { name: "node-1".into(), ready: true, schedulable: false, pods: 55, running: 50, capacity: 110 };
        assert_eq!(cell.describe(), "node-1: Ready, SchedulingDisabled, 55 pods (50 running) of 110");
        assert_eq!(cell.fill(), 0.5);
    }
}
