//! A node's kubelet as the API server reaches it (pkg/kubelet/server: `/containerLogs`,
//! `/exec`, `/stats`): what runs in a container, what it printed, what it uses. `kubectl logs`,
//! `exec`, `top`, a pod's HTTP answers and metrics-server ask here, never the kubelet's fields.
//! A simulated machine answers from its kubelet; a machine outside the lab answers through the
//! agent the host connected to it (`NodeAgent`), and without one it cannot be reached, as a
//! kubelet whose port is closed cannot.

use super::Kubelet;
use super::runtime::ContainerPhase;
use crate::api::pod::ContainerStateTerminated;
use crate::api::{Node, Pod};
use crate::sim::time::SimTime;
use crate::workload::{ImageInfo, ProcessState};
use std::fmt::Debug;

/// The kubelet's port, which the API server dials (`--kubelet-port`).
pub const KUBELET_PORT: u16 = 10250;

/// A running container's process, as its node reports it.
#[derive(Clone, Debug)]
pub struct ContainerProcess {
    pub started_at: SimTime,
    /// MiB its process holds beyond its workload's own (`/hog`).
    pub hog_mib: u64,
    /// When it was sent SIGTERM, if it has been.
    pub sigterm_at: Option<SimTime>,
    /// The image it runs, and so what its process does.
    pub image: ImageInfo,
    /// The GPU memory its devices give it.
    pub gpu: Option<crate::workload::GpuMemory>,
    /// Its environment, as the kubelet made it when it started.
    pub env: Vec<(String, String)>,
    /// The files its volume mounts show it now, by path (the image's own are the workload's).
    pub mounted_files: crate::shell::Files,
    /// The config file its image reads at start was there (`configFile`).
    pub config_found: bool,
}

/// Why a node gave no answer: the API server's error, worded as it words it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeError {
    /// The kubelet refused the request (`Error from server (BadRequest): …`).
    BadRequest(String),
    /// The kubelet could not be reached (`dial tcp 192.168.1.20:10250: connect: connection refused`).
    Unreachable(String),
}

impl std::fmt::Display for NodeError {
    /// As kubectl prints the API server's answer.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NodeError::BadRequest(message) => write!(f, "Error from server (BadRequest): {message}"),
            NodeError::Unreachable(message) => write!(f, "Error from server: {message}"),
        }
    }
}

/// What a machine outside the lab answers through: its agent's connection, which the host
/// provides (`Kubelet::connect_agent`). Its answers are read-only: they never change the lab.
pub trait NodeAgent: Debug + Send + Sync {
    /// `GET /containerLogs/{namespace}/{pod}/{container}`: its lines and when each was printed.
    fn container_logs(&self, pod: &Pod, container: &str, previous: bool) -> Result<Vec<(SimTime, String)>, NodeError>;
    /// `POST /exec/{namespace}/{pod}/{container}`: what the command printed and its exit code.
    fn exec(&self, pod: &Pod, container: &str, command: &[String]) -> Result<(String, i32), NodeError>;
}

/// One node's kubelet, as the API server reaches it.
pub enum NodeServer<'a> {
    Simulated { kubelet: &'a Kubelet, now: SimTime },
    External { address: String, agent: Option<&'a dyn NodeAgent> },
}

impl Kubelet {
    /// The kubelet of `node` as the API server reaches it, at `now`.
    pub fn node_server<'a>(&'a self, node: &Node, now: SimTime) -> NodeServer<'a> {
        let name = node.metadata.name.as_str();
        if !self.is_external(name) {
            return NodeServer::Simulated { kubelet: self, now };
        }
        let ip = node.status.addresses.iter().find(|a| a.type_ == "InternalIP").map_or(name, |a| a.address.as_str());
        NodeServer::External { address: format!("{ip}:{KUBELET_PORT}"), agent: self.agent(name) }
    }
}

impl NodeServer<'_> {
    /// Whether the node's kubelet answers at all (a machine without power does not).
    pub fn reachable(&self, node: &str) -> bool {
        match self {
            NodeServer::Simulated { kubelet, .. } => kubelet.heartbeat_lost_at(node).is_none(),
            NodeServer::External { agent, .. } => agent.is_some(),
        }
    }

    /// What a running container's use depends on (metrics): when it started, the MiB it holds
    /// beyond its workload's own, and its image; lighter than `running_container`.
    pub fn running_usage(&self, pod: &Pod, container: &str) -> Option<(SimTime, u64, ImageInfo)> {
        let NodeServer::Simulated { kubelet, .. } = self else { return None };
        let runtime = kubelet.pod_runtime(&pod.metadata.namespace, &pod.metadata.name)?;
        let running = runtime.all().find(|c| c.name == container)?.running()?;
        let spec = pod.container(container)?;
        let image = kubelet.container_runtime().resolve_image(spec.image.as_deref().unwrap_or("")).ok()?;
        Some((running.started_at, running.hog_mib, image))
    }

    /// The container's running process, if it runs (metrics, a pod's HTTP answers, exec).
    pub fn running_container(&self, pod: &Pod, container: &str) -> Option<ContainerProcess> {
        let NodeServer::Simulated { kubelet, .. } = self else { return None };
        let runtime = kubelet.pod_runtime(&pod.metadata.namespace, &pod.metadata.name)?;
        let runtime_container = runtime.all().find(|c| c.name == container)?;
        let ContainerPhase::Running(running) = &runtime_container.phase else {
            return None;
        };
        let spec = pod.container(container)?;
        let config = kubelet.pod_config(&pod.metadata.namespace, &pod.metadata.name);
        let started = config.and_then(|c| c.started.get(container));
        let image = kubelet.container_runtime().resolve_image(spec.image.as_deref().unwrap_or("")).ok()?;
        Some(ContainerProcess {
            started_at: running.started_at,
            hog_mib: running.hog_mib,
            config_found: running.config_found,
            sigterm_at: running.stopping.map(|s| s.sigterm_at),
            image,
            gpu: runtime_container.gpu,
            env: started.map(|s| s.env.clone()).unwrap_or_default(),
            mounted_files: config.map(|c| c.mounted_files(spec)).unwrap_or_default(),
        })
    }

    /// Runs `command` in a container of a machine outside the lab (a simulated one's shell is
    /// the workload model's: see `kubectl/exec.rs`).
    pub fn exec_external(&self, pod: &Pod, container: &str, command: &[String]) -> Result<(String, i32), NodeError> {
        match self {
            NodeServer::External { agent: Some(agent), .. } => agent.exec(pod, container, command),
            NodeServer::External { address, agent: None } => {
                Err(NodeError::Unreachable(format!("error dialing backend: {}", refused(address))))
            }
            NodeServer::Simulated { .. } => Err(NodeError::BadRequest("the node runs in the lab".into())),
        }
    }

    /// `/containerLogs`: the lines of the container's current (or previous) instance, each with
    /// when it was printed; the kubelet's `validateContainerLogStatus` says which, or why none.
    pub fn container_logs(
        &self,
        pod: &Pod,
        container: &str,
        previous: bool,
    ) -> Result<Vec<(SimTime, String)>, NodeError> {
        let (kubelet, now) = match self {
            NodeServer::Simulated { kubelet, now } => (*kubelet, *now),
            NodeServer::External { agent: Some(agent), .. } => return agent.container_logs(pod, container, previous),
            NodeServer::External { address, agent: None } => {
                let path = format!("{}/{}/{container}", pod.metadata.namespace, pod.metadata.name);
                return Err(NodeError::Unreachable(format!(
                    "Get \"https://{address}/containerLogs/{path}\": {}",
                    refused(address)
                )));
            }
        };
        let Some(spec) = pod.container(container) else { return Ok(Vec::new()) };
        let Some(mut instance) = self.instance(pod, container, previous, now)? else { return Ok(Vec::new()) };
        // What the run was given: the running one's devices, or the last ended one's.
        let runtime = kubelet.pod_runtime(&pod.metadata.namespace, &pod.metadata.name);
        let known = runtime.and_then(|r| r.all().find(|c| c.name == container));
        instance.state.gpu = known.and_then(|c| if c.running().is_some() && !previous { c.gpu } else { c.last_gpu });
        let runtime = kubelet.container_runtime();
        let Ok(info) = runtime.resolve_image(spec.image.as_deref().unwrap_or("")) else { return Ok(Vec::new()) };
        let printed = instance.until.since(instance.started_at);
        // The environment the kubelet made for the container's latest start (a previous
        // instance's, made before, is not kept; it differs only if a referenced object changed).
        let config = kubelet.pod_config(&pod.metadata.namespace, &pod.metadata.name);
        let made = config.and_then(|c| c.started.get(container)).map(|s| s.env.as_slice()).unwrap_or_default();
        let env = super::container_env::process_environment(pod, made);
        let (name, started_at) = (&pod.metadata.name, instance.started_at);
        let lines = info.workload.timed_logs_with_env(spec, &env, name, started_at, printed, instance.state);
        Ok(lines.into_iter().map(|(after, text)| (instance.started_at.plus(after), text)).collect())
    }

    /// The instance whose logs to read, none, or why not.
    fn instance(&self, pod: &Pod, name: &str, previous: bool, now: SimTime) -> Result<Option<Instance>, NodeError> {
        let pod_name = &pod.metadata.name;
        let bad_request = |message: String| NodeError::BadRequest(message);
        let Some(status) = pod.container_status(name) else {
            return Err(bad_request(format!(
                "container {name:?} in pod {pod_name:?} is waiting to start: ContainerCreating"
            )));
        };
        let last = status.last_state.terminated.as_ref().filter(|t| t.container_id.is_some());
        if previous {
            let last = last.ok_or_else(|| {
                bad_request(format!("previous terminated container {name:?} in pod {pod_name:?} not found"))
            })?;
            return Ok(Some(terminated(last)));
        }
        if status.state.running.is_some() {
            return Ok(self.running_container(pod, name).map(|process| running(&process, now)));
        }
        if let Some(current) = &status.state.terminated {
            let current = Some(current).filter(|t| t.container_id.is_some()).or(last);
            let current =
                current.ok_or_else(|| bad_request(format!("container {name:?} in pod {pod_name:?} is terminated")))?;
            return Ok(Some(terminated(current)));
        }
        if let Some(last) = last {
            return Ok(Some(terminated(last)));
        }
        let reason = status.state.waiting.as_ref().and_then(|w| w.reason.clone()).unwrap_or_default();
        let why = match reason.as_str() {
            "ErrImagePull" => "image can't be pulled".to_string(),
            "ImagePullBackOff" => "trying and failing to pull image".to_string(),
            "" => {
                return Err(bad_request(format!(
                    "container {name:?} in pod {pod_name:?} is waiting to start - no logs yet"
                )));
            }
            other => other.to_string(),
        };
        Err(bad_request(format!("container {name:?} in pod {pod_name:?} is waiting to start: {why}")))
    }
}

/// One run of a container: when it started, until when it printed, what was injected.
struct Instance {
    started_at: SimTime,
    until: SimTime,
    state: ProcessState,
}

fn running(process: &ContainerProcess, now: SimTime) -> Instance {
    let sigterm_after = process.sigterm_at.filter(|at| *at <= now).map(|at| at.since(process.started_at));
    let state =
        ProcessState { hog_mib: process.hog_mib, sigterm_after, gpu: process.gpu, config_found: process.config_found };
    Instance { started_at: process.started_at, until: now, state }
}

fn terminated(run: &ContainerStateTerminated) -> Instance {
    let started_at = run.started_at.map_or(SimTime::ZERO, |t| t.0);
    let until = run.finished_at.map_or(started_at, |t| t.0);
    Instance { started_at, until, state: ProcessState::default() }
}

/// What the API server's dial gets from a port nothing listens on.
fn refused(address: &str) -> String {
    format!("dial tcp {address}: connect: connection refused")
}
