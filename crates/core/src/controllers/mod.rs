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
}

impl Controllers {
    /// One pass over every controller; returns true if any of them wrote to the store. `load` is
    /// the request load the metrics (and so the HPA) see.
    pub fn run_once(&mut self, store: &mut Store, load: &LoadTable) -> bool {
        let before = store.resource_version();
        self.garbage_collector.sync(store);
        self.namespace.sync(store);
        self.deployment.sync(store);
        self.replica_set.sync(store);
        self.scheduler.sync(store);
        self.kubelet.sync(store);
        self.node_lifecycle.sync(store, &self.kubelet);
        self.taint_eviction.sync(store);
        self.endpoint_slice.sync(store);
        self.horizontal_pod_autoscaler.sync(store, &self.kubelet, load);
        store.resource_version() != before
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
