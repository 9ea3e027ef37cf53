//! Keeps the node grid's cells current the way an informer keeps its cache: one full list,
//! then only the watch log's changes since the resourceVersion it last saw. A redraw of a
//! 150,000-pod cluster then costs what changed since the last one, not a count of every pod.
//! When the log no longer reaches back it lists again (client-go's relist after
//! `410 Gone`).

use crate::node_grid::{NodeCell, cell};
use kubelab_core::api::Kind;
use kubelab_core::api::node::Node;
use kubelab_core::api::pod::Pod;
use kubelab_core::runtime::informer::{Changes, Informer};
use kubelab_core::store::Store;
use kubelab_core::store::watch::WatchEvent;
use std::collections::{BTreeSet, HashMap};

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
    /// Every node in name order with its pod counts, as of the store now.
    pub fn cells(&mut self, store: &Store) -> &[NodeCell] {
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
    use crate::lab_session::LabSession;
    use crate::node_grid::cells;

    /// After every command the kept cells equal a fresh count, through scheduling, a node
    /// powered off and its pods evicted, deletions, a cordon and a fork from the past.
    #[test]
    fn kept_cells_match_a_fresh_list() {
        let mut session = LabSession::sandbox_of(12);
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
            session.run(line);
            assert_eq!(session.grid_cells(), cells(session.lab().sim()), "after {line}");
            if line == "sleep 6m" {
                let gone = &session.grid_cells()[1];
                assert!(gone.name == "node-02" && !gone.ready, "{gone:?}");
                // Its pods stay on it, Terminating, while their replacements run elsewhere.
                let running: u32 = session.grid_cells().iter().map(|c| c.running).sum();
                assert_eq!(running, 30 + gone.running, "{gone:?}");
            }
        }
        session.scrub_to(2);
        assert_eq!(session.grid_cells(), cells(session.lab().sim()), "in the past");
        session.fork();
        session.run("kubectl scale deployment web --replicas=2");
        session.run("sleep 30s");
        assert_eq!(session.grid_cells(), cells(session.lab().sim()), "after the fork");
        let counted: u32 = session.grid_cells().iter().map(|c| c.pods).sum();
        assert_eq!(counted, 2);
    }
}
