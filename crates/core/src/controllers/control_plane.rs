//! The control plane's processes as things that can stop: etcd, kube-apiserver,
//! kube-scheduler and kube-controller-manager. Which ones run decides which of the pass's loops
//! take their turn (each loop says which process runs it) and what kubectl answers; it is part of
//! the lab's state like a powered-off node, changed only by commands (`sim/control_plane.rs`), so
//! replays see the same outage.

use super::ControllerName;
use crate::store::etcd_snapshot::EtcdSnapshot;
use std::collections::BTreeMap;

/// One of the control plane's processes (kubeadm's static pods on the control-plane node).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Component {
    Etcd,
    ApiServer,
    Scheduler,
    ControllerManager,
}

impl Component {
    /// Every component, as `lab` verbs name them.
    pub const ALL: [Component; 4] =
        [Component::Etcd, Component::ApiServer, Component::Scheduler, Component::ControllerManager];

    /// The word a lab verb names it by.
    pub fn as_str(self) -> &'static str {
        match self {
            Component::Etcd => "etcd",
            Component::ApiServer => "apiserver",
            Component::Scheduler => "scheduler",
            Component::ControllerManager => "controller-manager",
        }
    }

    /// Its static pod's name before the node's (`kubeadm/manifests/static-pods.yaml`).
    pub fn static_pod(self) -> &'static str {
        match self {
            Component::Etcd => "etcd",
            Component::ApiServer => "kube-apiserver",
            Component::Scheduler => "kube-scheduler",
            Component::ControllerManager => "kube-controller-manager",
        }
    }
}

/// The server kubectl's kubeconfig names (the address `kubectl -v=6` logs, `kubectl/verbosity.rs`).
pub const SERVER_ADDRESS: &str = "127.0.0.1:6443";

/// kube-apiserver's `--request-timeout` (genericapiserver's `RequestTimeout`, 60 s): how long a
/// request that waits on a stopped etcd hangs before the API server gives up on it.
pub const REQUEST_TIMEOUT_SECONDS: u64 = 60;

/// What kubectl prints once the API server gives up on a request etcd never answered.
///
/// With etcd's process gone, the API server's etcd client waits for a connection
/// (`WaitForReady`) until the request's context ends at `--request-timeout`; the timeout filter
/// (apiserver pkg/server/filters/timeout.go, `WithTimeoutForNonLongRunningRequests`) answers
/// first with `apierrors.NewTimeoutError("request did not complete within the allotted
/// timeout", 0)`, a 504 whose Status kubectl prints as `Error from server (Timeout): …`. The
/// better-known `etcdserver: request timed out` comes from a running etcd that cannot commit
/// (a lost quorum, a slow disk), not from one that is stopped, so it is not what is modelled.
pub const ETCD_TIMEOUT_ERROR: &str =
    "Error from server (Timeout): Timeout: request did not complete within the allotted timeout";

/// The same answer as the API server sends it to any client: the 504 `Status`.
pub fn etcd_timeout_status() -> serde_json::Value {
    let message = ETCD_TIMEOUT_ERROR.trim_start_matches("Error from server (Timeout): ");
    serde_json::json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
        "message": message, "reason": "Timeout", "details": {}, "code": 504})
}

/// Which components run (all of them, in a new lab), and the etcd snapshots saved on the
/// control-plane node, by the path each was saved at.
#[derive(Clone, Debug, Default)]
pub struct ControlPlane {
    stopped: [bool; 4],
    snapshots: BTreeMap<String, EtcdSnapshot>,
}

impl ControlPlane {
    pub fn is_running(&self, component: Component) -> bool {
        !self.stopped[component as usize]
    }

    /// Sets whether it runs; false when it already was as asked.
    pub fn set_running(&mut self, component: Component, running: bool) -> bool {
        let changed = self.stopped[component as usize] == running;
        self.stopped[component as usize] = !running;
        changed
    }

    /// Keeps `snapshot` at `path` on the control-plane node, replacing what was there.
    pub fn save_snapshot(&mut self, path: &str, snapshot: EtcdSnapshot) -> &EtcdSnapshot {
        self.snapshots.insert(path.to_string(), snapshot);
        &self.snapshots[path]
    }

    /// The snapshot saved at `path`, if one was.
    pub fn snapshot(&self, path: &str) -> Option<&EtcdSnapshot> {
        self.snapshots.get(path)
    }

    /// Whether requests reach storage: the API server answers and etcd behind it.
    pub fn api_available(&self) -> bool {
        self.is_running(Component::Etcd) && self.is_running(Component::ApiServer)
    }

    /// Whether a loop of the pass takes its turn. Every one of them talks to the API server,
    /// so none runs while it (or etcd behind it) is down: the kubelets keep their containers
    /// as they are but cannot report, renew or learn of anything. The scheduler and the
    /// controller manager's loops also stop with their own process; the add-ons' controllers
    /// and kube-proxy run in pods of their own.
    pub fn runs(&self, controller: ControllerName) -> bool {
        self.api_available()
            && match controller {
                ControllerName::Scheduler => self.is_running(Component::Scheduler),
                name => !in_controller_manager(name) || self.is_running(Component::ControllerManager),
            }
    }
}

/// What etcdctl prints when no endpoint answers (its dial timeout passed).
pub const ETCDCTL_UNREACHABLE: &str = "Error: context deadline exceeded";

/// kube-controller-manager's controllers (cmd/kube-controller-manager/app/controller_descriptor.go).
fn in_controller_manager(name: ControllerName) -> bool {
    // Exhaustive, so a new loop has to say which process runs it.
    match name {
        ControllerName::GarbageCollector
        | ControllerName::Namespace
        | ControllerName::ResourceQuota
        | ControllerName::Deployment
        | ControllerName::ReplicaSet
        | ControllerName::DaemonSet
        | ControllerName::StatefulSet
        | ControllerName::CronJob
        | ControllerName::Job
        | ControllerName::TtlAfterFinished
        | ControllerName::ResourceClaim
        | ControllerName::PersistentVolume
        | ControllerName::NodeLifecycle
        | ControllerName::TaintEviction
        | ControllerName::Disruption
        | ControllerName::EndpointSlice
        | ControllerName::HorizontalPodAutoscaler
        | ControllerName::ClusterRoleAggregation
        | ControllerName::ServiceAccount
        | ControllerName::RootCaCertPublisher => true,
        ControllerName::Scheduler
        | ControllerName::Kubelet
        | ControllerName::Aggregator
        | ControllerName::GpuOperator
        | ControllerName::KubeProxy
        | ControllerName::IngressNginx
        | ControllerName::MetalLb
        | ControllerName::NginxGateway
        | ControllerName::PodGroup => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_stopped_component_stops_its_own_loops_and_etcd_stops_them_all() {
        let mut plane = ControlPlane::default();
        assert!(ControllerName::PASS.iter().all(|&name| plane.runs(name)));
        assert!(plane.set_running(Component::Scheduler, false));
        assert!(!plane.set_running(Component::Scheduler, false));
        assert!(!plane.runs(ControllerName::Scheduler));
        assert!(plane.runs(ControllerName::ReplicaSet) && plane.runs(ControllerName::Kubelet));
        plane.set_running(Component::Scheduler, true);
        plane.set_running(Component::ControllerManager, false);
        assert!(!plane.runs(ControllerName::ReplicaSet) && !plane.runs(ControllerName::NodeLifecycle));
        assert!(plane.runs(ControllerName::Scheduler) && plane.runs(ControllerName::Kubelet));
        plane.set_running(Component::ControllerManager, true);
        plane.set_running(Component::Etcd, false);
        assert!(ControllerName::PASS.iter().all(|&name| !plane.runs(name)));
    }
}
