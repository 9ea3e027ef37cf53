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
pub mod work_queue;

use crate::metrics::load::LoadTable;
use crate::sim::time::SimTime;
use crate::store::Store;
use work_queue::QueueWorker;

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
    /// Each controller's share of a pass (`turn_share`); tests shrink them.
    shares: TurnShares,
}

#[derive(Clone, Debug)]
pub(crate) struct TurnShares([usize; CONTROLLERS]);

impl Default for TurnShares {
    fn default() -> Self {
        TurnShares(std::array::from_fn(turn_share))
    }
}

/// A pass cut short: the controller it stopped at, the work that controller has done in this
/// turn, whether an earlier turn left work for the next pass, and the store's resourceVersion
/// when the pass began (to tell whether the whole pass wrote anything).
#[derive(Clone, Copy, Debug)]
struct StoppedPass {
    controller: usize,
    used: usize,
    backlog: bool,
    resource_version: u64,
}

/// How many controllers a pass visits.
const CONTROLLERS: usize = 10;

/// Units of work (Deployments, ReplicaSets, pods) one controller may do in a turn before the
/// pass moves on; what is left waits for the next pass. Upstream's controllers run side by side
/// and each informer hears every event as it happens; here one controller working through
/// 15,000 pods in one turn would let the others fall more than the watch log's 65,536 events
/// behind, and each would then relist the whole cluster. At these shares a pass writes well
/// under that, and a lesson-sized cluster never reaches them.
fn turn_share(controller: usize) -> usize {
    match controller {
        2 => 256,
        3 => 24,
        4 | 5 => 2048,
        _ => usize::MAX,
    }
}

/// How a controller's turn ended.
enum Turn {
    /// It did what it had (or its share of it: `backlog`).
    Done { backlog: bool },
    /// The budget ran out first; the next call resumes this turn.
    CutShort,
}

impl Controllers {
    /// One pass over every controller; returns true if any of them wrote to the store (or left
    /// work for the next pass). `load` is the request load the metrics (and so the HPA) see.
    pub fn run_once(&mut self, store: &mut Store, load: &LoadTable) -> bool {
        let mut unlimited = usize::MAX;
        self.run_some(store, load, &mut unlimited).unwrap_or(true)
    }

    /// One pass within a budget of work: each controller's sync costs one, except the Deployment
    /// and ReplicaSet controllers' (one per object), the scheduler's and the kubelet's (one per
    /// pod): on a big cluster they are most of a pass. `None` when the budget ran out first; the
    /// next call goes on where this one stopped, so a pass in parts does exactly what one pass
    /// does. Otherwise whether the pass wrote to the store or left work (`turn_share`).
    pub fn run_some(&mut self, store: &mut Store, load: &LoadTable, budget: &mut usize) -> Option<bool> {
        let start = StoppedPass { controller: 0, used: 0, backlog: false, resource_version: store.resource_version() };
        let mut at = self.stopped.take().unwrap_or(start);
        while at.controller < CONTROLLERS {
            if *budget == 0 {
                self.stopped = Some(at);
                return None;
            }
            match self.take_turn(&mut at, store, load, budget) {
                Turn::CutShort => {
                    self.stopped = Some(at);
                    return None;
                }
                Turn::Done { backlog } => {
                    at.backlog |= backlog;
                    at.controller += 1;
                    at.used = 0;
                }
            }
        }
        Some(at.backlog || store.resource_version() != at.resource_version)
    }

    /// Runs (part of) the current controller's turn within its share and the budget.
    fn take_turn(&mut self, at: &mut StoppedPass, store: &mut Store, load: &LoadTable, budget: &mut usize) -> Turn {
        let share = self.shares.0[at.controller];
        let mut allowed = (*budget).min(share - at.used);
        let before = allowed;
        let turn_start = at.used == 0;
        let finished = match at.controller {
            2 => self.deployment.sync_some(store, &mut allowed, turn_start),
            3 => self.replica_set.sync_some(store, &mut allowed, turn_start),
            4 => self.scheduler.sync_some(store, &mut allowed),
            5 => self.kubelet.sync_some(store, &mut allowed, turn_start),
            index => {
                self.sync_whole(index, store, load);
                allowed -= 1;
                true
            }
        };
        let spent = before - allowed;
        *budget -= spent;
        at.used += spent;
        match (finished, at.used >= share) {
            (true, _) => Turn::Done { backlog: false },
            (false, true) => Turn::Done { backlog: true },
            (false, false) => Turn::CutShort,
        }
    }

    /// Caps every sliced controller's turn at `units` (tests: a small cluster that reaches the
    /// shares).
    #[cfg(test)]
    pub(crate) fn limit_turns(&mut self, units: usize) {
        for share in &mut self.shares.0 {
            *share = (*share).min(units);
        }
    }

    /// The controllers whose sync is one unit of work.
    fn sync_whole(&mut self, index: usize, store: &mut Store, load: &LoadTable) {
        match index {
            0 => self.garbage_collector.sync(store),
            1 => self.namespace.sync(store),
            6 => self.node_lifecycle.sync(store, &self.kubelet),
            7 => self.taint_eviction.sync(store),
            8 => self.endpoint_slice.sync(store),
            _ => self.horizontal_pod_autoscaler.sync(store, &self.kubelet, load),
        }
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
