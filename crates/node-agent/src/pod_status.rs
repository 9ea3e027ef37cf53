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

#[cfg(test)]
mod tests {
    use super::*;
    use kubelab_core::kubelet::runtime::{ContainerPhase, Running, RuntimeContainer};
    use kubelab_core::sim::time::Duration;

    fn pod() -> Pod {
        serde_json::from_value(serde_json::json!({
            "metadata": {"name": "web", "namespace": "default", "uid": "00000000-0000-0000-0000-0000000000aa"},
            "spec": {"containers": [{"name": "web", "image": "hello:v1"}, {"name": "side", "image": "side:v1"}]},
            "status": {"conditions": [{"type": "PodScheduled", "status": "True", "lastTransitionTime": "2025-01-01T00:00:00Z"}]}
        }))
        .unwrap()
    }

    fn runtime(web: ContainerPhase, side: ContainerPhase) -> PodRuntime {
        PodRuntime {
            uid: pod().metadata.uid,
            node: "edge-1".into(),
            admitted_at: SimTime(0),
            pod_ip: "10.244.128.2".into(),
            init_containers: Vec::new(),
            containers: vec![
                RuntimeContainer::new("web", false, false, web),
                RuntimeContainer::new("side", false, false, side),
            ],
            terminating: false,
        }
    }

    fn running() -> ContainerPhase {
        ContainerPhase::Running(Running {
            started_at: SimTime(1000),
            container_id: "wasmtime://abc".into(),
            ends: None,
            stopping: None,
            hog_mib: 0,
            config_found: false,
        })
    }

    #[test]
    fn a_container_that_could_not_be_created_waits_with_the_runtimes_reason() {
        let rt = runtime(running(), ContainerPhase::Creating { ready_at: SimTime(20_000) });
        let waiting =
            Waiting::from([("side".to_string(), ("CreateContainerError".to_string(), "no such module".to_string()))]);
        let status = build(&pod(), &rt, SimTime(2000), "192.168.1.20", &waiting);
        assert_eq!(status.phase.as_deref(), Some("Pending"));
        assert_eq!((status.host_ip.as_deref(), status.pod_ip.as_deref()), (Some("192.168.1.20"), Some("10.244.128.2")));
        let types: Vec<(&str, &str)> =
            status.conditions.iter().map(|c| (c.type_.as_str(), c.status.as_str())).collect();
        assert_eq!(
            types,
            [
                ("PodReadyToStartContainers", "True"),
                ("Initialized", "True"),
                ("Ready", "False"),
                ("ContainersReady", "False"),
                ("PodScheduled", "True")
            ]
        );
        assert_eq!(status.conditions[2].message.as_deref(), Some("containers with unready status: [side]"));
        let side = &status.container_statuses[1];
        let waiting = side.state.waiting.as_ref().unwrap();
        assert_eq!(
            (waiting.reason.as_deref(), waiting.message.as_deref()),
            (Some("CreateContainerError"), Some("no such module"))
        );
        let web = &status.container_statuses[0];
        assert!(web.ready && web.state.running.is_some());
        assert_eq!(web.container_id.as_deref(), Some("wasmtime://abc"));
    }

    #[test]
    fn a_crashed_container_waits_in_crash_loop_back_off_with_upstreams_message() {
        let mut rt = runtime(ContainerPhase::Exited { restart_at: Some(SimTime(20_000)) }, running());
        let web = &mut rt.containers[0];
        web.crash_backoff.next(SimTime(10_000), SimTime(10_000));
        web.restart_count = 1;
        web.last_terminated = Some(kubelab_core::api::pod::ContainerStateTerminated {
            exit_code: 1,
            reason: Some("Error".into()),
            ..Default::default()
        });
        let status = build(&pod(), &rt, SimTime(10_000).plus(Duration::from_secs(1)), "192.168.1.20", &Waiting::new());
        assert_eq!(status.phase.as_deref(), Some("Running"));
        let web = &status.container_statuses[0];
        let waiting = web.state.waiting.as_ref().unwrap();
        assert_eq!(waiting.reason.as_deref(), Some("CrashLoopBackOff"));
        assert_eq!(
            waiting.message.as_deref(),
            Some("back-off 10s restarting failed container=web pod=web_default(00000000-0000-0000-0000-0000000000aa)")
        );
        assert_eq!(web.last_state.terminated.as_ref().unwrap().exit_code, 1);
        assert_eq!(web.restart_count, 1);
    }
}
