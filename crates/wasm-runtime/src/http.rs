//! A container's open ports, served for real: a TCP listener on the pod's IP per port the guest
//! listens on, and HTTP/1.1 on each connection (one request, `Connection: close`) handed to the
//! guest. A TCP probe is a connect; an HTTP probe is a GET, as the kubelet's prober sends it; a
//! gRPC probe is HTTP/2 (`grpc.rs`), answered while the process speaks gRPC.

mod grpc;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, SyncSender, TrySendError};
use std::thread;
use std::time::Duration;

/// A request head larger than this is refused (Go's `DefaultMaxHeaderBytes` is 1 MiB; probes
/// and curl send a few hundred bytes).
const MAX_HEAD: usize = 16 * 1024;
/// A request body is read (so closing does not reset the connection) and dropped, up to this.
const MAX_BODY: u64 = 1 << 20;
/// Connections one port serves at once; more are closed at once (a bounded accept queue).
const MAX_CONNECTIONS: usize = 64;
const READ_TIMEOUT: Duration = Duration::from_secs(10);

/// A request for the container's process, and where its answer goes.
pub struct Request {
    pub target: String,
    pub reply: SyncSender<Answer>,
}

/// The process's answer.
#[derive(Clone, Debug)]
pub struct Answer {
    pub status: u16,
    pub latency: Duration,
    pub body: String,
}

/// An open port; dropping it closes it (new connections are refused).
pub struct Listener {
    addr: SocketAddr,
    closed: Arc<AtomicBool>,
}

impl Listener {
    /// Binds `ip:port` and serves it, each request sent to `process` (wrapped by `wrap`).
    pub fn open<M: Send + 'static>(
        ip: IpAddr,
        port: u16,
        process: SyncSender<M>,
        wrap: fn(Request) -> M,
        answer_within: Duration,
    ) -> std::io::Result<Listener> {
        let socket = TcpListener::bind((ip, port))?;
        let addr = socket.local_addr()?;
        let closed = Arc::new(AtomicBool::new(false));
        let accepting = closed.clone();
        let open = Arc::new(AtomicUsize::new(0));
        thread::Builder::new().name(format!("listen-{addr}")).spawn(move || {
            for stream in socket.incoming() {
                if accepting.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                if open.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
                    open.fetch_sub(1, Ordering::SeqCst);
                    continue;
                }
                let (process, count) = (process.clone(), open.clone());
                let spawned = thread::Builder::new().name(format!("conn-{addr}")).spawn(move || {
                    serve(stream, &process, wrap, answer_within);
                    count.fetch_sub(1, Ordering::SeqCst);
                });
                if spawned.is_err() {
                    open.fetch_sub(1, Ordering::SeqCst);
                }
            }
        })?;
        Ok(Listener { addr, closed })
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        self.closed.store(true, Ordering::SeqCst);
        // Wakes the accept loop, which sees it is closed and drops the socket.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_millis(200));
    }
}

/// Why the process gave no answer.
enum Unanswered {
    /// Its queue is full.
    Busy,
    /// It has exited.
    Gone,
    /// Not within the time allowed.
    Late,
}

/// Asks the process about `target` and waits for its answer.
fn ask<M>(
    process: &SyncSender<M>,
    wrap: fn(Request) -> M,
    target: String,
    answer_within: Duration,
) -> Result<Answer, Unanswered> {
    let (reply, answer) = mpsc::sync_channel(1);
    match process.try_send(wrap(Request { target, reply })) {
        Ok(()) => answer.recv_timeout(answer_within).map_err(|_| Unanswered::Late),
        Err(TrySendError::Full(_)) => Err(Unanswered::Busy),
        Err(TrySendError::Disconnected(_)) => Err(Unanswered::Gone),
    }
}

/// One connection: HTTP/2 gRPC while the process speaks gRPC, else one HTTP/1 request, one
/// answer, then close (an HTTP/1 server answers HTTP/2's preface 400, as Go's does).
fn serve<M: Send + 'static>(
    stream: TcpStream,
    process: &SyncSender<M>,
    wrap: fn(Request) -> M,
    answer_within: Duration,
) {
    let _ = stream.set_read_timeout(Some(READ_TIMEOUT));
    if grpc::opens_with_preface(&stream) {
        let speaks_grpc = ask(process, wrap, grpc::TARGET.to_string(), answer_within);
        if speaks_grpc.is_ok_and(|answer| answer.status == 200) {
            let process = process.clone();
            let ask = move |target: String| ask(&process, wrap, target, answer_within).ok();
            return grpc::serve(stream, ask);
        }
    }
    let mut reader = BufReader::new(&stream);
    let head = match read_head(&mut reader) {
        Ok(Some(head)) => head,
        Ok(None) => return,
        Err(status) => {
            return respond(&stream, false, &Answer { status, latency: Duration::ZERO, body: String::new() });
        }
    };
    if head.content_length > 0 {
        let _ = std::io::copy(&mut reader.by_ref().take(head.content_length.min(MAX_BODY)), &mut std::io::sink());
    }
    match ask(process, wrap, head.target, answer_within) {
        Ok(answer) => {
            thread::sleep(answer.latency);
            respond(&stream, head.head_only, &answer);
        }
        Err(Unanswered::Busy) => {
            let busy = Answer { status: 503, latency: Duration::ZERO, body: "server busy\n".into() };
            respond(&stream, head.head_only, &busy);
        }
        // The process has exited: the connection is reset, as a dead server's would be.
        Err(Unanswered::Gone | Unanswered::Late) => {}
    }
}

struct Head {
    target: String,
    head_only: bool,
    content_length: u64,
}

/// Reads the request line and headers; `Ok(None)` when the client went away before sending
/// one (a TCP probe), `Err(status)` for a malformed request.
fn read_head(reader: &mut impl BufRead) -> Result<Option<Head>, u16> {
    let mut line = String::new();
    let mut total = 0;
    if reader.read_line(&mut line).unwrap_or(0) == 0 {
        return Ok(None);
    }
    let mut parts = line.trim_end().split(' ');
    let (Some(method), Some(target), Some(version), None) = (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(400);
    };
    if !version.starts_with("HTTP/1.") || !target.starts_with('/') || method.is_empty() {
        return Err(400);
    }
    let (head_only, target) = (method == "HEAD", target.to_string());
    let mut content_length = 0;
    loop {
        let mut header = String::new();
        let read = reader.read_line(&mut header).map_err(|_| 408u16)?;
        total += read;
        if total > MAX_HEAD {
            return Err(431);
        }
        let header = header.trim_end();
        if read == 0 || header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            content_length = value.trim().parse().map_err(|_| 400u16)?;
        }
    }
    Ok(Some(Head { target, head_only, content_length }))
}

fn respond(mut stream: &TcpStream, head_only: bool, answer: &Answer) {
    let content_type = if answer.body.trim_start().starts_with('<') { "text/html" } else { "text/plain" };
    let head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {content_type}; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        answer.status,
        reason(answer.status),
        answer.body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    if !head_only {
        let _ = stream.write_all(answer.body.as_bytes());
    }
    let _ = stream.flush();
    let _ = stream.shutdown(std::net::Shutdown::Write);
}

/// The reason phrase Go's `http.StatusText` gives.
fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        204 => "No Content",
        301 => "Moved Permanently",
        302 => "Found",
        304 => "Not Modified",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "Status",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(text: &str) -> Result<Option<(String, bool, u64)>, u16> {
        read_head(&mut text.as_bytes()).map(|h| h.map(|h| (h.target, h.head_only, h.content_length)))
    }

    #[test]
    fn request_heads_parse_as_a_server_reads_them() {
        assert_eq!(head("GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n"), Ok(Some(("/readyz".into(), false, 0))));
        assert_eq!(head("HEAD /?a=b HTTP/1.0\r\n\r\n"), Ok(Some(("/?a=b".into(), true, 0))));
        assert_eq!(head("POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello"), Ok(Some(("/".into(), false, 5))));
        assert_eq!(head(""), Ok(None));
        assert_eq!(head("GARBAGE\r\n\r\n"), Err(400));
        assert_eq!(head("GET / SPDY/3\r\n\r\n"), Err(400));
        let huge = format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "a".repeat(MAX_HEAD));
        assert_eq!(head(&huge), Err(431));
    }
}
