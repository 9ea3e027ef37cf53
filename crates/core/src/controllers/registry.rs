//! The controllers a pass visits, by name and in order: kube-controller-manager's list of
//! controllers (`NewControllerDescriptors`), plus the scheduler and the kubelets, which run as
//! their own processes upstream but take their turns here in the same loop.

use crate::store::UserInfo;
use std::sync::Arc;

/// One loop of the control plane, named as upstream names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ControllerName {
    GarbageCollector,
    Namespace,
    ResourceQuota,
    Deployment,
    ReplicaSet,
    DaemonSet,
    StatefulSet,
    CronJob,
    Job,
    TtlAfterFinished,
    ResourceClaim,
    PersistentVolume,
    Scheduler,
    Kubelet,
    GpuOperator,
    NodeLifecycle,
    TaintEviction,
    Disruption,
    EndpointSlice,
    KubeProxy,
    IngressNginx,
    MetalLb,
    NginxGateway,
    HorizontalPodAutoscaler,
    PodGroup,
    ClusterRoleAggregation,
    ServiceAccount,
    RootCaCertPublisher,
    Aggregator,
}

impl ControllerName {
    /// The order of a pass: owners are collected before their dependents are reconciled, and
    /// pods are created before they are scheduled and started.
    pub const PASS: [ControllerName; 29] = [
        ControllerName::GarbageCollector,
        ControllerName::Namespace,
        // Before the workload controllers: a new namespace's `default` account exists by the
        // time its first pods are admitted, as upstream's controller (and the admission
        // plugin's live lookup) make it.
        ControllerName::ServiceAccount,
        // Likewise: a new namespace's pods mount its `kube-root-ca.crt`.
        ControllerName::RootCaCertPublisher,
        // Before the workload controllers, so a pod deleted in this instant frees its quota
        // before its ReplicaSet tries to replace it.
        ControllerName::ResourceQuota,
        ControllerName::Deployment,
        ControllerName::ReplicaSet,
        ControllerName::DaemonSet,
        // Before the scheduler and the kubelets: a new member is bound and started in the pass
        // that makes it.
        ControllerName::StatefulSet,
        // A CronJob's new Job gets its pods, and they their node, in the same pass.
        ControllerName::CronJob,
        ControllerName::Job,
        ControllerName::TtlAfterFinished,
        ControllerName::ResourceClaim,
        // Before the scheduler: a claim bound now is one a pod may be placed with in this pass.
        ControllerName::PersistentVolume,
        ControllerName::Scheduler,
        ControllerName::Kubelet,
        ControllerName::GpuOperator,
        ControllerName::NodeLifecycle,
        ControllerName::TaintEviction,
        // After the kubelets: a budget counts the readiness they reported in the same pass.
        ControllerName::Disruption,
        ControllerName::EndpointSlice,
        // After the endpoints and before the HPA: an APIService's availability follows its
        // Service's ready endpoints in the same pass, and the HPA reads metrics through it.
        ControllerName::Aggregator,
        ControllerName::KubeProxy,
        ControllerName::IngressNginx,
        ControllerName::MetalLb,
        ControllerName::NginxGateway,
        ControllerName::HorizontalPodAutoscaler,
        ControllerName::PodGroup,
        ControllerName::ClusterRoleAggregation,
    ];

    /// Upstream's name for it (`--controllers` names; the scheduler's and kubelet's components).
    pub fn as_str(self) -> &'static str {
        match self {
            ControllerName::GarbageCollector => "garbage-collector-controller",
            ControllerName::Namespace => "namespace-controller",
            ControllerName::ResourceQuota => "resourcequota-controller",
            ControllerName::Deployment => "deployment-controller",
            ControllerName::ReplicaSet => "replicaset-controller",
            ControllerName::DaemonSet => "daemonset-controller",
            ControllerName::StatefulSet => "statefulset-controller",
            ControllerName::CronJob => "cronjob-controller",
            ControllerName::Job => "job-controller",
            ControllerName::TtlAfterFinished => "ttl-after-finished-controller",
            ControllerName::ResourceClaim => "resourceclaim-controller",
            ControllerName::PersistentVolume => "persistentvolume-binder-controller",
            ControllerName::Scheduler => "default-scheduler",
            ControllerName::Kubelet => "kubelet",
            ControllerName::GpuOperator => "gpu-operator",
            ControllerName::NodeLifecycle => "node-lifecycle-controller",
            ControllerName::TaintEviction => "taint-eviction-controller",
            ControllerName::Disruption => "disruption-controller",
            ControllerName::EndpointSlice => "endpointslice-controller",
            ControllerName::KubeProxy => "kube-proxy",
            ControllerName::IngressNginx => "nginx-ingress-controller",
            ControllerName::MetalLb => "metallb-controller",
            ControllerName::NginxGateway => "nginx-gateway-fabric",
            ControllerName::HorizontalPodAutoscaler => "horizontal-pod-autoscaler-controller",
            ControllerName::PodGroup => "podgroup-controller",
            ControllerName::ClusterRoleAggregation => "clusterrole-aggregation-controller",
            ControllerName::ServiceAccount => "serviceaccount-controller",
            ControllerName::RootCaCertPublisher => "root-ca-certificate-publisher-controller",
            ControllerName::Aggregator => "kube-aggregator",
        }
    }

    /// The user its writes are made as: kube-controller-manager's controllers each under their
    /// own service account in kube-system (kubeadm runs it with
    /// `--use-service-account-credentials`), the scheduler as `system:kube-scheduler`. `None`
    /// for the kubelets: each node's is its own user (`system:node:<name>`), set per node.
    pub fn user(self) -> Option<Arc<UserInfo>> {
        let account = match self {
            ControllerName::GarbageCollector => "generic-garbage-collector",
            ControllerName::Namespace => "namespace-controller",
            ControllerName::ResourceQuota => "resourcequota-controller",
            ControllerName::Deployment => "deployment-controller",
            ControllerName::ReplicaSet => "replicaset-controller",
            ControllerName::DaemonSet => "daemon-set-controller",
            ControllerName::StatefulSet => "statefulset-controller",
            ControllerName::CronJob => "cronjob-controller",
            ControllerName::Job => "job-controller",
            ControllerName::TtlAfterFinished => "ttl-after-finished-controller",
            ControllerName::ResourceClaim => "resource-claim-controller",
            ControllerName::NodeLifecycle => "node-controller",
            ControllerName::TaintEviction => "taint-eviction-controller",
            ControllerName::Disruption => "disruption-controller",
            ControllerName::EndpointSlice => "endpointslice-controller",
            ControllerName::HorizontalPodAutoscaler => "horizontal-pod-autoscaler",
            // scheduler-plugins' controller manager, installed with the coscheduling add-on.
            ControllerName::PodGroup => "scheduler-plugins-controller",
            ControllerName::ClusterRoleAggregation => crate::store::rbac::aggregation::SERVICE_ACCOUNT,
            ControllerName::ServiceAccount => super::service_account::SERVICE_ACCOUNT,
            ControllerName::RootCaCertPublisher => super::root_ca_publisher::SERVICE_ACCOUNT,
            ControllerName::Scheduler => return Some(UserInfo::scheduler()),
            ControllerName::Kubelet => return None,
            // kube-apiserver's own loops write through its loopback client.
            ControllerName::Aggregator => return Some(UserInfo::apiserver()),
            // Reads Services and EndpointSlices, writes nothing.
            ControllerName::KubeProxy => return None,
            // The ingress-nginx add-on's controller, under its own service account.
            ControllerName::IngressNginx => return Some(UserInfo::service_account("ingress-nginx", "ingress-nginx")),
            ControllerName::MetalLb => return Some(UserInfo::service_account("metallb-system", "controller")),
            ControllerName::NginxGateway => return Some(UserInfo::service_account("nginx-gateway", "nginx-gateway")),
            // The binder, the protection controllers and the local-path provisioner each write
            // as their own service account (`controllers/persistent_volume/`).
            ControllerName::PersistentVolume => return None,
            // Its parts write as their own service accounts (`gpu/operator.rs`).
            ControllerName::GpuOperator => return None,
        };
        Some(UserInfo::controller(account))
    }

    /// Units of work (Deployments, ReplicaSets, pods) it may do in one turn before the pass
    /// moves on; what is left waits for the next pass. Upstream's controllers run side by side
    /// and each informer hears every event as it happens; here one controller working through
    /// 15,000 pods in one turn would let the others fall more than the watch log's 65,536
    /// events behind, and each would then relist the whole cluster. At these shares a pass
    /// writes well under that, and a lesson-sized cluster never reaches them. The others' sync
    /// is one unit.
    pub fn turn_share(self) -> usize {
        match self {
            ControllerName::Deployment => 256,
            ControllerName::ReplicaSet => 24,
            ControllerName::Scheduler | ControllerName::Kubelet => 2048,
            _ => usize::MAX,
        }
    }
}

impl std::fmt::Display for ControllerName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
