//! gRPC health checks on a container's port: HTTP/2 with prior knowledge (the kubelet's gRPC
//! prober and grpc-go clients open with the preface, no upgrade), and
//! `/grpc.health.v1.Health/Check` answered from the process's `grpcHealth` at that moment, as
//! grpc-go's health server (google.golang.org/grpc/health) answers it. The two protobuf
//! messages have one field each and are encoded by hand.

use super::{Answer, READ_TIMEOUT};
use bytes::Bytes;
use h2::RecvStream;
use h2::server::SendResponse;
use http::{HeaderMap, HeaderValue, Request, Response};
use std::net::TcpStream;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// HTTP/2's client connection preface (RFC 9113 §3.4).
const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
/// The one method served.
const CHECK: &str = "/grpc.health.v1.Health/Check";
/// What the process is asked (ABI.md: `grpc:SERVICE`); the service alone follows.
pub const TARGET: &str = "grpc:";
/// A request message larger than this is refused (a health check's is a service name).
const MAX_MESSAGE: usize = 64 * 1024;
/// gRPC status codes (google.golang.org/grpc/codes).
const UNIMPLEMENTED: u32 = 12;
const UNAVAILABLE: u32 = 14;

/// Whether the connection opens with HTTP/2's preface; looks without taking anything, so an
/// HTTP/1 request (or a TCP probe's bare connect) is read as before.
pub fn opens_with_preface(stream: &TcpStream) -> bool {
    let mut start = [0u8; PREFACE.len()];
    let deadline = Instant::now() + READ_TIMEOUT;
    loop {
        let seen = match stream.peek(&mut start) {
            Ok(seen) => seen,
            Err(_) => return false,
        };
        if seen == 0 || start[..seen] != PREFACE[..seen] {
            return false;
        }
        if seen == PREFACE.len() {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Serves the connection's streams until the client closes it or leaves it idle; `ask` puts a
/// target to the process (its answer, or `None` when it gave none).
pub fn serve(stream: TcpStream, ask: impl Fn(String) -> Option<Answer> + Send + Sync + 'static) {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_io().enable_time().build();
    let Ok(runtime) = runtime else { return };
    let ask = Arc::new(ask);
    runtime.block_on(async move {
        let Ok(stream) = stream.set_nonblocking(true).and_then(|()| tokio::net::TcpStream::from_std(stream)) else {
            return;
        };
        let Ok(mut connection) = h2::server::handshake(stream).await else { return };
        while let Ok(Some(Ok((request, respond)))) = tokio::time::timeout(READ_TIMEOUT, connection.accept()).await {
            let ask = ask.clone();
            tokio::spawn(async move { call(request, respond, move |t| (*ask)(t)).await });
        }
    });
}

/// One call: the request message read, the process asked, the answer sent.
async fn call(
    request: Request<RecvStream>,
    mut respond: SendResponse<Bytes>,
    ask: impl FnOnce(String) -> Option<Answer> + Send + 'static,
) {
    let path = request.uri().path().to_string();
    let Some(message) = read_message(request.into_body()).await else {
        return respond.send_reset(h2::Reason::PROTOCOL_ERROR);
    };
    if path != CHECK {
        return fail(respond, UNIMPLEMENTED, &unimplemented(&path));
    }
    let target = format!("{TARGET}{}", service(&message));
    let answer = tokio::task::spawn_blocking(move || ask(target)).await.ok().flatten();
    match answer {
        Some(Answer { status: 200, body, .. }) => reply(respond, health_status(&body)),
        // It has stopped speaking gRPC: a server without the health service.
        Some(_) => fail(respond, UNIMPLEMENTED, "unknown service grpc.health.v1.Health"),
        None => fail(respond, UNAVAILABLE, "the process did not answer"),
    }
}

/// The request's one length-prefixed message (gRPC's 5-byte prefix taken off).
async fn read_message(mut body: RecvStream) -> Option<Vec<u8>> {
    let mut bytes = Vec::new();
    while let Some(chunk) = body.data().await {
        let chunk = chunk.ok()?;
        let _ = body.flow_control().release_capacity(chunk.len());
        bytes.extend_from_slice(&chunk);
        if bytes.len() > MAX_MESSAGE {
            return None;
        }
    }
    match bytes.as_slice() {
        [] => Some(Vec::new()),
        [0, a, b, c, d, message @ ..] if u32::from_be_bytes([*a, *b, *c, *d]) as usize == message.len() => {
            Some(message.to_vec())
        }
        _ => None,
    }
}

/// grpc-go's words for a method it does not serve.
fn unimplemented(path: &str) -> String {
    let (service, method) = path.trim_start_matches('/').rsplit_once('/').unwrap_or((path, ""));
    if service == "grpc.health.v1.Health" {
        format!("unknown method {method} for service {service}")
    } else {
        format!("unknown service {service}")
    }
}

/// `HealthCheckRequest.service` (field 1, a string); empty when absent.
fn service(message: &[u8]) -> String {
    match message {
        [0x0a, len, rest @ ..] if (*len as usize) <= rest.len() && *len < 0x80 => {
            String::from_utf8_lossy(&rest[..*len as usize]).into_owned()
        }
        _ => String::new(),
    }
}

/// `HealthCheckResponse.ServingStatus` by name.
fn health_status(name: &str) -> u8 {
    match name.trim() {
        "SERVING" => 1,
        "NOT_SERVING" => 2,
        "SERVICE_UNKNOWN" => 3,
        _ => 0,
    }
}

fn headers() -> Response<()> {
    let mut response = Response::new(());
    response.headers_mut().insert("content-type", HeaderValue::from_static("application/grpc"));
    response
}

/// `HealthCheckResponse{status}` (field 1, a varint; proto3 leaves out 0), then `grpc-status: 0`.
fn reply(mut respond: SendResponse<Bytes>, status: u8) {
    let message: &[u8] = if status == 0 { &[] } else { &[0x08, status] };
    let mut framed = vec![0, 0, 0, 0, message.len() as u8];
    framed.extend_from_slice(message);
    let Ok(mut body) = respond.send_response(headers(), false) else { return };
    let _ = body.send_data(Bytes::from(framed), false);
    let mut trailers = HeaderMap::new();
    trailers.insert("grpc-status", HeaderValue::from_static("0"));
    let _ = body.send_trailers(trailers);
}

/// A trailers-only answer: the status and message in the headers, no body.
fn fail(mut respond: SendResponse<Bytes>, code: u32, message: &str) {
    let mut response = headers();
    response.headers_mut().insert("grpc-status", HeaderValue::from(code));
    if let Ok(message) = HeaderValue::from_str(message) {
        response.headers_mut().insert("grpc-message", message);
    }
    let _ = respond.send_response(response, true);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_and_methods_read_as_grpc_go_reads_them() {
        assert_eq!(service(&[0x0a, 3, b'a', b'p', b'i']), "api");
        assert_eq!(service(&[]), "");
        assert_eq!(health_status("NOT_SERVING"), 2);
        assert_eq!(health_status("UNKNOWN"), 0);
        assert_eq!(
            unimplemented("/grpc.health.v1.Health/Watch"),
            "unknown method Watch for service grpc.health.v1.Health"
        );
        assert_eq!(unimplemented("/helloworld.Greeter/SayHello"), "unknown service helloworld.Greeter");
    }
}
