//! The pod status this kubelet writes (pkg/kubelet/kubelet_pods.go `generateAPIPodStatus`,
//! pkg/kubelet/status): the simulation's own builder over the same runtime view — phase,
//! conditions, container states, restart counts — plus what only a real node knows (its host
//! IP, a container that failed to be created or started), written as a merge patch of
//! `pods/NAME/status` as the status manager patches it.

use crate::client::{ApiClient, ApiError};
use kubelab_core::api::Pod;
use kubelab_core::api::pod::{ContainerStateWaiting, PodStatus};
use kubelab_core::kubelet::runtime::PodRuntime;
use kubelab_core::sim::time::SimTime;
use std::collections::BTreeMap;

/// Why a container waits, where the runtime view has no word for it
/// (`CreateContainerError`, `RunContainerError`): its reason and message, by container.
pub type Waiting = BTreeMap<String, (String, String)>;

/// The status of `pod` as `runtime` holds it at `now`, on the node at `host_ip`.
pub fn build(pod: &Pod, runtime: &PodRuntime, now: SimTime, host_ip: &str, waiting: &Waiting) -> PodStatus {
    let mut status = kubelab_core::kubelet::status::pod_status(pod, runtime, now);
    status.host_ip = Some(host_ip.to_string());
    for container in status.init_container_statuses.iter_mut().chain(status.container_statuses.iter_mut()) {
        if let (Some((reason, message)), Some(_)) = (waiting.get(&container.name), &container.state.waiting) {
            let message = Some(message.clone());
            container.state.waiting = Some(ContainerStateWaiting { reason: Some(reason.clone()), message });
        }
    }
    status
}

/// PATCH pods/NAME/status with the whole status.
pub async fn post(client: &ApiClient, pod: &Pod, status: &PodStatus) -> Result<(), ApiError> {
    let path = format!("/api/v1/namespaces/{}/pods/{}/status", pod.metadata.namespace, pod.metadata.name);
    client.merge_patch(&path, &serde_json::json!({"status": status})).await.map(|_| ())
}

/// Upstream `rejectPod`'s status: Failed, with the reason and "Pod was rejected: …".
pub fn rejected(reason: &str, message: &str) -> serde_json::Value {
    serde_json::json!({"status": {"phase": "Failed", "reason": reason, "message": format!("Pod was rejected: {message}")}})
}
