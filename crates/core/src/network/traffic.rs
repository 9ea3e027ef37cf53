//! The traffic generator (`lab traffic start svc/NAME --rps N`): clients spread over the
//! nodes send requests to a Service, simulated in per-second batches while it runs (nothing
//! runs when it does not). Each request takes the one connection path: the client node's
//! kube-proxy rules as they stand then, the iptables pick, the pod's answer. Successes are
//! counted per second and per version (the answering pod's image tag), failures per reason,
//! so a rollout's dropped requests show up where they happen.

use super::connection::{self, Answer, Client, Route};
use crate::api::{Node, Pod, Service};
use crate::sim::Sim;
use crate::sim::time::{Duration, SimTime};
use std::collections::BTreeMap;

/// How long a generated request waits for its answer before it counts as timed out.
pub const CLIENT_TIMEOUT: Duration = Duration::from_secs(5);

/// Seconds of history kept (an hour); the oldest go first.
const KEPT_SECONDS: usize = 3600;

/// Where the generator sends requests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub namespace: String,
    pub service: String,
    /// The Service port; `None`: its first.
    pub port: Option<i32>,
    pub path: String,
    /// The `Host` header, for a Service that is an ingress controller or a gateway.
    pub host: Option<String>,
}

/// What one second of traffic did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Second {
    pub at: SimTime,
    /// Successful answers by version (`v1`, `v2`).
    pub ok: BTreeMap<String, u32>,
    /// Failed requests by reason (`connection refused`, `timed out`, `HTTP 503`).
    pub failed: BTreeMap<String, u32>,
}

impl Second {
    pub fn ok_total(&self) -> u32 {
        self.ok.values().sum()
    }

    pub fn failed_total(&self) -> u32 {
        self.failed.values().sum()
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generator {
    pub target: Target,
    pub rps: u32,
    pub started: SimTime,
    /// When the next batch is due.
    pub next: SimTime,
    pub seconds: Vec<Second>,
}

impl Generator {
    pub fn new(target: Target, rps: u32, now: SimTime) -> Generator {
        Generator { target, rps, started: now, next: now, seconds: Vec::new() }
    }

    /// Every second's counts added up.
    pub fn totals(&self) -> Second {
        let mut total = Second { at: self.started, ..Second::default() };
        for second in &self.seconds {
            for (version, n) in &second.ok {
                *total.ok.entry(version.clone()).or_default() += n;
            }
            for (reason, n) in &second.failed {
                *total.failed.entry(reason.clone()).or_default() += n;
            }
        }
        total
    }
}

/// Sends one second's requests at the sim's now; returns what they did.
pub fn run_batch(sim: &mut Sim, target: &Target, rps: u32) -> Second {
    let mut second = Second { at: sim.now(), ..Second::default() };
    let Some((ip, port)) = service_address(sim, target) else {
        second.failed.insert("bad address".into(), rps);
        return second;
    };
    let clients = client_pods(sim);
    // Within one batch the cluster stands still: a pod that answers itself answers every
    // request the same way. A proxy (an ingress controller, a gateway) picks again each time.
    let mut answers: BTreeMap<(String, i32), Result<String, String>> = BTreeMap::new();
    for i in 0..rps as usize {
        let client = &clients[i % clients.len()];
        let outcome = match connection::connect(sim, Client::Pod(client), &ip, port) {
            Route::Backend { ip, port, .. } => match answers.get(&(ip.clone(), port)) {
                Some(known) => known.clone(),
                None => {
                    let (outcome, direct) = answer(sim, &ip, port, &target.path, target.host.as_deref());
                    if direct {
                        answers.insert((ip, port), outcome.clone());
                    }
                    outcome
                }
            },
            Route::Refused => Err("connection refused".into()),
            Route::TimedOut => Err("timed out".into()),
            Route::Unreachable => Err("host unreachable".into()),
        };
        match outcome {
            Ok(version) => *second.ok.entry(version).or_default() += 1,
            Err(reason) => *second.failed.entry(reason).or_default() += 1,
        }
    }
    second
}

/// One backend's answer: the answering pod's version, or why it failed; and whether the pod at
/// `ip` answered itself (rather than proxying to another).
fn answer(sim: &mut Sim, ip: &str, port: i32, path: &str, host: Option<&str>) -> (Result<String, String>, bool) {
    let answered = connection::request_host(sim, ip, port, path, host, 0);
    let direct = match &answered {
        Answer::Http { pod, .. } => {
            let at = super::dns::pod_with_ip(sim.store(), ip);
            at.is_some_and(|p| p.metadata.namespace == pod.0 && p.metadata.name == pod.1)
        }
        _ => true,
    };
    let outcome = match answered {
        Answer::Http { latency, .. } if latency >= CLIENT_TIMEOUT => Err("timed out".into()),
        Answer::Http { status, pod, .. } if (200..400).contains(&status) => Ok(version(sim, &pod)),
        Answer::Http { status, .. } => Err(format!("HTTP {status}")),
        Answer::Refused => Err("connection refused".into()),
        Answer::Unreachable => Err("host unreachable".into()),
        Answer::Killed => Err("connection reset".into()),
    };
    (outcome, direct)
}

/// A pod's version: its `app.kubernetes.io/version` or `version` label, else its first
/// container's image tag.
fn version(sim: &Sim, (namespace, name): &(String, String)) -> String {
    let Some(pod) = sim.store().try_get::<Pod>(namespace, name) else { return "?".into() };
    let labels = &pod.metadata.labels;
    if let Some(version) = labels.get("app.kubernetes.io/version").or_else(|| labels.get("version")) {
        return version.to_string();
    }
    let image = pod.spec.containers.first().and_then(|c| c.image.as_deref()).unwrap_or("");
    image.rsplit_once(':').map_or("latest", |(_, tag)| tag).to_string()
}

fn service_address(sim: &Sim, target: &Target) -> Option<(String, i32)> {
    let service = sim.store().try_get::<Service>(&target.namespace, &target.service)?;
    let ip = service.spec.cluster_ip.clone().filter(|ip| ip != "None")?;
    let port = match target.port {
        Some(port) => port,
        None => service.spec.ports.first()?.port,
    };
    Some((ip, port))
}

/// The clients: one stand-in pod per Ready node (by name), each sending from its node.
fn client_pods(sim: &Sim) -> Vec<Pod> {
    let nodes = sim.store().list::<Node>(None).filter(|n| n.condition("Ready").is_some_and(|c| c.status == "True"));
    let mut clients: Vec<Pod> = nodes
        .map(|node| {
            let mut pod = Pod::default();
            pod.metadata.name = format!("traffic-{}", node.metadata.name);
            pod.spec.node_name = Some(node.metadata.name.clone());
            let ip = node.status.addresses.iter().find(|a| a.type_ == "InternalIP").map(|a| a.address.clone());
            pod.status.pod_ip = ip;
            pod
        })
        .collect();
    if clients.is_empty() {
        clients.push(Pod::default());
    }
    clients
}

/// Keeps the last hour of seconds.
pub fn record(generator: &mut Generator, second: Second) {
    generator.seconds.push(second);
    if generator.seconds.len() > KEPT_SECONDS {
        generator.seconds.remove(0);
    }
    generator.next = generator.next.plus(Duration::from_secs(1));
}

/// `v1=60 v2=40`.
pub fn by_version(counts: &BTreeMap<String, u32>) -> String {
    let parts: Vec<String> = counts.iter().map(|(k, v)| format!("{k}={v}")).collect();
    if parts.is_empty() { "-".into() } else { parts.join(" ") }
}
