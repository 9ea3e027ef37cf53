//! Real machines joining a served lab as nodes: `POST /kubelab/agents/join`, kubeadm join's TLS
//! bootstrap made small. The agent presents a bootstrap token the instructor made (expiring,
//! revocable, kept hashed) and the name it wants; it gets back a node credential
//! (`system:node:<name>` in `system:nodes`, which the Node authorizer and NodeRestriction
//! confine to its own Node, Lease and pods), its pod CIDR (what the node IPAM controller
//! would assign), the key the API server presents to its kubelet port, and the lab's time.

use super::agent_connection::AgentConnection;
use super::cpu_quota::CpuQuota;
use super::tokens::{Bearer, Role};
use super::{ServedLab, status_response};
use crate::api::codes;
use axum::Json;
use axum::response::{IntoResponse, Response};
use kubelab_core::api::Node;
use kubelab_core::sim::Sim;
use kubelab_core::store::validation::is_dns1123_subdomain;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

/// How many real machines one lab takes by default: enough for a class's exercise, few enough
/// that one lab cannot hold every machine a server fronts.
pub const DEFAULT_MAX_AGENTS: usize = 8;

/// The first of the /24s agents' pods get (`10.244.128.0/24` upward), above those the lab's
/// simulated nodes take from `10.244.0.0/24`, so the two never meet.
const FIRST_AGENT_SUBNET: u16 = 128;

/// What the agent asks.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    pub name: String,
    /// The node's InternalIP, where its kubelet port listens.
    pub address: IpAddr,
    #[serde(rename = "kubeletPort")]
    pub kubelet_port: u16,
}

/// What a joined agent gets.
#[derive(Debug, Serialize, Deserialize)]
pub struct JoinAnswer {
    pub token: String,
    pub user: String,
    #[serde(rename = "podCIDR")]
    pub pod_cidr: String,
    #[serde(rename = "kubeletKey")]
    pub kubelet_key: String,
    /// The lab's clock now: the agent writes its timestamps on it.
    pub now: String,
}

/// One machine that joined, as the instructor's dashboard lists it.
#[derive(Clone, Debug, Serialize)]
pub struct JoinedAgent {
    pub name: String,
    pub address: IpAddr,
    #[serde(rename = "kubeletPort")]
    pub kubelet_port: u16,
    /// When it joined, in seconds since the Unix epoch (wall clock).
    #[serde(rename = "joinedAtUnix")]
    pub joined_at_unix: u64,
    #[serde(skip)]
    token_id: String,
    /// The key its kubelet port expects.
    #[serde(skip)]
    pub kubelet_key: String,
}

impl JoinedAgent {
    /// A connection to its kubelet port.
    pub fn connection(&self) -> AgentConnection {
        AgentConnection::new((self.address, self.kubelet_port), self.kubelet_key.clone())
    }
}

/// A lab's joined machines and its limit on them.
pub struct Agents {
    joined: Mutex<BTreeMap<String, JoinedAgent>>,
    pub max_agents: usize,
    /// The CPU-seconds the lab's pods on these machines may use (`cpu_quota.rs`).
    pub cpu_quota: Mutex<CpuQuota>,
}

impl Default for Agents {
    fn default() -> Agents {
        Agents { joined: Mutex::default(), max_agents: DEFAULT_MAX_AGENTS, cpu_quota: Mutex::default() }
    }
}

impl Agents {
    pub fn list(&self) -> Vec<JoinedAgent> {
        self.lock().values().cloned().collect()
    }

    /// Whether any machine has joined (the lab's clock then runs at 1×).
    pub fn any(&self) -> bool {
        !self.lock().is_empty()
    }

    pub fn quota(&self) -> std::sync::MutexGuard<'_, CpuQuota> {
        self.cpu_quota.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, JoinedAgent>> {
        self.joined.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// `POST /kubelab/agents/join`.
pub async fn join(served: ServedLab, bearer: Bearer, body: Vec<u8>) -> Response {
    if bearer.role != Role::Bootstrap {
        return status_response(
            403,
            "Forbidden",
            "only a bootstrap token joins a node; ask the lab's instructor for one",
        );
    }
    let request: JoinRequest = match serde_json::from_slice(&body) {
        Ok(request) => request,
        Err(e) => return status_response(400, "BadRequest", &format!("the join request is not valid: {e}")),
    };
    if !is_dns1123_subdomain(&request.name) {
        let message = format!(
            "Node {:?} is invalid: metadata.name: Invalid value: {:?}: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
            request.name, request.name
        );
        return status_response(422, "Invalid", &message);
    }
    if let Err((code, reason, message)) = claim(&served, &request) {
        return status_response(code, reason, &message);
    }
    let connection = AgentConnection::new((request.address, request.kubelet_port), codes::new_session_token());
    let (name, key) = (request.name.clone(), connection.key().to_string());
    let placed = served.lab.on_thread(move |sim| place(sim, &name, connection)).await;
    let (pod_cidr, now) = match placed {
        Ok(Ok(placed)) => placed,
        Ok(Err(message)) => return status_response(409, "AlreadyExists", &message),
        Err(_) => return status_response(503, "ServiceUnavailable", "the lab has stopped"),
    };
    let user = format!("system:node:{}", request.name);
    let (token, token_id) = served.tokens.issue(&user, Role::Node);
    let joined = JoinedAgent {
        name: request.name.clone(),
        address: request.address,
        kubelet_port: request.kubelet_port,
        joined_at_unix: SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).unwrap_or_default().as_secs(),
        token_id,
        kubelet_key: key.clone(),
    };
    served.agents.lock().insert(request.name.clone(), joined);
    let answer = JoinAnswer { token, user, pod_cidr, kubelet_key: key, now };
    (axum::http::StatusCode::CREATED, Json(answer)).into_response()
}

/// Refuses a name another machine holds (the same address and port is that machine back after
/// a restart: its old credential is revoked) and a lab at its limit.
fn claim(served: &ServedLab, request: &JoinRequest) -> Result<(), (u16, &'static str, String)> {
    let mut joined = served.agents.lock();
    if let Some(holder) = joined.get(&request.name) {
        if (holder.address, holder.kubelet_port) != (request.address, request.kubelet_port) {
            let message = format!(
                "node {:?} has already joined this lab from {}:{}; a machine may not take another node's name",
                request.name, holder.address, holder.kubelet_port
            );
            return Err((409, "AlreadyExists", message));
        }
        served.tokens.revoke(&holder.token_id);
        joined.remove(&request.name);
    }
    if joined.len() >= served.agents.max_agents {
        let message = format!("this lab takes at most {} real nodes", served.agents.max_agents);
        return Err((403, "Forbidden", message));
    }
    Ok(())
}

/// On the lab's thread: refuses a simulated node's name, connects the agent (the API server's
/// reads of its pods go to it) and picks its pod CIDR. The pod CIDR and the lab's time.
fn place(sim: &mut Sim, name: &str, connection: AgentConnection) -> Result<(String, String), String> {
    if sim.store().try_get::<Node>("", name).is_some() && !sim.is_external(name) {
        return Err(format!("nodes {name:?} already exists: a simulated node of this lab has that name"));
    }
    sim.connect_agent(name, Arc::new(connection));
    let cidr = match sim.store().try_get::<Node>("", name).and_then(|n| n.spec.pod_cidr.clone()) {
        Some(own) => own,
        None => free_pod_cidr(sim).ok_or("the lab has no pod CIDR left for another node")?,
    };
    Ok((cidr, sim.now().to_rfc3339_micro()))
}

/// The first `10.244.N.0/24` from `FIRST_AGENT_SUBNET` that no node holds.
fn free_pod_cidr(sim: &Sim) -> Option<String> {
    let taken: Vec<String> = sim.store().list::<Node>(None).filter_map(|n| n.spec.pod_cidr.clone()).collect();
    (FIRST_AGENT_SUBNET..256).map(|n| format!("10.244.{n}.0/24")).find(|cidr| !taken.contains(cidr))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_join_request_names_its_fields() {
        let request: JoinRequest =
            serde_json::from_str(r#"{"name":"worker-a","address":"10.200.1.2","kubeletPort":10250}"#).unwrap();
        assert_eq!((request.name.as_str(), request.kubelet_port), ("worker-a", 10250));
        let unknown = serde_json::from_str::<JoinRequest>(r#"{"name":"a","address":"1.2.3.4","kubeletPort":1,"x":1}"#);
        assert!(unknown.unwrap_err().to_string().contains("unknown field `x`"));
    }
}
