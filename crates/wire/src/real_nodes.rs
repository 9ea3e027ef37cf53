//! A hosted lab's real machines, as its instructor sees them: a bootstrap token with the command
//! that joins a machine (`POST /api/labs/{id}/agent-tokens`), and the machines that joined with
//! their nodes' health (`GET /api/labs/{id}/nodes`).

use serde::{Deserialize, Serialize};

/// A bootstrap token and how to use it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentToken {
    /// The token's id, to revoke it (`DELETE /api/labs/{id}/tokens/{token}`).
    pub id: String,
    /// The token itself, shown once.
    pub token: String,
    pub expires_in_seconds: u64,
    /// The lab's API, as the agent reaches it.
    pub server: String,
    /// The lab's CA (PEM), which the agent trusts.
    pub ca_certificate: String,
    /// The command that joins a machine (`kubelab-agent …`).
    pub join: String,
}

/// One machine that joined and its node's health.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RealNode {
    pub name: String,
    /// Its InternalIP.
    pub address: String,
    pub kubelet_port: u16,
    /// When it joined, in seconds since the Unix epoch.
    pub joined_at_unix: u64,
    /// The node's Ready condition (`True`, `False`, `Unknown`); absent before it registered.
    #[serde(default)]
    pub ready: Option<String>,
    /// The condition's reason (`KubeletReady`, `NodeStatusUnknown`).
    #[serde(default)]
    pub reason: Option<String>,
    /// Pods bound to it.
    pub pods: usize,
}

/// The lab's quota of CPU-seconds on its real machines and what its pods there have used.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CpuQuotaUse {
    pub used_millis: u64,
    pub quota_seconds: u64,
    /// Spent: the real nodes are tainted and their agents refuse containers.
    pub exhausted: bool,
}

/// `GET /api/labs/{id}/nodes`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RealNodes {
    pub nodes: Vec<RealNode>,
    #[serde(default)]
    pub cpu: CpuQuotaUse,
}
