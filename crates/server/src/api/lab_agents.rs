//! A hosted lab's real machines, for its instructor: bootstrap tokens to join one
//! (`kubeadm token create --print-join-command`, made for `kubelab-agent`) and the machines
//! that joined, with their nodes' health as the lab's node lifecycle controller sees it.

use super::AppState;
use super::problem::{ApiError, ApiResult};
use super::session::Caller;
use crate::hosted_lab::HostedLab;
use crate::kube_api::tokens::Role;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, header};
use kubelab_core::api::Node;
use kubelab_wire::{AgentToken, CpuQuotaUse, RealNode, RealNodes};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a bootstrap token signs an agent in (kubeadm's default `--ttl` is 24 h; a class
/// hands its tokens out on the day).
const BOOTSTRAP_TTL: Duration = Duration::from_secs(24 * 3600);

/// `POST /api/labs/{id}/agent-tokens`: a bootstrap token and the command that joins a machine.
pub async fn create(
    State(state): State<Arc<AppState>>,
    caller: Caller,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<AgentToken>> {
    let lab = owned(&state, &caller, &id)?;
    let endpoint = state
        .kube_api
        .get()
        .ok_or_else(|| ApiError::Unavailable("this server does not serve the Kubernetes API".into()))?;
    let (token, token_id) = lab.tokens.issue_until("", Role::Bootstrap, Some(Instant::now() + BOOTSTRAP_TTL));
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let server = endpoint.server_url(host, &id);
    let join = format!(
        "kubelab-agent --server {server} --certificate-authority kubelab-ca.crt --tls-server-name localhost --token {token}"
    );
    Ok(Json(AgentToken {
        id: token_id,
        token,
        expires_in_seconds: BOOTSTRAP_TTL.as_secs(),
        server,
        ca_certificate: endpoint.ca_pem.clone(),
        join,
    }))
}

/// `GET /api/labs/{id}/nodes`: the machines that joined, each with its node's health.
pub async fn list(
    State(state): State<Arc<AppState>>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<RealNodes>> {
    let lab = owned(&state, &caller, &id)?;
    let agents = lab.agents.list();
    let names: Vec<String> = agents.iter().map(|a| a.name.clone()).collect();
    let health = lab
        .served()
        .lab
        .on_thread(move |sim| names.iter().map(|name| health(sim, name)).collect::<Vec<_>>())
        .await
        .map_err(|_| ApiError::Unavailable("the lab has stopped".into()))?;
    let nodes = agents
        .into_iter()
        .zip(health)
        .map(|(agent, (ready, reason, pods))| RealNode {
            name: agent.name,
            address: agent.address.to_string(),
            kubelet_port: agent.kubelet_port,
            joined_at_unix: agent.joined_at_unix,
            ready,
            reason,
            pods,
        })
        .collect();
    Ok(Json(RealNodes { nodes, cpu: quota_use(&lab) }))
}

fn quota_use(lab: &HostedLab) -> CpuQuotaUse {
    let quota = lab.agents.quota();
    CpuQuotaUse {
        used_millis: u64::try_from(quota.used().as_millis()).unwrap_or(u64::MAX),
        quota_seconds: quota.limit().as_secs(),
        exhausted: quota.enforced(),
    }
}

fn health(sim: &kubelab_core::sim::Sim, name: &str) -> (Option<String>, Option<String>, usize) {
    let store = sim.store();
    let condition =
        store.try_get::<Node>("", name).and_then(|n| n.status.conditions.iter().find(|c| c.type_ == "Ready").cloned());
    let pods = store.list::<kubelab_core::api::Pod>(None).filter(|p| p.node_name() == Some(name)).count();
    (condition.as_ref().map(|c| c.status.clone()), condition.and_then(|c| c.reason), pods)
}

fn owned(state: &AppState, caller: &Caller, id: &str) -> ApiResult<Arc<HostedLab>> {
    let lab = state.labs.find(id).ok_or_else(|| ApiError::NotFound(format!("no hosted lab has id {id:?}")))?;
    if lab.owner_id != caller.me.id {
        return Err(ApiError::Forbidden("only the lab's instructor lets machines join it".into()));
    }
    Ok(lab)
}

/// The lab's node-health settings as the instructor sets them (`lab settings`).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NodeSettingsRequest {
    node_monitor_grace_period: Option<String>,
    default_toleration_seconds: Option<i64>,
    /// The CPU-seconds the lab's pods on real machines may use in all.
    cpu_seconds_quota: Option<u64>,
}

/// `PUT /api/labs/{id}/node-settings`: shortens (or restores) how long a silent machine stays
/// Ready and how long its pods stay, and sets the lab's quota of CPU-seconds on real machines;
/// the first two as a `lab settings` line kept with the lab's scripts (so every replay of the
/// lab agrees); answers the settings the lab now has.
pub async fn node_settings(
    State(state): State<Arc<AppState>>,
    caller: Caller,
    Path(id): Path<String>,
    Json(request): Json<NodeSettingsRequest>,
) -> ApiResult<Json<Value>> {
    let lab = owned(&state, &caller, &id)?;
    let mut line = String::from("lab settings");
    let mut asked = kubelab_core::store::node_settings::NodeSettings::default();
    if let Some(text) = &request.node_monitor_grace_period {
        // Parsed, then written back: nothing but a duration reaches the script line.
        asked.node_monitor_grace_period =
            kubelab_core::sim::time::Duration::parse(text).map_err(ApiError::BadRequest)?;
        line.push_str(&format!(" --node-monitor-grace-period {}", asked.node_monitor_grace_period));
    }
    if let Some(seconds) = request.default_toleration_seconds {
        asked.default_toleration_seconds = seconds;
        line.push_str(&format!(" --default-toleration-seconds {seconds}"));
    }
    asked.validate().map_err(|e| ApiError::BadRequest(e.trim_start_matches("error: ").to_string()))?;
    if line != "lab settings" {
        lab.submit(line).map_err(|refused| ApiError::Conflict(refused.to_string()))?;
    }
    if let Some(seconds) = request.cpu_seconds_quota {
        // The quota keeper acts on the change at its next reading (untaints, lets agents start).
        lab.agents.quota().set_limit(Duration::from_secs(seconds));
    }
    let cpu = quota_use(&lab);
    // The lab's inbox is in order: this read runs after the line.
    let settings = lab
        .served()
        .lab
        .on_thread(|sim| *sim.store().node_settings())
        .await
        .map_err(|_| ApiError::Unavailable("the lab has stopped".into()))?;
    Ok(Json(json!({
        "nodeMonitorGracePeriod": settings.node_monitor_grace_period.to_string(),
        "defaultTolerationSeconds": settings.default_toleration_seconds,
        "cpuSecondsQuota": cpu.quota_seconds,
    })))
}
