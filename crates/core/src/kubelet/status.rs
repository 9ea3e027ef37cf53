//! The pod status the kubelet reports: phase, conditions and container statuses, from the
//! runtime's view. Mirrors pkg/kubelet/kubelet_pods.go (`generateAPIPodStatus`, `getPhase`)
//! and pkg/kubelet/status/generate.go (the Ready / ContainersReady / Initialized conditions).

use super::backoff::Backoff;
use super::runtime::{ContainerPhase, PodRuntime, RuntimeContainer};
use crate::api::Pod;
use crate::api::meta::Time;
use crate::api::pod::{
    ContainerState, ContainerStateRunning, ContainerStateWaiting, ContainerStatus, PodCondition, PodIp, PodStatus,
};
use crate::sim::time::SimTime;

pub fn pod_status(pod: &Pod, rt: &PodRuntime, now: SimTime) -> PodStatus {
    let init_statuses: Vec<ContainerStatus> = rt.init_containers.iter().map(|c| container_status(pod, c)).collect();
    let statuses: Vec<ContainerStatus> = rt.containers.iter().map(|c| container_status(pod, c)).collect();
    let mut status = PodStatus {
        phase: Some(phase(pod, rt).to_string()),
        host_ip: pod.status.host_ip.clone(),
        start_time: Some(Time(rt.admitted_at)),
        qos_class: pod.status.qos_class.clone(),
        nominated_node_name: pod.status.nominated_node_name.clone(),
        // Written by the resourceclaim controller; the kubelet keeps what it found.
        resource_claim_statuses: pod.status.resource_claim_statuses.clone(),
        ..Default::default()
    };
    let unready: Vec<&str> = statuses.iter().filter(|s| !s.ready).map(|s| s.name.as_str()).collect();
    let uninitialized: Vec<&str> = rt
        .init_containers
        .iter()
        .filter(|c| if c.sidecar { c.running().is_none() } else { !c.succeeded() })
        .map(|c| c.name.as_str())
        .collect();
    let sandbox_ready = rt.all().any(|c| !matches!(c.phase, ContainerPhase::Creating { .. } | ContainerPhase::Blocked))
        || now >= rt.admitted_at.plus(super::pod_worker::SANDBOX_SETUP);
    let mut conditions = vec![
        condition("PodReadyToStartContainers", sandbox_ready, None, ""),
        condition(
            "Initialized",
            uninitialized.is_empty(),
            Some("ContainersNotInitialized"),
            &incomplete(&uninitialized),
        ),
        condition(
            "Ready",
            unready.is_empty() && uninitialized.is_empty(),
            Some("ContainersNotReady"),
            &unready_message(&unready),
        ),
        condition("ContainersReady", unready.is_empty(), Some("ContainersNotReady"), &unready_message(&unready)),
    ];
    conditions.extend(pod.status.conditions.iter().filter(|c| c.type_ == "PodScheduled").cloned());
    for c in &mut conditions {
        let previous = pod.status.conditions.iter().find(|p| p.type_ == c.type_);
        c.last_transition_time = match previous {
            Some(p) if p.status == c.status => p.last_transition_time,
            _ => Some(Time(now)),
        };
    }
    status.conditions = conditions;
    if sandbox_ready {
        // The IP exists once the sandbox does (CNI ADD), not at admission.
        status.pod_ip = Some(rt.pod_ip.clone());
        status.pod_ips = vec![PodIp { ip: rt.pod_ip.clone() }];
    }
    status.init_container_statuses = init_statuses;
    status.container_statuses = statuses;
    status
}

fn condition(type_: &str, ok: bool, reason: Option<&str>, message: &str) -> PodCondition {
    PodCondition {
        type_: type_.to_string(),
        status: if ok { "True" } else { "False" }.to_string(),
        reason: (!ok).then(|| reason.map(str::to_string)).flatten(),
        message: (!ok && !message.is_empty()).then(|| message.to_string()),
        ..Default::default()
    }
}

fn incomplete(names: &[&str]) -> String {
    format!("containers with incomplete status: [{}]", names.join(" "))
}

fn unready_message(names: &[&str]) -> String {
    format!("containers with unready status: [{}]", names.join(" "))
}

/// Upstream `getPhase` for the regular containers (init containers keep a pod Pending).
fn phase(pod: &Pod, rt: &PodRuntime) -> &'static str {
    let policy = pod.spec.restart_policy.as_deref().unwrap_or("Always");
    let init_failed = rt.init_containers.iter().any(|c| {
        matches!(c.phase, ContainerPhase::Exited { restart_at: None })
            && c.last_terminated.as_ref().is_some_and(|t| t.exit_code != 0)
    });
    if init_failed && policy == "Never" {
        return "Failed";
    }
    if !rt.initialized() {
        return "Pending";
    }
    let (mut running, mut waiting, mut stopped, mut succeeded) = (0, 0, 0, 0);
    for c in &rt.containers {
        match &c.phase {
            ContainerPhase::Running(_) => running += 1,
            ContainerPhase::Exited { restart_at } => {
                stopped += 1;
                let code = c.last_terminated.as_ref().map_or(0, |t| t.exit_code);
                if restart_at.is_none() && code == 0 {
                    succeeded += 1;
                }
            }
            _ if c.last_terminated.is_some() => stopped += 1,
            _ => waiting += 1,
        }
    }
    let all_final = rt.containers.iter().all(|c| matches!(c.phase, ContainerPhase::Exited { restart_at: None }));
    match () {
        _ if waiting > 0 => "Pending",
        _ if running > 0 => "Running",
        _ if stopped > 0 && all_final && stopped == succeeded => "Succeeded",
        _ if stopped > 0 && all_final && (policy == "Never" || rt.terminating) => "Failed",
        _ if stopped > 0 => "Running",
        _ => "Pending",
    }
}

fn container_status(pod: &Pod, c: &RuntimeContainer) -> ContainerStatus {
    let spec = if c.init { &pod.spec.init_containers } else { &pod.spec.containers };
    let image = spec.iter().find(|s| s.name == c.name).and_then(|s| s.image.clone()).unwrap_or_default();
    let has_readiness = spec.iter().find(|s| s.name == c.name).is_some_and(|s| s.readiness_probe.is_some());
    let has_startup = spec.iter().find(|s| s.name == c.name).is_some_and(|s| s.startup_probe.is_some());
    let running = c.running();
    let started = running.is_some() && (!has_startup || c.probes.startup.result == Some(true));
    // A container being stopped stays ready until it exits (kubectl shows `1/1 Terminating`).
    // Regular init containers are never "ready"; sidecars are, like app containers.
    let ready = (!c.init || c.sidecar) && started && (!has_readiness || c.probes.readiness.result == Some(true));
    let (state, last_state) = states(pod, c);
    ContainerStatus {
        name: c.name.clone(),
        state,
        last_state,
        ready,
        restart_count: c.restart_count,
        image,
        image_id: c.image_id.clone(),
        container_id: running
            .map(|r| r.container_id.clone())
            .or_else(|| c.last_terminated.as_ref().and_then(|t| t.container_id.clone())),
        started: Some(started),
    }
}

/// `state` and `lastState` as the API shows them.
fn states(pod: &Pod, c: &RuntimeContainer) -> (ContainerState, ContainerState) {
    let waiting = |reason: &str, message: Option<String>| ContainerState {
        waiting: Some(ContainerStateWaiting { reason: Some(reason.to_string()), message }),
        ..Default::default()
    };
    let last = ContainerState { terminated: c.last_terminated.clone(), ..Default::default() };
    match &c.phase {
        ContainerPhase::Blocked if !c.init => (waiting("PodInitializing", None), last),
        ContainerPhase::Blocked | ContainerPhase::Creating { .. } | ContainerPhase::Pulling { .. } => {
            (waiting(if c.init { "PodInitializing" } else { "ContainerCreating" }, None), last)
        }
        ContainerPhase::PullFailed { message, backing_off, .. } => {
            let image = (if c.init { &pod.spec.init_containers } else { &pod.spec.containers })
                .iter()
                .find(|s| s.name == c.name)
                .and_then(|s| s.image.clone())
                .unwrap_or_default();
            if *backing_off {
                let text = format!("Back-off pulling image {image:?}: ErrImagePull: {message}");
                (waiting("ImagePullBackOff", Some(text)), last)
            } else {
                (waiting("ErrImagePull", Some(message.clone())), last)
            }
        }
        ContainerPhase::ConfigError { message, .. } => {
            (waiting("CreateContainerConfigError", Some(message.clone())), last)
        }
        ContainerPhase::Running(r) => {
            let running = ContainerStateRunning { started_at: Some(Time(r.started_at)) };
            (ContainerState { running: Some(running), ..Default::default() }, last)
        }
        ContainerPhase::Exited { restart_at: Some(_) } => {
            let message = crash_loop_message(pod, c, &c.crash_backoff);
            (waiting("CrashLoopBackOff", Some(message)), last)
        }
        ContainerPhase::Exited { restart_at: None } => (last, ContainerState::default()),
    }
}

fn crash_loop_message(pod: &Pod, c: &RuntimeContainer, backoff: &Backoff) -> String {
    format!(
        "back-off {}s restarting failed container={} pod={}_{}({})",
        backoff.current().as_secs(),
        c.name,
        pod.metadata.name,
        pod.metadata.namespace,
        pod.metadata.uid
    )
}
