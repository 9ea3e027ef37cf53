//! Running one probe for real (pkg/kubelet/prober/prober.go and pkg/probe/{http,tcp,exec,grpc}):
//! an HTTP GET, a TCP connection or a gRPC health check to the pod's IP, or a command in the
//! container, with the probe's timeout, and upstream's failure messages (`HTTP probe failed
//! with statuscode: 503`, `dial tcp 10.244.1.2:8080: connect: connection refused`). When each
//! probe runs and what its results add up to is the simulation's `ProbeWorker`.

mod grpc;

use crate::runtime::RunningContainer;
use kubelab_core::api::container::{Container, HttpGetAction, Probe, TcpSocketAction};
use kubelab_core::api::intstr::IntOrString;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The `User-Agent` upstream's HTTP prober sends (`kube-probe/<major>.<minor>`).
const USER_AGENT: &str = "kube-probe/1.36";

/// Runs `probe` against the container; `None` when it passed, else the failure's message.
pub async fn run(
    probe: &Probe,
    container: &Container,
    pod_ip: &str,
    process: Option<Arc<dyn RunningContainer>>,
) -> Option<String> {
    let timeout = Duration::from_secs(probe.timeout_seconds.unwrap_or(1).max(1) as u64);
    if let Some(http) = &probe.http_get {
        return http_probe(http, container, pod_ip, timeout).await;
    }
    if let Some(tcp) = &probe.tcp_socket {
        return tcp_probe(tcp, container, pod_ip, timeout).await;
    }
    if let Some(exec) = &probe.exec {
        let Some(process) = process else { return Some("the container is not running".into()) };
        let command = exec.command.clone();
        let result = tokio::task::spawn_blocking(move || process.exec(&command, timeout)).await;
        return match result {
            Ok((_, 0)) => None,
            Ok((output, _)) => Some(output),
            Err(e) => Some(format!("exec: {e}")),
        };
    }
    if let Some(action) = &probe.grpc {
        let address = join_host_port(pod_ip, u16::try_from(action.port).unwrap_or(0));
        return grpc::probe(&address, action.service.as_deref().unwrap_or_default(), timeout).await;
    }
    None
}

/// Upstream `ResolveContainerPort`: a number, a named container port, or a number as a string.
pub fn resolve_port(port: &IntOrString, container: &Container) -> Result<u16, String> {
    let number = match port {
        IntOrString::Int(number) => i64::from(*number),
        IntOrString::String(name) => match container.ports.iter().find(|p| p.name.as_deref() == Some(name.as_str())) {
            Some(declared) => i64::from(declared.container_port),
            None => name.parse::<i64>().map_err(|_| format!("strconv.Atoi: parsing {name:?}: invalid syntax"))?,
        },
    };
    u16::try_from(number).ok().filter(|p| *p > 0).ok_or_else(|| format!("invalid port number: {number}"))
}

/// Go's `net.JoinHostPort`.
fn join_host_port(host: &str, port: u16) -> String {
    if host.contains(':') { format!("[{host}]:{port}") } else { format!("{host}:{port}") }
}

/// A dial failure in Go's `net` words.
fn dial_error(address: &str, error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::ConnectionRefused => format!("dial tcp {address}: connect: connection refused"),
        std::io::ErrorKind::TimedOut => format!("dial tcp {address}: i/o timeout"),
        _ => format!("dial tcp {address}: {error}"),
    }
}

async fn connect(address: &str, timeout: Duration) -> Result<TcpStream, String> {
    match tokio::time::timeout(timeout, TcpStream::connect(address)).await {
        Ok(Ok(stream)) => Ok(stream),
        Ok(Err(e)) => Err(dial_error(address, &e)),
        Err(_) => Err(format!("dial tcp {address}: i/o timeout")),
    }
}

async fn tcp_probe(tcp: &TcpSocketAction, container: &Container, pod_ip: &str, timeout: Duration) -> Option<String> {
    let port = match resolve_port(&tcp.port, container) {
        Ok(port) => port,
        Err(e) => return Some(e),
    };
    let host = tcp.host.as_deref().filter(|h| !h.is_empty()).unwrap_or(pod_ip);
    connect(&join_host_port(host, port), timeout).await.err()
}

async fn http_probe(http: &HttpGetAction, container: &Container, pod_ip: &str, timeout: Duration) -> Option<String> {
    let port = match resolve_port(&http.port, container) {
        Ok(port) => port,
        Err(e) => return Some(e),
    };
    let host = http.host.as_deref().filter(|h| !h.is_empty()).unwrap_or(pod_ip);
    let path = http.path.as_deref().unwrap_or("/");
    let slash = if path.starts_with('/') { "" } else { "/" };
    let scheme = http.scheme.as_deref().unwrap_or("HTTP").to_lowercase();
    let address = join_host_port(host, port);
    let url = format!("{scheme}://{address}{slash}{path}");
    let answer = tokio::time::timeout(timeout, get(&address, &format!("{slash}{path}"), http)).await;
    match answer {
        Err(_) => {
            Some(format!("Get {url:?}: context deadline exceeded (Client.Timeout exceeded while awaiting headers)"))
        }
        Ok(Err(e)) => Some(format!("Get {url:?}: {e}")),
        Ok(Ok(code)) if (200..400).contains(&code) => None,
        Ok(Ok(code)) => Some(format!("HTTP probe failed with statuscode: {code}")),
    }
}

/// A lifecycle hook's GET: why it got no answer at all, if it did not (any status will do).
pub async fn http_get_error(
    http: &HttpGetAction,
    container: &Container,
    pod_ip: &str,
    timeout: Duration,
) -> Option<String> {
    match http_probe(http, container, pod_ip, timeout).await {
        Some(error) if error.starts_with("HTTP probe failed with statuscode") => None,
        other => other,
    }
}

/// One HTTP/1.1 GET; the response's status code.
async fn get(address: &str, path: &str, http: &HttpGetAction) -> Result<u16, String> {
    let mut stream = TcpStream::connect(address).await.map_err(|e| dial_error(address, &e))?;
    let mut request = format!("GET {path} HTTP/1.1\r\nHost: {address}\r\nUser-Agent: {USER_AGENT}\r\nAccept: */*\r\n");
    for header in &http.http_headers {
        request.push_str(&format!("{}: {}\r\n", header.name, header.value));
    }
    request.push_str("Connection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.map_err(|e| e.to_string())?;
    let mut head = Vec::new();
    let mut buffer = [0u8; 512];
    while !head.windows(2).any(|w| w == b"\r\n") && head.len() < 8192 {
        let read = stream.read(&mut buffer).await.map_err(|e| e.to_string())?;
        if read == 0 {
            return Err("EOF".into());
        }
        head.extend_from_slice(&buffer[..read]);
    }
    let line = String::from_utf8_lossy(&head);
    let code = line.split_whitespace().nth(1).and_then(|c| c.parse::<u16>().ok());
    code.ok_or_else(|| format!("malformed HTTP response {:?}", line.lines().next().unwrap_or("")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::net::TcpListener;

    fn container() -> Container {
        serde_json::from_value(serde_json::json!({"name": "web", "ports": [{"name": "http", "containerPort": 8080}]}))
            .unwrap()
    }

    fn probe(json: serde_json::Value) -> Probe {
        serde_json::from_value(json).unwrap()
    }

    /// A server answering every request with `status`.
    async fn answering(status: u16) -> u16 {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                let mut buffer = [0u8; 1024];
                let _ = stream.read(&mut buffer).await;
                let _ = stream.write_all(format!("HTTP/1.1 {status} X\r\nContent-Length: 0\r\n\r\n").as_bytes()).await;
            }
        });
        port
    }

    #[tokio::test]
    async fn http_probes_pass_below_400_and_say_why_they_fail() {
        let ok = answering(200).await;
        let bad = answering(503).await;
        let c = container();
        let passing = probe(serde_json::json!({"httpGet": {"path": "/healthz", "port": ok}}));
        assert_eq!(run(&passing, &c, "127.0.0.1", None).await, None);
        let failing = probe(serde_json::json!({"httpGet": {"path": "/healthz", "port": bad}}));
        assert_eq!(run(&failing, &c, "127.0.0.1", None).await.unwrap(), "HTTP probe failed with statuscode: 503");
        let closed = TcpListener::bind("127.0.0.1:0").await.unwrap().local_addr().unwrap().port();
        let refused = probe(serde_json::json!({"httpGet": {"path": "/ready", "port": closed}}));
        assert_eq!(
            run(&refused, &c, "127.0.0.1", None).await.unwrap(),
            format!(
                "Get \"http://127.0.0.1:{closed}/ready\": dial tcp 127.0.0.1:{closed}: connect: connection refused"
            )
        );
    }

    #[tokio::test]
    async fn tcp_probes_connect_and_named_ports_resolve() {
        let open = answering(200).await;
        let c = container();
        assert_eq!(run(&probe(serde_json::json!({"tcpSocket": {"port": open}})), &c, "127.0.0.1", None).await, None);
        assert_eq!(resolve_port(&IntOrString::String("http".into()), &c), Ok(8080));
        assert_eq!(
            resolve_port(&IntOrString::String("nope".into()), &c).unwrap_err(),
            "strconv.Atoi: parsing \"nope\": invalid syntax"
        );
        assert_eq!(resolve_port(&IntOrString::Int(0), &c).unwrap_err(), "invalid port number: 0");
    }
}
