//! The gRPC prober (pkg/probe/grpc): `grpc.health.v1.Health/Check` over HTTP/2 with prior
//! knowledge, the dial retried until the probe's timeout as `grpc.WithBlock` retries it, and
//! upstream's messages for each way it fails. The two protobuf messages are encoded by hand.

use bytes::Bytes;
use http::{HeaderMap, Request};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio::time::Instant;

/// Between dial attempts (grpc-go backs off from one second; a probe's timeout is often one).
const REDIAL: Duration = Duration::from_millis(100);
/// `HealthCheckResponse.ServingStatus` names.
const STATUS_NAMES: [&str; 4] = ["UNKNOWN", "SERVING", "NOT_SERVING", "SERVICE_UNKNOWN"];
/// google.golang.org/grpc/codes, as `Code.String()` names them.
const CODE_NAMES: [&str; 17] = [
    "OK",
    "Canceled",
    "Unknown",
    "InvalidArgument",
    "DeadlineExceeded",
    "NotFound",
    "AlreadyExists",
    "PermissionDenied",
    "ResourceExhausted",
    "FailedPrecondition",
    "Aborted",
    "OutOfRange",
    "Unimplemented",
    "Internal",
    "Unavailable",
    "DataLoss",
    "Unauthenticated",
];

/// How a call went wrong.
enum CallError {
    /// No HTTP/2 answer at all: the connection failed, or what answered is not HTTP/2.
    Transport,
    /// A gRPC status other than OK: code and message.
    Status(u32, String),
}

/// Probes `address` for `service`; `None` when it is `SERVING`, else upstream's message.
pub async fn probe(address: &str, service: &str, timeout: Duration) -> Option<String> {
    let deadline = Instant::now() + timeout;
    let go_timeout = kubelab_core::sim::time::Duration(timeout.as_millis() as u64);
    loop {
        match tokio::time::timeout_at(deadline, check(address, service)).await {
            Ok(Ok(1)) => return None,
            Ok(Ok(status)) => {
                let name = STATUS_NAMES.get(status as usize).copied().unwrap_or("UNKNOWN");
                return Some(format!("service unhealthy (responded with {name:?})"));
            }
            Ok(Err(CallError::Status(12, message))) => {
                return Some(format!(
                    "error: this server does not implement the grpc health protocol (grpc.health.v1.Health): {message}"
                ));
            }
            Ok(Err(CallError::Status(code, message))) => {
                let code = CODE_NAMES.get(code as usize).map_or(format!("Code({code})"), |n| n.to_string());
                return Some(format!("error: health rpc probe failed: rpc error: code = {code} desc = {message}"));
            }
            Ok(Err(CallError::Transport)) if Instant::now() + REDIAL < deadline => tokio::time::sleep(REDIAL).await,
            // The dial never succeeded within the timeout (nothing listens, or no HTTP/2 there).
            Ok(Err(CallError::Transport)) | Err(_) => {
                return Some(format!(
                    "timeout: failed to connect service {address:?} within {go_timeout}: context deadline exceeded"
                ));
            }
        }
    }
}

/// One connection and one `Check`: the serving status.
async fn check(address: &str, service: &str) -> Result<u8, CallError> {
    let stream = TcpStream::connect(address).await.map_err(|_| CallError::Transport)?;
    let (client, connection) = h2::client::handshake(stream).await.map_err(|_| CallError::Transport)?;
    let driver = tokio::spawn(connection);
    let answer = call(client, address, service).await;
    driver.abort();
    answer
}

async fn call(client: h2::client::SendRequest<Bytes>, address: &str, service: &str) -> Result<u8, CallError> {
    let mut client = client.ready().await.map_err(|_| CallError::Transport)?;
    let request = Request::post(format!("http://{address}/grpc.health.v1.Health/Check"))
        .header("content-type", "application/grpc")
        .header("te", "trailers")
        .header("user-agent", super::USER_AGENT)
        .body(())
        .map_err(|_| CallError::Transport)?;
    let (response, mut body) = client.send_request(request, false).map_err(|_| CallError::Transport)?;
    body.send_data(Bytes::from(frame(&request_message(service))), true).map_err(|_| CallError::Transport)?;
    let response = response.await.map_err(|_| CallError::Transport)?;
    if let Some(status) = grpc_status(response.headers()) {
        return Err(status);
    }
    let mut body = response.into_body();
    let mut bytes = Vec::new();
    while let Some(chunk) = body.data().await {
        let chunk = chunk.map_err(|e| CallError::Status(14, e.to_string()))?;
        let _ = body.flow_control().release_capacity(chunk.len());
        bytes.extend_from_slice(&chunk);
    }
    let trailers = body.trailers().await.map_err(|e| CallError::Status(14, e.to_string()))?.unwrap_or_default();
    match grpc_status(&trailers) {
        Some(status) => Err(status),
        None => Ok(serving_status(bytes.get(5..).unwrap_or_default())),
    }
}

/// `HealthCheckRequest{service}`: field 1, a string (left out when empty, as proto3 does).
fn request_message(service: &str) -> Vec<u8> {
    let service = &service.as_bytes()[..service.len().min(127)];
    if service.is_empty() { Vec::new() } else { [&[0x0a, service.len() as u8][..], service].concat() }
}

/// gRPC's length prefix: not compressed, then the length, big-endian.
fn frame(message: &[u8]) -> Vec<u8> {
    let mut framed = vec![0];
    framed.extend_from_slice(&(message.len() as u32).to_be_bytes());
    framed.extend_from_slice(message);
    framed
}

/// `HealthCheckResponse.status` (field 1, a varint); 0 (`UNKNOWN`) when absent.
fn serving_status(message: &[u8]) -> u8 {
    match message {
        [0x08, status, ..] => *status,
        _ => 0,
    }
}

/// A non-OK `grpc-status` (and its `grpc-message`) in headers or trailers.
fn grpc_status(headers: &HeaderMap) -> Option<CallError> {
    let code: u32 = headers.get("grpc-status")?.to_str().ok()?.parse().ok()?;
    let message = headers.get("grpc-message").and_then(|m| m.to_str().ok()).unwrap_or_default();
    (code != 0).then(|| CallError::Status(code, message.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_encode_as_protobuf_does() {
        assert_eq!(frame(&request_message("api")), [0, 0, 0, 0, 5, 0x0a, 3, b'a', b'p', b'i']);
        assert_eq!(frame(&request_message("")), [0, 0, 0, 0, 0]);
        assert_eq!(serving_status(&[0x08, 2]), 2);
        assert_eq!(serving_status(&[]), 0);
    }
}
