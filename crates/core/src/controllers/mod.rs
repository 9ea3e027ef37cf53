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
pub mod api_service_availability;
pub mod autoregister;
pub mod control_plane;
pub mod controlled_revisions;
pub mod cron_job;
pub mod daemon_set;
pub mod deployment;
pub mod disruption;
pub mod endpoint_slice;
pub mod garbage_collector;
pub mod history;
pub mod horizontal_pod_autoscaler;
pub mod job;
pub mod namespace;
pub mod node_lifecycle;
pub mod persistent_volume;
pub mod pod_group;
pub mod registry;
pub mod replica_set;
pub mod resource_claim;
pub mod resource_quota;
pub mod root_ca_publisher;
pub mod service_account;
pub mod stateful_set;
pub mod taint_eviction;
pub mod ttl_after_finished;

use crate::metrics::load::LoadTable;
use crate::runtime::work_queue::QueueWorker;
use crate::sim::time::SimTime;
use crate::store::{Store, UserInfo};
pub use registry::ControllerName;
use std::sync::Arc;

/// Every controller the simulation runs, in the order each pass visits them.
#[derive(Clone, Debug, Default)]
pub struct Controllers {
    pub garbage_collector: garbage_collector::GarbageCollector,
    pub namespace: namespace::NamespaceController,
    pub resource_quota: resource_quota::ResourceQuotaController,
    pub replica_set: replica_set::ReplicaSetController,
    pub daemon_set: daemon_set::DaemonSetsController,
    pub deployment: deployment::DeploymentController,
    pub stateful_set: stateful_set::StatefulSetController,
    pub cron_job: cron_job::CronJobController,
    pub job: job::JobController,
    /// Deletes finished Jobs once their ttlSecondsAfterFinished has passed.
    pub ttl_after_finished: ttl_after_finished::TtlAfterFinishedController,
    /// Claims for pods from ResourceClaimTemplates, and their release (DRA).
    pub resource_claim: resource_claim::ResourceClaimController,
    /// Claims bound to volumes, the local-path provisioner, and the protection finalizers.
    pub persistent_volume: persistent_volume::PersistentVolumeController,
    pub scheduler: crate::scheduler::Scheduler,
    /// The simulated kubelets of every node (not a controller upstream, but the same loop shape).
    pub kubelet: crate::kubelet::Kubelet,
    /// The GPU Operator's node-side parts on every GPU node (feature discovery, device plugin,
    /// MIG manager).
    pub gpu_operator: crate::gpu::GpuOperator,
    pub node_lifecycle: node_lifecycle::NodeLifecycleController,
    pub endpoint_slice: endpoint_slice::EndpointSliceController,
    /// Every node's kube-proxy: the Service rules each has programmed, over time.
    pub kube_proxy: crate::network::KubeProxy,
    /// ingress-nginx's controller (with its add-on): Ingress status, and its round robin.
    pub ingress_nginx: crate::network::ingress_status::IngressController,
    /// MetalLB's controller (with its add-on): LoadBalancer addresses.
    pub metallb: crate::network::load_balancer::LoadBalancerController,
    /// NGINX Gateway Fabric (with the gateway-api add-on): Gateway API status.
    pub nginx_gateway: crate::network::gateway_status::GatewayController,
    pub taint_eviction: taint_eviction::TaintEvictionController,
    /// Every PodDisruptionBudget's status.
    pub disruption: disruption::DisruptionController,
    pub horizontal_pod_autoscaler: horizontal_pod_autoscaler::HorizontalController,
    /// scheduler-plugins' PodGroup status (with the coscheduling add-on).
    pub pod_group: pod_group::PodGroupController,
    /// Every active namespace's `default` ServiceAccount.
    pub service_account: service_account::ServiceAccountController,
    /// The RBAC generation the ClusterRole aggregation controller last synced at.
    pub cluster_role_aggregation: u64,
    /// Which control-plane processes run: a loop whose process (or API) is down skips its turn.
    pub control_plane: control_plane::ControlPlane,
    /// Where a pass cut short by its budget stopped (`run_some`).
    stopped: Option<StoppedPass>,
    /// Each controller's share of a pass (`turn_share`); tests shrink them.
    shares: TurnShares,
    /// Each controller's user (`ControllerName::user`), made once.
    users: TurnUsers,
}

#[derive(Clone, Debug)]
struct TurnUsers([Option<Arc<UserInfo>>; CONTROLLERS]);

impl Default for TurnUsers {
    fn default() -> Self {
        TurnUsers(ControllerName::PASS.map(ControllerName::user))
    }
}

#[derive(Clone, Debug)]
pub(crate) struct TurnShares([usize; CONTROLLERS]);

impl Default for TurnShares {
    fn default() -> Self {
        TurnShares(ControllerName::PASS.map(ControllerName::turn_share))
    }
}

/// A pass cut short: the controller it stopped at (its place in `ControllerName::PASS`), the work that controller has done in this
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
const CONTROLLERS: usize = ControllerName::PASS.len();

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
        // Each controller writes as its own user; whoever called is the user again afterwards.
        let caller = store.user().clone();
        let wrote = self.run_turns(store, load, budget);
        store.act_as(caller);
        wrote
    }

    fn run_turns(&mut self, store: &mut Store, load: &LoadTable, budget: &mut usize) -> Option<bool> {
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
        if !self.control_plane.runs(ControllerName::PASS[at.controller]) {
            return Turn::Done { backlog: false };
        }
        let share = self.shares.0[at.controller];
        let mut allowed = (*budget).min(share - at.used);
        let before = allowed;
        let turn_start = at.used == 0;
        if let Some(user) = &self.users.0[at.controller] {
            store.act_as(user.clone());
        }
        let finished = match ControllerName::PASS[at.controller] {
            ControllerName::Deployment => self.deployment.sync_some(store, &mut allowed, turn_start),
            ControllerName::ReplicaSet => self.replica_set.sync_some(store, &mut allowed, turn_start),
            ControllerName::Scheduler => self.scheduler.sync_some(store, &mut allowed),
            ControllerName::Kubelet => {
                self.kubelet.set_load(load);
                self.kubelet.sync_some(store, &mut allowed, turn_start)
            }
            name => {
                self.sync_whole(name, store, load);
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
    fn sync_whole(&mut self, name: ControllerName, store: &mut Store, load: &LoadTable) {
        match name {
            ControllerName::GarbageCollector => self.garbage_collector.sync(store),
            ControllerName::Namespace => self.namespace.sync(store),
            ControllerName::ResourceQuota => self.resource_quota.sync(store),
            ControllerName::ResourceClaim => self.resource_claim.sync(store),
            ControllerName::DaemonSet => QueueWorker::sync(&mut self.daemon_set, store),
            ControllerName::PersistentVolume => {
                self.persistent_volume.sync(store);
                self.kubelet.disks.collect_garbage(store);
            }
            ControllerName::StatefulSet => QueueWorker::sync(&mut self.stateful_set, store),
            ControllerName::CronJob => QueueWorker::sync(&mut self.cron_job, store),
            ControllerName::Job => self.job.sync(store),
            ControllerName::TtlAfterFinished => self.ttl_after_finished.sync(store),
            ControllerName::GpuOperator => {
                self.gpu_operator.sync(store);
                self.gpu_operator.hand_over_devices(&mut self.kubelet.devices);
            }
            ControllerName::NodeLifecycle => self.node_lifecycle.sync(store),
            ControllerName::TaintEviction => self.taint_eviction.sync(store),
            ControllerName::Disruption => self.disruption.sync(store),
            ControllerName::EndpointSlice => self.endpoint_slice.sync(store),
            ControllerName::KubeProxy => self.kube_proxy.sync(store),
            ControllerName::IngressNginx => self.ingress_nginx.sync(store),
            ControllerName::MetalLb => self.metallb.sync(store),
            ControllerName::NginxGateway => self.nginx_gateway.sync(store),
            ControllerName::HorizontalPodAutoscaler => self.horizontal_pod_autoscaler.sync(store, &self.kubelet, load),
            ControllerName::PodGroup => self.pod_group.sync(store),
            ControllerName::ServiceAccount => self.service_account.sync(store),
            ControllerName::RootCaCertPublisher => root_ca_publisher::publish(store),
            ControllerName::Aggregator => {
                autoregister::sync(store);
                api_service_availability::sync(store);
            }
            ControllerName::ClusterRoleAggregation => {
                crate::store::rbac::aggregation::sync_if_changed(store, &mut self.cluster_role_aggregation)
            }
            // Sliced: `take_turn` runs them a share at a time.
            ControllerName::Deployment
            | ControllerName::ReplicaSet
            | ControllerName::Scheduler
            | ControllerName::Kubelet => {}
        }
    }

    /// How often each reader of the watch log had to list everything again because it fell
    /// further behind than the log reaches (client-go's relist after `410 Gone`). The namespace
    /// controller lists terminating namespaces on every pass and keeps no position.
    pub fn relists(&self) -> Vec<(ControllerName, u64)> {
        let informers = [
            (ControllerName::GarbageCollector, &self.garbage_collector.informer),
            (ControllerName::ResourceQuota, &self.resource_quota.informer),
            (ControllerName::Deployment, &self.deployment.informer),
            (ControllerName::ReplicaSet, &self.replica_set.informer),
            (ControllerName::DaemonSet, &self.daemon_set.informer),
            (ControllerName::StatefulSet, &self.stateful_set.informer),
            (ControllerName::CronJob, &self.cron_job.informer),
            (ControllerName::Job, &self.job.informer),
            (ControllerName::TtlAfterFinished, &self.ttl_after_finished.informer),
            (ControllerName::ResourceClaim, &self.resource_claim.informer),
            (ControllerName::PersistentVolume, &self.persistent_volume.informer),
            (ControllerName::Scheduler, &self.scheduler.informer),
            (ControllerName::Kubelet, &self.kubelet.informer),
            (ControllerName::GpuOperator, &self.gpu_operator.informer),
            (ControllerName::NodeLifecycle, &self.node_lifecycle.informer),
            (ControllerName::TaintEviction, &self.taint_eviction.informer),
            (ControllerName::Disruption, &self.disruption.informer),
            (ControllerName::EndpointSlice, &self.endpoint_slice.informer),
            (ControllerName::KubeProxy, &self.kube_proxy.informer),
            (ControllerName::IngressNginx, &self.ingress_nginx.informer),
            (ControllerName::MetalLb, &self.metallb.informer),
            (ControllerName::NginxGateway, &self.nginx_gateway.informer),
            (ControllerName::HorizontalPodAutoscaler, &self.horizontal_pod_autoscaler.informer),
        ];
        informers.into_iter().map(|(name, informer)| (name, informer.relists())).collect()
    }

    /// The earliest time any controller wants to run again without being told of a change.
    pub fn next_wake(&self) -> Option<SimTime> {
        let wakes = [
            (ControllerName::ReplicaSet, self.replica_set.next_wake()),
            (ControllerName::Deployment, self.deployment.next_wake()),
            (ControllerName::DaemonSet, self.daemon_set.next_wake()),
            (ControllerName::StatefulSet, self.stateful_set.next_wake()),
            (ControllerName::CronJob, self.cron_job.next_wake()),
            (ControllerName::Job, self.job.next_wake()),
            (ControllerName::TtlAfterFinished, self.ttl_after_finished.next_wake()),
            (ControllerName::PersistentVolume, self.persistent_volume.next_wake()),
            (ControllerName::Scheduler, self.scheduler.next_wake()),
            (ControllerName::Kubelet, self.kubelet.next_wake()),
            (ControllerName::GpuOperator, self.gpu_operator.next_wake()),
            (ControllerName::NodeLifecycle, self.node_lifecycle.next_wake()),
            (ControllerName::TaintEviction, self.taint_eviction.next_wake()),
            (ControllerName::Disruption, self.disruption.next_wake()),
            (ControllerName::HorizontalPodAutoscaler, self.horizontal_pod_autoscaler.next_wake()),
        ];
        // A stopped loop's deadlines wait for its process: they are due again when it starts.
        wakes.into_iter().filter(|(name, _)| self.control_plane.runs(*name)).filter_map(|(_, wake)| wake).min()
    }
}
