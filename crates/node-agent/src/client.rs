//! The kubelet's client of the API server (client-go's REST client as the kubelet uses it):
//! JSON requests with a bearer token over pooled HTTP/1.1 (TLS for `https://`), errors that
//! carry the `Status` the server answered, and watches read as newline-delimited events.

use crate::tls::Tls;
use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Method, Request, StatusCode, Uri};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::{Connected, Connection};
use hyper_util::rt::{TokioExecutor, TokioIo};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, RwLock};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::net::TcpStream;

/// How long a plain request may take (a watch has no limit).
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// What went wrong with a request: the server's `Status` (code, reason, message), or a
/// transport error (code 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    pub code: u16,
    pub reason: String,
    pub message: String,
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl ApiError {
    fn transport(message: String) -> ApiError {
        ApiError { code: 0, reason: String::new(), message }
    }

    /// An error that is not the server's answer (code 0).
    pub fn transport_error(message: &str) -> ApiError {
        ApiError::transport(message.to_string())
    }

    /// The error a response with `status` and `body` stands for: its `Status` if it is one.
    pub fn from_response(status: StatusCode, body: &[u8]) -> ApiError {
        let parsed: Option<Value> = serde_json::from_slice(body).ok();
        let field = |name: &str| parsed.as_ref().and_then(|v| v.get(name)).and_then(Value::as_str).map(str::to_string);
        let text = String::from_utf8_lossy(body).trim().to_string();
        let message = field("message").unwrap_or_else(|| {
            if text.is_empty() { status.canonical_reason().unwrap_or("error").to_string() } else { text }
        });
        ApiError { code: status.as_u16(), reason: field("reason").unwrap_or_default(), message }
    }

    pub fn is_not_found(&self) -> bool {
        self.code == 404
    }

    pub fn is_conflict(&self) -> bool {
        self.code == 409
    }

    pub fn is_gone(&self) -> bool {
        self.code == 410
    }
}

/// A client of one API server: its base URL (a lab's, `https://host:6443/k8s/<lab>`) and token.
#[derive(Clone)]
pub struct ApiClient {
    base: String,
    token: Arc<RwLock<String>>,
    http: Client<Connector, Full<Bytes>>,
}

impl std::fmt::Debug for ApiClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ApiClient").field("base", &self.base).finish_non_exhaustive()
    }
}

impl ApiClient {
    /// A client of `base` (`http://` or `https://`, the latter with `tls`) sending `token`.
    pub fn new(base: &str, tls: Option<Tls>, token: &str) -> Result<ApiClient, String> {
        let base = base.trim_end_matches('/').to_string();
        let uri: Uri = base.parse().map_err(|e| format!("invalid server URL {base:?}: {e}"))?;
        match uri.scheme_str() {
            Some("https") if tls.is_none() => {
                return Err("an https server needs --certificate-authority (the lab's CA, PEM)".to_string());
            }
            Some("https" | "http") => {}
            _ => return Err(format!("invalid server URL {base:?}: it must start with https:// or http://")),
        }
        let http = Client::builder(TokioExecutor::new()).build(Connector { tls });
        Ok(ApiClient { base, token: Arc::new(RwLock::new(token.to_string())), http })
    }

    /// Sends `token` from now on (the node's own, once joined).
    pub fn set_token(&self, token: &str) {
        *self.token.write().unwrap_or_else(|e| e.into_inner()) = token.to_string();
    }

    pub fn base(&self) -> &str {
        &self.base
    }

    /// One request; the response's status and body. `path` starts with `/` and may carry a query.
    pub async fn send(
        &self,
        method: Method,
        path: &str,
        content_type: Option<&str>,
        body: Option<Vec<u8>>,
    ) -> Result<(StatusCode, Bytes), ApiError> {
        let response = tokio::time::timeout(REQUEST_TIMEOUT, self.start(method, path, content_type, body))
            .await
            .map_err(|_| ApiError::transport(format!("{path}: no answer within {}s", REQUEST_TIMEOUT.as_secs())))??;
        let status = response.status();
        let body = tokio::time::timeout(REQUEST_TIMEOUT, response.into_body().collect())
            .await
            .map_err(|_| ApiError::transport(format!("{path}: the answer did not finish")))?
            .map_err(|e| ApiError::transport(format!("{path}: {e}")))?
            .to_bytes();
        Ok((status, body))
    }

    async fn start(
        &self,
        method: Method,
        path: &str,
        content_type: Option<&str>,
        body: Option<Vec<u8>>,
    ) -> Result<hyper::Response<Incoming>, ApiError> {
        let token = self.token.read().unwrap_or_else(|e| e.into_inner()).clone();
        let mut request = Request::builder()
            .method(method)
            .uri(format!("{}{path}", self.base))
            .header("Accept", "application/json")
            .header("User-Agent", concat!("kubelab-agent/", env!("CARGO_PKG_VERSION")));
        if !token.is_empty() {
            request = request.header("Authorization", format!("Bearer {token}"));
        }
        if let Some(content_type) = content_type {
            request = request.header("Content-Type", content_type);
        }
        let request = request
            .body(Full::new(Bytes::from(body.unwrap_or_default())))
            .map_err(|e| ApiError::transport(format!("{path}: {e}")))?;
        self.http.request(request).await.map_err(|e| ApiError::transport(describe(&self.base, &e)))
    }

    /// A request whose success answer is JSON.
    pub async fn json(
        &self,
        method: Method,
        path: &str,
        content_type: &str,
        body: Option<&Value>,
    ) -> Result<Value, ApiError> {
        let body = body.map(|b| serde_json::to_vec(b).unwrap_or_default());
        let content_type = body.as_ref().map(|_| content_type);
        let (status, bytes) = self.send(method, path, content_type, body).await?;
        if !status.is_success() {
            return Err(ApiError::from_response(status, &bytes));
        }
        if bytes.is_empty() {
            return Ok(Value::Null);
        }
        serde_json::from_slice(&bytes).map_err(|e| ApiError::transport(format!("{path}: the answer is not JSON: {e}")))
    }

    pub async fn get(&self, path: &str) -> Result<Value, ApiError> {
        self.json(Method::GET, path, "", None).await
    }

    /// GET, decoded into one of the simulation's types.
    pub async fn get_as<T: DeserializeOwned>(&self, path: &str) -> Result<T, ApiError> {
        decode(self.get(path).await?).map_err(ApiError::transport)
    }

    pub async fn post(&self, path: &str, body: &Value) -> Result<Value, ApiError> {
        self.json(Method::POST, path, "application/json", Some(body)).await
    }

    pub async fn put(&self, path: &str, body: &Value) -> Result<Value, ApiError> {
        self.json(Method::PUT, path, "application/json", Some(body)).await
    }

    /// PATCH with a JSON merge patch (RFC 7386).
    pub async fn merge_patch(&self, path: &str, patch: &Value) -> Result<Value, ApiError> {
        self.json(Method::PATCH, path, "application/merge-patch+json", Some(patch)).await
    }

    pub async fn delete(&self, path: &str, body: Option<&Value>) -> Result<Value, ApiError> {
        self.json(Method::DELETE, path, "application/json", body).await
    }

    /// Opens a watch (`path` carries `watch=true`); its events arrive through the stream.
    pub async fn watch(&self, path: &str) -> Result<WatchStream, ApiError> {
        let response = tokio::time::timeout(REQUEST_TIMEOUT, self.start(Method::GET, path, None, None))
            .await
            .map_err(|_| ApiError::transport(format!("{path}: no answer")))??;
        let status = response.status();
        if !status.is_success() {
            let body = response.into_body().collect().await.map(|b| b.to_bytes()).unwrap_or_default();
            return Err(ApiError::from_response(status, &body));
        }
        Ok(WatchStream { body: response.into_body(), buffer: Vec::new() })
    }
}

/// One watch event: `ADDED`, `MODIFIED`, `DELETED`, `BOOKMARK` or `ERROR`, and its object.
#[derive(Clone, Debug, PartialEq)]
pub struct WatchEvent {
    pub type_: String,
    pub object: Value,
}

/// A watch's events as they arrive.
pub struct WatchStream {
    body: Incoming,
    buffer: Vec<u8>,
}

impl WatchStream {
    /// The next event; `None` when the server ended the watch or the connection dropped.
    pub async fn next(&mut self) -> Option<Result<WatchEvent, ApiError>> {
        loop {
            if let Some(end) = self.buffer.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = self.buffer.drain(..=end).collect();
                if line.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                return Some(parse_event(&line));
            }
            match self.body.frame().await {
                Some(Ok(frame)) => {
                    if let Ok(data) = frame.into_data() {
                        self.buffer.extend_from_slice(&data);
                    }
                }
                Some(Err(_)) | None => return None,
            }
        }
    }
}

/// One line of a watch: an event, or the error a `Status` event stands for (410 Gone: relist).
pub fn parse_event(line: &[u8]) -> Result<WatchEvent, ApiError> {
    let value: Value =
        serde_json::from_slice(line).map_err(|e| ApiError::transport(format!("a watch line is not JSON: {e}")))?;
    let type_ = value.get("type").and_then(Value::as_str).unwrap_or_default().to_string();
    let object = value.get("object").cloned().unwrap_or(Value::Null);
    if type_ == "ERROR" {
        let code = object.get("code").and_then(Value::as_u64).unwrap_or(500) as u16;
        let text = |name: &str| object.get(name).and_then(Value::as_str).unwrap_or_default().to_string();
        return Err(ApiError { code, reason: text("reason"), message: text("message") });
    }
    Ok(WatchEvent { type_, object })
}

/// An object as the server sent it, into one of the simulation's types (which have no
/// `apiVersion` and `kind` fields: the codec adds and strips them).
pub fn decode<T: DeserializeOwned>(mut value: Value) -> Result<T, String> {
    if let Value::Object(map) = &mut value {
        map.remove("apiVersion");
        map.remove("kind");
    }
    serde_json::from_value(value).map_err(|e| format!("cannot read the server's object: {e}"))
}

/// A transport failure in client-go's words (`dial tcp 127.0.0.1:6443: connect: connection refused`).
fn describe(base: &str, error: &hyper_util::client::legacy::Error) -> String {
    let mut source: Option<&dyn std::error::Error> = std::error::Error::source(error);
    let mut deepest = error.to_string();
    while let Some(inner) = source {
        deepest = inner.to_string();
        source = inner.source();
    }
    format!("{base}: {deepest}")
}

/// Dials the server: TCP, then TLS for `https://`.
#[derive(Clone)]
pub struct Connector {
    tls: Option<Tls>,
}

impl tower::Service<Uri> for Connector {
    type Response = Stream;
    type Error = std::io::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Stream, std::io::Error>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, uri: Uri) -> Self::Future {
        let tls = self.tls.clone();
        Box::pin(async move {
            let https = uri.scheme_str() == Some("https");
            let host = uri.host().unwrap_or("localhost").trim_start_matches('[').trim_end_matches(']').to_string();
            let port = uri.port_u16().unwrap_or(if https { 443 } else { 80 });
            let tcp = TcpStream::connect((host.as_str(), port)).await?;
            tcp.set_nodelay(true)?;
            match tls.filter(|_| https) {
                Some(tls) => {
                    let stream = tls.connector.connect(tls.server_name.clone(), tcp).await?;
                    Ok(Stream::Tls(Box::new(TokioIo::new(stream))))
                }
                None => Ok(Stream::Plain(TokioIo::new(tcp))),
            }
        })
    }
}

/// A connection to the server, plain or TLS.
pub enum Stream {
    Plain(TokioIo<TcpStream>),
    Tls(Box<TokioIo<tokio_rustls::client::TlsStream<TcpStream>>>),
}

impl Connection for Stream {
    fn connected(&self) -> Connected {
        Connected::new()
    }
}

impl hyper::rt::Read for Stream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: hyper::rt::ReadBufCursor<'_>,
    ) -> Poll<std::io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(io) => Pin::new(io).poll_read(cx, buf),
            Stream::Tls(io) => Pin::new(io.as_mut()).poll_read(cx, buf),
        }
    }
}

impl hyper::rt::Write for Stream {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        match self.get_mut() {
            Stream::Plain(io) => Pin::new(io).poll_write(cx, buf),
            Stream::Tls(io) => Pin::new(io.as_mut()).poll_write(cx, buf),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(io) => Pin::new(io).poll_flush(cx),
            Stream::Tls(io) => Pin::new(io.as_mut()).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(io) => Pin::new(io).poll_shutdown(cx),
            Stream::Tls(io) => Pin::new(io.as_mut()).poll_shutdown(cx),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_status_answer_gives_its_message_and_code() {
        let body = br#"{"kind":"Status","apiVersion":"v1","status":"Failure","message":"nodes \"edge\" already exists","reason":"AlreadyExists","code":409}"#;
        let error = ApiError::from_response(StatusCode::CONFLICT, body);
        assert_eq!((error.code, error.reason.as_str()), (409, "AlreadyExists"));
        assert_eq!(error.to_string(), "nodes \"edge\" already exists");
        assert!(error.is_conflict());
        let plain = ApiError::from_response(StatusCode::BAD_GATEWAY, b"");
        assert_eq!(plain.message, "Bad Gateway");
    }

    #[test]
    fn watch_lines_are_events_and_a_gone_status_is_an_error() {
        let event = parse_event(br#"{"type":"ADDED","object":{"kind":"Pod","metadata":{"name":"web"}}}"#).unwrap();
        assert_eq!(event.type_, "ADDED");
        assert_eq!(event.object["metadata"]["name"], "web");
        let gone = parse_event(br#"{"type":"ERROR","object":{"kind":"Status","code":410,"reason":"Expired","message":"too old resource version"}}"#);
        assert!(gone.unwrap_err().is_gone());
    }

    #[test]
    fn objects_decode_without_their_type_fields() {
        let pod: kubelab_core::api::Pod = decode(serde_json::json!({
            "apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web", "namespace": "default"},
            "spec": {"containers": [{"name": "web", "image": "hello:v1"}]}
        }))
        .unwrap();
        assert_eq!(pod.metadata.name, "web");
    }

    #[test]
    fn server_urls_must_be_http_or_https_with_a_ca() {
        assert!(ApiClient::new("ftp://lab", None, "t").unwrap_err().contains("https://"));
        assert!(ApiClient::new("https://lab:6443", None, "t").unwrap_err().contains("--certificate-authority"));
    }
}
