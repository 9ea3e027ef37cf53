//! `kubectl port-forward` against a served lab: `…/pods/<name>/portforward` upgraded to SPDY/3.1,
//! tunnelled in WebSocket binary messages (`SPDY/3.1+portforward.k8s.io`, kubectl's first try)
//! or spoken plainly (`Upgrade: SPDY/3.1`, its fallback). Each local connection opens an error
//! and a data stream sharing a `requestID`; once both are there the lab opens the port in the
//! pod, and each HTTP request on the data stream gets the pod's answer. Mirrors the kubelet's
//! handler, pkg/kubelet/cri/streaming/portforward/httpstream.go.

use super::lab::ApiLab;
use super::spdy::frame::{self, FLAG_FIN, Frame};
use super::spdy::headers;
use super::spdy::zlib::{Deflater, Inflater};
use super::{ServedLab, respond, status_response, stopped};
use axum::body::Body;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode, header, request::Parts};
use axum::response::{IntoResponse, Response};
use hyper_util::rt::TokioIo;
use kubelab_core::apiserver::rest::HttpResponse;
use kubelab_core::network::http1;
use kubelab_core::network::port_forward::{self as forwarding, Forward};
use kubelab_core::store::UserInfo;
use std::collections::HashMap;
use std::sync::Arc;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The port-forward protocol (client-go's `PortForwardProtocolV1Name`).
pub const PROTOCOL: &str = "portforward.k8s.io";
/// The same, tunnelled in a WebSocket (`constants.WebsocketsSPDYTunnelingPrefix` + it).
pub const TUNNELLED: &str = "SPDY/3.1+portforward.k8s.io";
/// The largest frame read (kubectl writes 32 KiB of data at a time).
const MAX_FRAME: usize = 1 << 20;
/// The most a header block inflates to.
const MAX_HEADER_BLOCK: usize = 64 * 1024;
/// The most streams open at once on one connection.
const MAX_STREAMS: usize = 512;
/// The most bytes a data stream holds before its request is whole.
const MAX_PENDING: usize = http1::MAX_HEAD + http1::MAX_BODY + 64 * 1024;
/// The most data one DATA frame carries.
const CHUNK: usize = 32 * 1024;

/// Who asks to forward to which pod.
pub struct Target {
    user: Arc<UserInfo>,
    namespace: String,
    pod: String,
}

/// A port-forward request: `…/namespaces/<ns>/pods/<name>/portforward`.
pub fn target_of(parts: &Parts, user: &Arc<UserInfo>) -> Option<Target> {
    use kubelab_core::apiserver::rest::path::{Target as Path, parse};
    let Some(Path::Resource(path)) = parse(parts.uri.path()) else { return None };
    let wanted = path.group.is_empty() && path.resource == "pods" && !path.name.is_empty();
    (wanted && path.subresource == "portforward").then(|| Target {
        user: user.clone(),
        namespace: path.namespace,
        pod: path.name,
    })
}

/// Checks the request as the API server does, then upgrades it.
pub async fn start(served: ServedLab, mut parts: Parts, target: Target) -> Response {
    if served.lab.records_input() {
        // A forwarded request may change the lab (a memory hog's route), and a hosted lab keeps
        // everything that changes it as its input; these requests are not kept yet.
        let message = "port-forward into a hosted lab is not served yet; `kubelab up` serves it";
        return super::status_response(400, "BadRequest", message);
    }
    let Target { user, namespace, pod } = target;
    let refusal = |error| Box::new(HttpResponse::from_error(error));
    let found =
        served.lab.on_thread(move |sim| forwarding::target(sim, &user, (&namespace, &pod)).map_err(refusal)).await;
    let forward = match found {
        Ok(Ok(forward)) => forward,
        Ok(Err(refused)) => return respond(*refused),
        Err(_) => return stopped(),
    };
    let session = Session::new(served.lab.clone(), forward);
    if parts.headers.contains_key(header::SEC_WEBSOCKET_KEY) {
        use axum::extract::FromRequestParts;
        return match WebSocketUpgrade::from_request_parts(&mut parts, &served).await {
            Ok(upgrade) => upgrade
                .protocols([TUNNELLED])
                .max_message_size(2 * MAX_FRAME)
                .on_upgrade(move |socket| session.run(Tunnel::WebSocket(Box::new(socket)))),
            Err(rejection) => rejection.into_response(),
        };
    }
    spdy_upgrade(parts, session)
}

/// The plain SPDY upgrade (apimachinery's httpstream/spdy `Upgrader`).
fn spdy_upgrade(mut parts: Parts, session: Session) -> Response {
    let asks = |name: header::HeaderName, value: &str| {
        parts.headers.get_all(name).iter().any(|v| v.to_str().is_ok_and(|v| v.eq_ignore_ascii_case(value)))
    };
    if !asks(header::UPGRADE, "SPDY/3.1") {
        return status_response(400, "BadRequest", "Upgrade request required");
    }
    if !offers(&parts.headers) {
        let message = format!(
            "unable to upgrade: unable to negotiate protocol: client supports {:?}, server supports [{PROTOCOL}]",
            protocols(&parts.headers)
        );
        return status_response(403, "Forbidden", &message);
    }
    let Some(upgrading) = parts.extensions.remove::<hyper::upgrade::OnUpgrade>() else {
        return status_response(400, "BadRequest", "unable to upgrade: the connection cannot be upgraded");
    };
    tokio::spawn(async move {
        if let Ok(upgraded) = upgrading.await {
            session.run(Tunnel::Spdy(Box::new(TokioIo::new(upgraded)))).await;
        }
    });
    let mut response = Response::new(Body::empty());
    *response.status_mut() = StatusCode::SWITCHING_PROTOCOLS;
    let headers = response.headers_mut();
    headers.insert(header::CONNECTION, header::HeaderValue::from_static("Upgrade"));
    headers.insert(header::UPGRADE, header::HeaderValue::from_static("SPDY/3.1"));
    headers.insert("X-Stream-Protocol-Version", header::HeaderValue::from_static(PROTOCOL));
    response
}

fn protocols(headers: &HeaderMap) -> Vec<String> {
    let values = headers.get_all("X-Stream-Protocol-Version").iter().filter_map(|v| v.to_str().ok());
    values.flat_map(|v| v.split(',')).map(|p| p.trim().to_string()).filter(|p| !p.is_empty()).collect()
}

/// Whether the client speaks the protocol (one that names none is taken to).
fn offers(headers: &HeaderMap) -> bool {
    let offered = protocols(headers);
    offered.is_empty() || offered.iter().any(|p| p == PROTOCOL)
}

/// The connection the SPDY bytes travel on.
enum Tunnel {
    /// Each binary message a run of SPDY bytes (client-go's `TunnelingConnection`).
    WebSocket(Box<WebSocket>),
    Spdy(Box<TokioIo<hyper::upgrade::Upgraded>>),
}

impl Tunnel {
    /// The next bytes; `None` once the client has gone.
    async fn read(&mut self) -> Option<Vec<u8>> {
        match self {
            Tunnel::WebSocket(socket) => loop {
                match socket.recv().await? {
                    Ok(Message::Binary(bytes)) => return Some(bytes.to_vec()),
                    Ok(Message::Ping(_) | Message::Pong(_)) => {}
                    // A text message is not SPDY: the client ends there too.
                    Ok(Message::Text(_) | Message::Close(_)) | Err(_) => return None,
                }
            },
            Tunnel::Spdy(io) => {
                let mut buffer = vec![0; 16 * 1024];
                let read = io.read(&mut buffer).await.ok().filter(|n| *n > 0)?;
                buffer.truncate(read);
                Some(buffer)
            }
        }
    }

    async fn write(&mut self, bytes: Vec<u8>) -> bool {
        match self {
            Tunnel::WebSocket(socket) => socket.send(Message::Binary(bytes.into())).await.is_ok(),
            Tunnel::Spdy(io) => io.write_all(&bytes).await.is_ok() && io.flush().await.is_ok(),
        }
    }
}

/// Why a session ends.
enum End {
    /// The client said GOAWAY.
    GoneAway,
    /// Bytes that are not SPDY: the server says GOAWAY with PROTOCOL_ERROR.
    Protocol,
    /// The lab has stopped.
    Stopped,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Error,
    Data,
}

/// One forwarded connection: its two streams and the bytes its client sent.
#[derive(Default)]
struct Pair {
    port: u16,
    error: Option<u32>,
    data: Option<u32>,
    open: bool,
    /// The client closed its half of the data stream before the pair was open.
    finished: bool,
    input: Vec<u8>,
}

/// The server's side of one SPDY connection.
struct Session {
    lab: ApiLab,
    forward: Forward,
    inflater: Inflater,
    deflater: Deflater,
    /// Each open stream's requestID and kind.
    streams: HashMap<u32, (String, Kind)>,
    pairs: HashMap<String, Pair>,
    last_stream: u32,
}

impl Session {
    fn new(lab: ApiLab, forward: Forward) -> Session {
        Session {
            lab,
            forward,
            inflater: Inflater::default(),
            deflater: Deflater::default(),
            streams: HashMap::new(),
            pairs: HashMap::new(),
            last_stream: 0,
        }
    }

    /// Reads frames until the client goes; answers each as it comes.
    async fn run(mut self, mut tunnel: Tunnel) {
        let mut input = Vec::new();
        while let Some(bytes) = tunnel.read().await {
            input.extend_from_slice(&bytes);
            loop {
                let (frame, used) = match frame::parse(&input, MAX_FRAME) {
                    Ok(Some(found)) => found,
                    Ok(None) => break,
                    Err(_) => return protocol_error(&mut tunnel, self.last_stream).await,
                };
                input.drain(..used);
                let mut out = Vec::new();
                let handled = self.handle(frame, &mut out).await;
                if !out.is_empty() && !tunnel.write(out).await {
                    return;
                }
                match handled {
                    Ok(()) => {}
                    Err(End::Protocol) => return protocol_error(&mut tunnel, self.last_stream).await,
                    Err(End::GoneAway | End::Stopped) => return,
                }
            }
        }
    }

    async fn handle(&mut self, frame: Frame, out: &mut Vec<u8>) -> Result<(), End> {
        match frame {
            Frame::SynStream { stream, block, .. } => self.syn_stream(stream, &block, out).await,
            Frame::Data { stream, flags, data } => self.data(stream, flags & FLAG_FIN != 0, data, out).await,
            // Their header blocks go through the shared zlib stream, needed or not.
            Frame::SynReply { block, .. } | Frame::Headers { block, .. } => {
                self.inflater.inflate(&block, MAX_HEADER_BLOCK).map(drop).map_err(|_| End::Protocol)
            }
            Frame::RstStream { stream, .. } => {
                self.reset(stream, out);
                Ok(())
            }
            // spdystream answers a ping the other side started (odd ids are the client's).
            Frame::Ping { id } if id % 2 == 1 => {
                out.extend(Frame::Ping { id }.encode());
                Ok(())
            }
            Frame::GoAway { .. } => Err(End::GoneAway),
            Frame::Ping { .. } | Frame::Ignored => Ok(()),
        }
    }

    /// A new stream: replied to when its headers are the kubelet's (`streamType`, `port`,
    /// `requestID`), reset when not; the second of a pair opens the port.
    async fn syn_stream(&mut self, stream: u32, block: &[u8], out: &mut Vec<u8>) -> Result<(), End> {
        let block = self.inflater.inflate(block, MAX_HEADER_BLOCK).map_err(|_| End::Protocol)?;
        let pairs = headers::decode(&block).map_err(|_| End::Protocol)?;
        // spdystream refuses a stream id that is not the client's next (odd, increasing).
        if stream.is_multiple_of(2) || stream <= self.last_stream {
            out.extend(Frame::RstStream { stream, status: frame::PROTOCOL_ERROR }.encode());
            return Ok(());
        }
        self.last_stream = stream;
        let Some((kind, port, request)) = accepted(&pairs) else {
            out.extend(Frame::RstStream { stream, status: frame::CANCEL }.encode());
            return Ok(());
        };
        let full = self.streams.len() >= MAX_STREAMS;
        let pair = self.pairs.entry(request.clone()).or_insert_with(|| Pair { port, ..Pair::default() });
        let slot = if kind == Kind::Error { &mut pair.error } else { &mut pair.data };
        if slot.is_some() || full {
            out.extend(Frame::RstStream { stream, status: frame::REFUSED_STREAM }.encode());
            return Ok(());
        }
        *slot = Some(stream);
        let complete = pair.error.is_some() && pair.data.is_some();
        self.streams.insert(stream, (request.clone(), kind));
        let reply = self.deflater.deflate(&headers::encode(&[]));
        out.extend(Frame::SynReply { stream, flags: 0, block: reply }.encode());
        if complete { self.open(&request, out).await } else { Ok(()) }
    }

    /// Both streams are there: the runtime dials the port in the pod.
    async fn open(&mut self, request: &str, out: &mut Vec<u8>) -> Result<(), End> {
        let Some(port) = self.pairs.get(request).map(|p| p.port) else { return Ok(()) };
        let forward = self.forward.clone();
        let opened = self.lab.on_thread(move |sim| forwarding::open(sim, &forward, port)).await;
        match opened.map_err(|_| End::Stopped)? {
            Ok(()) => {
                if let Some(pair) = self.pairs.get_mut(request) {
                    pair.open = true;
                }
                self.serve(request, out).await
            }
            Err(message) => {
                self.finish(request, Some(&message), out);
                Ok(())
            }
        }
    }

    /// Bytes on a stream: a data stream's are the client's requests.
    async fn data(&mut self, stream: u32, fin: bool, data: Vec<u8>, out: &mut Vec<u8>) -> Result<(), End> {
        let Some((request, Kind::Data)) = self.streams.get(&stream).cloned() else { return Ok(()) };
        let Some(pair) = self.pairs.get_mut(&request) else { return Ok(()) };
        pair.input.extend_from_slice(&data);
        pair.finished |= fin;
        if pair.input.len() > MAX_PENDING {
            self.finish(&request, None, out);
            return Ok(());
        }
        if pair.open { self.serve(&request, out).await } else { Ok(()) }
    }

    /// Answers each whole request the data stream holds; when the client has closed its half,
    /// the server closes the connection too (as the runtime does once one direction ends).
    async fn serve(&mut self, request_id: &str, out: &mut Vec<u8>) -> Result<(), End> {
        loop {
            let Some(pair) = self.pairs.get_mut(request_id) else { return Ok(()) };
            let (request, used) = match http1::read(&pair.input) {
                http1::Read::Request(request, used) => (request, used),
                http1::Read::Incomplete => {
                    if pair.finished {
                        self.finish(request_id, None, out);
                    }
                    return Ok(());
                }
                http1::Read::Malformed(status) => {
                    self.send(request_id, &http1::refusal(status), out);
                    self.finish(request_id, None, out);
                    return Ok(());
                }
            };
            pair.input.drain(..used);
            let (forward, port) = (self.forward.clone(), pair.port);
            let answer = self.lab.on_thread(move |sim| forwarding::exchange(sim, &forward, port, &request)).await;
            match answer.map_err(|_| End::Stopped)? {
                Ok(exchange) => {
                    self.send(request_id, &exchange.response, out);
                    if exchange.close {
                        self.finish(request_id, None, out);
                        return Ok(());
                    }
                }
                Err(message) => {
                    self.finish(request_id, Some(&message), out);
                    return Ok(());
                }
            }
        }
    }

    /// DATA frames on the pair's data stream.
    fn send(&self, request: &str, bytes: &[u8], out: &mut Vec<u8>) {
        let Some(stream) = self.pairs.get(request).and_then(|p| p.data) else { return };
        for chunk in bytes.chunks(CHUNK) {
            out.extend(Frame::Data { stream, flags: 0, data: chunk.to_vec() }.encode());
        }
    }

    /// Ends a forwarded connection as the kubelet does: the error (if any) on the error stream,
    /// then both streams closed, the error stream first.
    fn finish(&mut self, request: &str, error: Option<&str>, out: &mut Vec<u8>) {
        let Some(pair) = self.pairs.get(request) else { return };
        if let (Some(stream), Some(message)) = (pair.error, error) {
            out.extend(Frame::Data { stream, flags: 0, data: message.as_bytes().to_vec() }.encode());
        }
        for stream in [pair.error, pair.data].into_iter().flatten() {
            out.extend(Frame::Data { stream, flags: FLAG_FIN, data: Vec::new() }.encode());
        }
        self.close(request);
    }

    /// The client reset a stream (its local connection failed): the forward ends, and the
    /// other stream is closed so the client's wait on it ends too.
    fn reset(&mut self, stream: u32, out: &mut Vec<u8>) {
        let Some((request, kind)) = self.streams.get(&stream).cloned() else { return };
        let pair = self.pairs.get(&request);
        let other = pair.and_then(|p| if kind == Kind::Data { p.error } else { p.data });
        if let Some(other) = other {
            out.extend(Frame::Data { stream: other, flags: FLAG_FIN, data: Vec::new() }.encode());
        }
        self.close(&request);
    }

    /// Forgets a pair and its streams (closed, or reset by the client).
    fn close(&mut self, request: &str) {
        if let Some(pair) = self.pairs.remove(request) {
            for stream in [pair.error, pair.data].into_iter().flatten() {
                self.streams.remove(&stream);
            }
        }
    }
}

/// A stream's kind, port and requestID, when its headers are valid (the kubelet's
/// `httpStreamReceived`: a known `streamType`, a port from 1 to 65535).
fn accepted(pairs: &[(String, String)]) -> Option<(Kind, u16, String)> {
    let kind = match headers::get(pairs, "streamtype")? {
        "error" => Kind::Error,
        "data" => Kind::Data,
        _ => return None,
    };
    let port = headers::get(pairs, "port")?.parse::<u16>().ok().filter(|p| *p > 0)?;
    let request = headers::get(pairs, "requestid").unwrap_or_default().to_string();
    Some((kind, port, request))
}

async fn protocol_error(tunnel: &mut Tunnel, last_good: u32) {
    let _ = tunnel.write(Frame::GoAway { last_good, status: frame::PROTOCOL_ERROR }.encode()).await;
}

#[cfg(test)]
mod tests {
    use super::super::spdy::zlib::{CLIENT_BLOCKS, hex};
    use super::*;
    use kubelab_core::cluster::ClusterSpec;

    /// A session on a lab with no such pod: what it writes for each frame, and how it ends.
    async fn replies(frames: Vec<Frame>) -> (Vec<Frame>, Option<&'static str>) {
        let lab = ApiLab::start(1, &ClusterSpec::default(), super::super::lab::Clock::Paused).unwrap();
        let gone = Forward { namespace: "default".into(), pod: "gone".into(), uid: Default::default() };
        let mut session = Session::new(lab, gone);
        let mut written = Vec::new();
        for frame in frames {
            let mut out = Vec::new();
            let ended = session.handle(frame, &mut out).await;
            written.extend(out);
            let reason = match ended {
                Ok(()) => continue,
                Err(End::GoneAway) => "goaway",
                Err(End::Protocol) => "protocol",
                Err(End::Stopped) => "stopped",
            };
            return (read_all(&written), Some(reason));
        }
        (read_all(&written), None)
    }

    fn read_all(mut bytes: &[u8]) -> Vec<Frame> {
        let mut frames = Vec::new();
        while let Some((frame, used)) = frame::parse(bytes, MAX_FRAME).unwrap() {
            frames.push(frame);
            bytes = &bytes[used..];
        }
        frames
    }

    fn syn(stream: u32, block: &str) -> Frame {
        Frame::SynStream { stream, flags: 0, block: hex(block) }
    }

    #[tokio::test]
    async fn a_pair_is_replied_to_then_answered_with_the_kubelets_error() {
        let frames = vec![syn(1, CLIENT_BLOCKS[0]), syn(3, CLIENT_BLOCKS[1]), Frame::Ping { id: 1 }];
        let (written, ended) = replies(frames).await;
        assert_eq!(ended, None);
        let [Frame::SynReply { stream: 1, .. }, Frame::SynReply { stream: 3, .. }, error, fin_error, fin_data, ping] =
            written.as_slice()
        else {
            panic!("{written:?}")
        };
        let Frame::Data { stream: 1, flags: 0, data } = error else { panic!("{error:?}") };
        let message = String::from_utf8_lossy(data);
        assert!(message.starts_with("error forwarding port 8080 to pod "), "{message}");
        assert!(message.contains("uid : failed to find sandbox"), "{message}");
        assert_eq!(fin_error, &Frame::Data { stream: 1, flags: FLAG_FIN, data: vec![] });
        assert_eq!(fin_data, &Frame::Data { stream: 3, flags: FLAG_FIN, data: vec![] });
        assert_eq!(ping, &Frame::Ping { id: 1 });
    }

    #[tokio::test]
    async fn hostile_frames_end_the_session_cleanly() {
        // A header block that is not zlib: the connection goes away with PROTOCOL_ERROR.
        let (_, ended) = replies(vec![syn(1, "00ff00ff")]).await;
        assert_eq!(ended, Some("protocol"));
        // A stream id that goes backwards is reset; data for unknown streams is dropped.
        let frames = vec![
            syn(3, CLIENT_BLOCKS[0]),
            syn(1, CLIENT_BLOCKS[1]),
            Frame::Data { stream: 9, flags: FLAG_FIN, data: b"GET / HTTP/1.1\r\n\r\n".to_vec() },
            Frame::RstStream { stream: 3, status: frame::CANCEL },
            Frame::GoAway { last_good: 0, status: 0 },
        ];
        let (written, ended) = replies(frames).await;
        assert_eq!(ended, Some("goaway"));
        assert!(
            matches!(written[..], [Frame::SynReply { stream: 3, .. }, Frame::RstStream { stream: 1, .. }]),
            "{written:?}"
        );
    }

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect()
    }

    #[test]
    fn streams_are_taken_as_the_kubelet_takes_them() {
        let data = pairs(&[("streamtype", "data"), ("port", "8080"), ("requestid", "7")]);
        assert_eq!(accepted(&data), Some((Kind::Data, 8080, "7".into())));
        let refused = [
            pairs(&[("streamtype", "stdin"), ("port", "80")]),
            pairs(&[("streamtype", "error"), ("port", "0")]),
            pairs(&[("streamtype", "error"), ("port", "65536")]),
            pairs(&[("streamtype", "error")]),
        ];
        for headers in refused {
            assert_eq!(accepted(&headers), None, "{headers:?}");
        }
    }
}
