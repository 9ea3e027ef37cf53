//! Joining a lab: the agent's simplified TLS bootstrap. Upstream the kubelet authenticates with
//! a bootstrap token and gets its client certificate through a CertificateSigningRequest
//! (pkg/kubelet/certificate/bootstrap); here it trades the lab's bootstrap token for a node
//! token, `system:node:NAME`'s, in one request:
//!
//! `POST {server}/kubelab/agents/join`, `Authorization: Bearer <bootstrap token>`,
//! `{"name": NAME, "address": IP, "kubeletPort": N}` → 201
//! `{"token": NODE_TOKEN, "user": "system:node:NAME", "podCIDR": "10.244.N.0/24", "kubeletKey": KEY}`;
//! a refusal is a `Status` (wrong token, name taken). The answer also says `"now"`, the lab's clock.

use crate::client::{ApiClient, ApiError};
use serde::{Deserialize, Serialize};

pub const JOIN_PATH: &str = "/kubelab/agents/join";

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JoinRequest {
    pub name: String,
    pub address: String,
    pub kubelet_port: u16,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JoinAnswer {
    /// The node's own token: every later request carries it.
    pub token: String,
    /// `system:node:NAME`.
    pub user: String,
    #[serde(rename = "podCIDR")]
    pub pod_cidr: String,
    /// What the API server sends the kubelet server (`Authorization: Bearer <key>`).
    pub kubelet_key: String,
    /// The lab's clock at the join (`MicroTime`): the agent's timestamps follow it.
    #[serde(default)]
    pub now: Option<String>,
}

/// Joins with the bootstrap token `client` carries; the refusal is the server's message.
pub async fn join(client: &ApiClient, request: &JoinRequest) -> Result<JoinAnswer, ApiError> {
    let body = serde_json::to_value(request).unwrap_or_default();
    let answer = client.post(JOIN_PATH, &body).await?;
    serde_json::from_value(answer).map_err(|e| ApiError {
        code: 0,
        reason: String::new(),
        message: format!("the join answer is not one this agent reads: {e}"),
    })
}

/// The line the agent exits with when the lab refuses it.
pub fn refusal_line(server: &str, error: &ApiError) -> String {
    match error.code {
        401 => format!("kubelab-agent: {server} refused the join token: {}", error.message),
        403 => format!("kubelab-agent: {server} does not let this token join: {}", error.message),
        409 => format!("kubelab-agent: the node name is taken: {}", error.message),
        0 => format!("kubelab-agent: cannot join: {}", error.message),
        code => format!("kubelab-agent: {server} refused to join this machine ({code}): {}", error.message),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wire_format_is_camel_case() {
        let request = JoinRequest { name: "edge-1".into(), address: "192.168.1.20".into(), kubelet_port: 10250 };
        assert_eq!(
            serde_json::to_string(&request).unwrap(),
            r#"{"name":"edge-1","address":"192.168.1.20","kubeletPort":10250}"#
        );
        let answer: JoinAnswer = serde_json::from_str(
            r#"{"token":"t","user":"system:node:edge-1","podCIDR":"10.244.4.0/24","kubeletKey":"k"}"#,
        )
        .unwrap();
        assert_eq!(answer.pod_cidr, "10.244.4.0/24");
    }

    #[test]
    fn refusals_say_what_to_fix() {
        let taken = ApiError { code: 409, reason: "AlreadyExists".into(), message: "node \"edge-1\" exists".into() };
        assert_eq!(
            refusal_line("https://lab", &taken),
            "kubelab-agent: the node name is taken: node \"edge-1\" exists"
        );
        let wrong = ApiError { code: 401, reason: "Unauthorized".into(), message: "Unauthorized".into() };
        assert!(refusal_line("https://lab", &wrong).contains("refused the join token"));
    }
}
