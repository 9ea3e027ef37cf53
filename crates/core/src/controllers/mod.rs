//! Controllers: level-triggered loops that read the store and write through it. Each keeps a
//! cursor into the watch log (its informer) and is told *that* something changed, never why.
//!
//! The contract every controller keeps:
//! - `sync(&mut self, store)` does what is due now (`store.now()`) for the objects that changed
//!   since its cursor and for the keys it asked to be woken for; it writes only through the store.
//! - `next_wake(&self)` says when it next has something to do with no further writes (a
//!   deadline, a back-off, a probe): the simulation sets a timer then. `None` means "only on
//!   change", so a quiet cluster costs nothing while virtual time passes.

pub mod active_pods;
pub mod deployment;
pub mod endpoint_slice;
pub mod garbage_collector;
pub mod horizontal_pod_autoscaler;
pub mod namespace;
pub mod node_lifecycle;
pub mod replica_set;
pub mod taint_eviction;
pub mod wakeups;

use crate::metrics::load::LoadTable;
use crate::sim::time::SimTime;
use crate::store::Store;

/// Every controller the simulation runs, in the order each pass visits them.
#[derive(Clone, Debug, Default)]
pub struct Controllers {
    pub garbage_collector: garbage_collector::GarbageCollector,
    pub namespace: namespace::NamespaceController,
    pub replica_set: replica_set::ReplicaSetController,
    pub deployment: deployment::DeploymentController,
    pub scheduler: crate::scheduler::Scheduler,
    /// The simulated kubelets of every node (not a controller upstream, but the same loop shape).
    pub kubelet: crate::kubelet::Kubelet,
    pub node_lifecycle: node_lifecycle::NodeLifecycleController,
    pub endpoint_slice: endpoint_slice::EndpointSliceController,
    pub taint_eviction: taint_eviction::TaintEvictionController,
    pub horizontal_pod_autoscaler: horizontal_pod_autoscaler::HorizontalController,
    /// Where a pass cut short by its budget stopped (`run_some`).
    stopped: Option<StoppedPass>,
}

/// A pass cut short: the controller it stopped at, and the store's resourceVersion when the
/// pass began (to tell whether the whole pass wrote anything).
#[derive(Clone, Copy, Debug)]
struct StoppedPass {
    controller: usize,
    resource_version: u64,
}

/// How many controllers a pass visits.
const CONTROLLERS: usize = 10;

impl Controllers {
    /// One pass over every controller; returns true if any of them wrote to the store. `load` is
    /// the request load the metrics (and so the HPA) see.
    pub fn run_once(&mut self, store: &mut Store, load: &LoadTable) -> bool {
        let mut unlimited = usize::MAX;
        self.run_some(store, load, &mut unlimited).unwrap_or(true)
    }

    /// One pass within a budget of work: each controller's sync costs one, except the scheduler's
    /// and the kubelet's, which cost one per pod (on a big cluster they are most of a pass). `None` when the
    /// budget ran out first; the next call goes on where this one stopped, so a pass in parts
    /// does exactly what one pass does. Otherwise whether the pass wrote to the store.
    pub fn run_some(&mut self, store: &mut Store, load: &LoadTable, budget: &mut usize) -> Option<bool> {
        let start = StoppedPass { controller: 0, resource_version: store.resource_version() };
        let mut at = self.stopped.take().unwrap_or(start);
        while at.controller < CONTROLLERS {
            if *budget == 0 || !self.sync_one(at.controller, store, load, budget) {
                self.stopped = Some(at);
                return None;
            }
            at.controller += 1;
        }
        Some(store.resource_version() != at.resource_version)
    }

    /// Runs the `index`th controller of the pass; false when its sync was cut short.
    fn sync_one(&mut self, index: usize, store: &mut Store, load: &LoadTable, budget: &mut usize) -> bool {
        match index {
            0 => self.garbage_collector.sync(store),
            1 => self.namespace.sync(store),
            2 => self.deployment.sync(store),
            3 => self.replica_set.sync(store),
            4 => return self.scheduler.sync_some(store, budget),
            5 => return self.kubelet.sync_some(store, budget),
            6 => self.node_lifecycle.sync(store, &self.kubelet),
            7 => self.taint_eviction.sync(store),
            8 => self.endpoint_slice.sync(store),
            _ => self.horizontal_pod_autoscaler.sync(store, &self.kubelet, load),
        }
        *budget -= 1;
        true
    }

    /// The earliest time any controller wants to run again without being told of a change.
    pub fn next_wake(&self) -> Option<SimTime> {
        let wakes = [
            self.replica_set.next_wake(),
            self.deployment.next_wake(),
            self.scheduler.next_wake(),
            self.kubelet.next_wake(),
            self.node_lifecycle.next_wake(),
            self.taint_eviction.next_wake(),
            self.horizontal_pod_autoscaler.next_wake(),
        ];
        wakes.into_iter().flatten().min()
    }
}
