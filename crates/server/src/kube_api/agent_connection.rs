//! The API server dialling a joined machine's kubelet port (pkg/kubelet/server), for
//! `kubectl logs` and `exec` of the pods it runs: `GET /containerLogs/…` and `POST /exec/…`,
//! answered in JSON by `kubelab-agent`. Upstream speaks TLS with the kubelet's webhook
//! authentication; here the key handed over at join is presented as a bearer token. The lab's
//! thread asks, so each call has short timeouts: a machine that went away answers as a closed
//! kubelet port does.

use kubelab_core::api::Pod;
use kubelab_core::kubelet::node_server::{NodeAgent, NodeError};
use kubelab_core::sim::time::{SIM_EPOCH_UNIX_SECONDS, SimTime};
use serde::Deserialize;
use std::io::{Read, Write};
use std::net::{IpAddr, SocketAddr, TcpStream};
use std::time::Duration;

/// How long the lab's thread waits to connect to a kubelet.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);
/// How long it waits for an answer (an exec of a short command, a log's lines).
const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);
/// The most an answer may hold.
const MAX_ANSWER: u64 = 8 * 1024 * 1024;

#[derive(Debug)]
pub struct AgentConnection {
    addr: SocketAddr,
    key: String,
}

#[derive(Deserialize)]
struct LogLine {
    #[serde(rename = "unixMillis")]
    unix_millis: u64,
    text: String,
}

#[derive(Deserialize)]
struct Logs {
    lines: Vec<LogLine>,
}

#[derive(Deserialize)]
struct ExecAnswer {
    output: String,
    #[serde(rename = "exitCode")]
    exit_code: i32,
}

impl AgentConnection {
    pub fn new((ip, port): (IpAddr, u16), key: String) -> AgentConnection {
        AgentConnection { addr: SocketAddr::new(ip, port), key }
    }

    /// The key the agent expects from the API server.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// One request and its JSON answer, or the error kubectl would print.
    fn call<T: serde::de::DeserializeOwned>(&self, method: &str, path: &str, body: &str) -> Result<T, NodeError> {
        let unreachable =
            |e: std::io::Error| NodeError::Unreachable(format!("dial tcp {}: {}", self.addr, describe(&e)));
        let mut stream = TcpStream::connect_timeout(&self.addr, CONNECT_TIMEOUT).map_err(unreachable)?;
        stream.set_read_timeout(Some(ANSWER_TIMEOUT)).map_err(unreachable)?;
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            self.addr,
            self.key,
            body.len()
        );
        stream.write_all(head.as_bytes()).and_then(|()| stream.write_all(body.as_bytes())).map_err(unreachable)?;
        let mut answer = Vec::new();
        stream.take(MAX_ANSWER).read_to_end(&mut answer).map_err(unreachable)?;
        let text = String::from_utf8_lossy(&answer);
        let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        let status = head.split_whitespace().nth(1).and_then(|s| s.parse::<u16>().ok()).unwrap_or(0);
        if status != 200 {
            return Err(NodeError::BadRequest(body.trim().to_string()));
        }
        serde_json::from_str(body).map_err(|e| NodeError::BadRequest(format!("the kubelet's answer is not valid: {e}")))
    }
}

/// What the quota keeper reads of the summary API (`GET /stats/summary`).
#[derive(Deserialize)]
struct Summary {
    node: NodeStats,
}

#[derive(Deserialize)]
struct NodeStats {
    cpu: CpuStats,
}

#[derive(Deserialize)]
struct CpuStats {
    #[serde(rename = "usageCoreNanoSeconds")]
    usage_core_nano_seconds: u64,
}

impl AgentConnection {
    /// The node's cumulative CPU time, from its summary API.
    pub fn node_cpu_usage(&self) -> Result<Duration, NodeError> {
        let summary: Summary = self.call("GET", "/stats/summary", "")?;
        Ok(Duration::from_nanos(summary.node.cpu.usage_core_nano_seconds))
    }

    /// Tells the agent the lab's CPU quota is spent (`Some(why)`) or has room again.
    pub fn set_cpu_refusal(&self, refusal: Option<&str>) -> Result<(), NodeError> {
        let body = serde_json::json!({ "refusal": refusal }).to_string();
        self.call::<serde_json::Value>("PUT", "/kubelab/cpu-quota", &body).map(drop)
    }
}

/// As Go's net package words a failed dial.
fn describe(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::ConnectionRefused => "connect: connection refused".into(),
        std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock => "i/o timeout".into(),
        _ => e.to_string(),
    }
}

/// A time the agent wrote on the lab's clock (Unix milliseconds) as the simulation's time.
fn sim_time(unix_millis: u64) -> SimTime {
    let epoch = (SIM_EPOCH_UNIX_SECONDS.max(0) as u64) * 1000;
    SimTime::from_millis(unix_millis.saturating_sub(epoch))
}

fn pod_path(what: &str, pod: &Pod, container: &str) -> String {
    format!("/{what}/{}/{}/{container}", pod.metadata.namespace, pod.metadata.name)
}

impl NodeAgent for AgentConnection {
    fn container_logs(&self, pod: &Pod, container: &str, previous: bool) -> Result<Vec<(SimTime, String)>, NodeError> {
        let path = format!("{}?previous={previous}", pod_path("containerLogs", pod, container));
        let logs: Logs = self.call("GET", &path, "")?;
        Ok(logs.lines.into_iter().map(|l| (sim_time(l.unix_millis), l.text)).collect())
    }

    fn exec(&self, pod: &Pod, container: &str, command: &[String]) -> Result<(String, i32), NodeError> {
        let body = serde_json::json!({ "command": command }).to_string();
        let answer: ExecAnswer = self.call("POST", &pod_path("exec", pod, container), &body)?;
        Ok((answer.output, answer.exit_code))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_machine_that_went_away_answers_as_a_closed_kubelet_port() {
        // Bind and drop: nothing listens on that port now.
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let connection = AgentConnection::new(("127.0.0.1".parse().unwrap(), port), "k".into());
        let error = connection.exec(&Pod::default(), "c", &["true".into()]).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!("Error from server: dial tcp 127.0.0.1:{port}: connect: connection refused")
        );
    }
}
