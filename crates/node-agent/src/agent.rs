//! The kubelet's start (cmd/kubelet's `RunKubelet`, kubelet.go `Run`): join the lab (or use a
//! node token), read the machine, register the Node, then run the Lease, the node status loop,
//! the kubelet server and the pod workers until stopped. Stopping leaves every pod with the
//! status it last had, as a kubelet that stops does.

use crate::client::ApiClient;
use crate::containers::Containers;
use crate::events::Recorder;
use crate::gpus::{DeviceAllocator, GpuSource, MigStrategy};
use crate::host::{self, MachineInfo};
use crate::ipam::{Cidr, Ipam, PodNetwork};
use crate::join::{self, JoinRequest};
use crate::lease::{self, LeaseController};
use crate::node_status::{self, NodeFacts, Reporter};
use crate::pod_workers::Kubelet;
use crate::runtime::ContainerRuntime;
use crate::server::KubeletServer;
use crate::{clock, pod_source, tls};
use kubelab_core::api::Node;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use tokio::task::JoinHandle;

/// Everything the agent starts from (the command line).
#[derive(Clone, Debug)]
pub struct Config {
    /// The lab's API base, `https://host:6443/k8s/<lab>`.
    pub server: String,
    /// The bootstrap token the join trades for a node token.
    pub token: String,
    /// Skips the join: requests carry this token as they are (the kubelet server's key too).
    pub node_token: Option<String>,
    pub name: String,
    pub gpus: GpuSource,
    pub mig_strategy: Option<MigStrategy>,
    /// The lab's CA, PEM.
    pub ca_pem: Option<Vec<u8>>,
    pub tls_server_name: Option<String>,
    /// The node's InternalIP; the source address of the route to the server when `None`.
    pub address: Option<IpAddr>,
    pub kubelet_port: u16,
    /// Overrides the podCIDR the join hands out (needed with `node_token`).
    pub pod_cidr: Option<String>,
    pub pod_network: PodNetwork,
}

/// A running agent.
pub struct Agent {
    /// The Node as registered.
    pub node: Node,
    pub pod_cidr: Cidr,
    /// Where the kubelet server listens.
    pub kubelet_address: SocketAddr,
    /// What the kubelet server wants in `Authorization: Bearer`.
    pub kubelet_key: String,
    tasks: Vec<JoinHandle<()>>,
}

impl std::fmt::Debug for Agent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Agent").field("node", &self.node.metadata.name).finish_non_exhaustive()
    }
}

impl Agent {
    /// Stops every loop; pods keep their last status.
    pub fn stop(self) {
        for task in self.tasks {
            task.abort();
        }
    }
}

/// The host and port of the server URL.
fn host_port(server: &str) -> Result<(String, u16), String> {
    let uri: hyper::Uri = server.parse().map_err(|e| format!("invalid server URL {server:?}: {e}"))?;
    let host = uri.host().ok_or_else(|| format!("invalid server URL {server:?}: no host"))?;
    let port = uri.port_u16().unwrap_or(if uri.scheme_str() == Some("https") { 443 } else { 80 });
    Ok((host.trim_start_matches('[').trim_end_matches(']').to_string(), port))
}

/// The API client: TLS with the CA and server name the config gives.
pub fn client(config: &Config, token: &str) -> Result<ApiClient, String> {
    let (host, _) = host_port(&config.server)?;
    let tls = match &config.ca_pem {
        Some(pem) => Some(tls::client(pem, config.tls_server_name.as_deref().unwrap_or(&host))?),
        None => None,
    };
    ApiClient::new(&config.server, tls, token)
}

/// Joins, registers and starts every loop; an error is the line to exit with.
pub async fn start(config: Config, runtime: Arc<dyn ContainerRuntime>) -> Result<Agent, String> {
    let (host, port) = host_port(&config.server)?;
    let address = match config.address {
        Some(address) => address,
        None => host::route_source(&host, port).ok_or_else(|| format!("no route to {host}:{port}: give --address"))?,
    };
    // The machine first: a GPU source that cannot be read stops the agent before it joins.
    let machine = MachineInfo::read();
    let gpus = config.gpus.load(&config.name, machine.cpus as u32, config.mig_strategy)?;
    let client = client(&config, config.node_token.as_deref().unwrap_or(&config.token))?;
    let (listener, kubelet_address) = KubeletServer::bind(SocketAddr::new(address, config.kubelet_port)).await?;
    let (pod_cidr, kubelet_key) = match &config.node_token {
        Some(token) => {
            let cidr = config
                .pod_cidr
                .clone()
                .ok_or("--node-token skips the join, which gives the podCIDR: give --pod-cidr")?;
            (cidr, token.clone())
        }
        None => {
            let request = JoinRequest {
                name: config.name.clone(),
                address: address.to_string(),
                kubelet_port: kubelet_address.port(),
            };
            let answer = join::join(&client, &request).await.map_err(|e| join::refusal_line(&config.server, &e))?;
            client.set_token(&answer.token);
            if let Some(now) = &answer.now {
                clock::follow_lab(now);
            }
            (config.pod_cidr.clone().unwrap_or(answer.pod_cidr), answer.kubelet_key)
        }
    };
    let cidr = Cidr::parse(&pod_cidr)?;
    config.pod_network.set_up(cidr)?;
    let facts = NodeFacts {
        name: config.name.clone(),
        address: address.to_string(),
        kubelet_port: kubelet_address.port(),
        machine,
        pod_cidr: cidr.to_string(),
        runtime_version: runtime.version(),
        gpus: gpus.clone(),
    };
    let node = node_status::register(&client, &node_status::node(&facts, clock::now()), facts.kubelet_port)
        .await
        .map_err(|e| format!("kubelab-agent: registering node {:?}: {e}", config.name))?;
    let kubelet = Arc::new(Kubelet {
        client: client.clone(),
        runtime,
        node_name: config.name.clone(),
        host_ip: address.to_string(),
        ipam: Mutex::new(Ipam::new(cidr)),
        devices: Mutex::new(DeviceAllocator::new(gpus)),
        events: Recorder::start(client.clone(), config.name.clone()),
        containers: Containers::default(),
        images: Mutex::new(Default::default()),
        pull_lock: tokio::sync::Mutex::new(()),
    });
    let server = KubeletServer {
        node_name: config.name.clone(),
        containers: kubelet.containers.clone(),
        key: kubelet_key.clone(),
    };
    let tasks = vec![
        server.serve(listener),
        tokio::spawn(renew_lease(LeaseController::new(client.clone(), node.clone()))),
        tokio::spawn(report_status(client.clone(), facts, node.clone())),
        tokio::spawn(pod_source::run(client.clone(), kubelet, config.name.clone())),
    ];
    Ok(Agent { node, pod_cidr: cidr, kubelet_address, kubelet_key, tasks })
}

/// The node lease controller: a renewal every 10 s.
async fn renew_lease(mut controller: LeaseController) {
    let mut interval = tokio::time::interval(std::time::Duration::from_millis(lease::RENEW_INTERVAL.0));
    loop {
        interval.tick().await;
        if let Err(e) = controller.renew(clock::now()).await {
            eprintln!("kubelab-agent: renewing the node's Lease: {e}");
        }
    }
}

/// The node status loop: computed every 10 s, posted on change or every 5 minutes.
async fn report_status(client: ApiClient, facts: NodeFacts, node: Node) {
    let mut reporter = Reporter::default();
    reporter.posted(&node.status, clock::now());
    let mut previous = node.status.conditions;
    let mut interval = tokio::time::interval(std::time::Duration::from_millis(node_status::UPDATE_FREQUENCY.0));
    interval.tick().await;
    loop {
        interval.tick().await;
        let now = clock::now();
        let mut current = facts.clone();
        current.machine = MachineInfo { hostname: current.machine.hostname.clone(), ..MachineInfo::read() };
        let status = node_status::status(&current, now, &previous);
        if !reporter.due(&status, now) {
            continue;
        }
        match node_status::post_status(&client, &facts.name, &status, facts.kubelet_port).await {
            Ok(posted) => {
                reporter.posted(&status, now);
                previous = posted.status.conditions;
            }
            Err(e) => eprintln!("kubelab-agent: posting the node's status: {e}"),
        }
    }
}
