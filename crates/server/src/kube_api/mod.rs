//! The Kubernetes API of a served lab, over HTTP: what kubectl, client-go and the Python client
//! send is read here (method, path, query, Accept, Content-Type, a bearer token, a bounded
//! body) and answered by the core (`apiserver::rest`) on the lab's thread. Watches stream one
//! JSON line per event, in a chunked response, until the client goes or `timeoutSeconds`
//! passes.

pub mod agent_connection;
pub mod agents;
pub mod attach;
pub mod certificates;
pub mod clock;
pub mod cpu_quota;
pub mod exec;
pub mod hosted;
pub mod lab;
pub mod port_forward;
pub mod run;
pub mod spdy;
pub mod tokens;
pub mod tokens_api;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use kubelab_core::apiserver::impersonation::Impersonation;
use kubelab_core::apiserver::rest::log::LogFollow;
use kubelab_core::apiserver::rest::query::Query;
use kubelab_core::apiserver::rest::watch::WatchCursor;
use kubelab_core::apiserver::rest::{HttpResponse, Stream};
use kubelab_core::store::UserInfo;
use lab::{ApiLab, OwnedRequest};
use std::sync::Arc;
use std::time::Duration;
use tokens::{Bearer, Role, Tokens, TooMany, WatchSlot};

/// The largest request body the API server reads (upstream's 3 MiB).
pub const MAX_BODY: usize = 3 * 1024 * 1024;
/// How much of a too-large body is read (and dropped) before the refusal is sent.
const DRAIN_MAX: usize = 4 * MAX_BODY;
/// How often an open watch asks the lab for new events.
const WATCH_POLL: Duration = Duration::from_millis(200);
/// A watch with no timeoutSeconds ends after this long (kube-apiserver's --min-request-timeout
/// is 30 min; clients reconnect).
const WATCH_DEFAULT_TIMEOUT: Duration = Duration::from_secs(30 * 60);

/// A lab and who may use it (bearer tokens, each with its user and role).
#[derive(Clone)]
pub struct ServedLab {
    pub lab: ApiLab,
    pub tokens: Arc<Tokens>,
    /// The real machines that joined it as nodes.
    pub agents: Arc<agents::Agents>,
}

impl ServedLab {
    /// The router for a lab served at the root of its own listener.
    pub fn router(self) -> axum::Router {
        axum::Router::new()
            .route("/kubelab/clock", axum::routing::any(clock::handle))
            .route("/kubelab/run", axum::routing::post(run::handle))
            .route("/kubelab/tokens", axum::routing::get(tokens_api::list).post(tokens_api::issue))
            .route("/kubelab/tokens/{id}", axum::routing::delete(tokens_api::revoke))
            .fallback(handle)
            .with_state(self)
    }

    fn is_owner(&self, headers: &HeaderMap) -> bool {
        self.bearer(headers).is_some_and(|bearer| bearer.role == Role::Owner)
    }

    fn bearer(&self, headers: &HeaderMap) -> Option<Bearer> {
        let presented = headers.get(header::AUTHORIZATION)?.to_str().ok()?.strip_prefix("Bearer ")?.trim();
        self.tokens.find(presented)
    }
}

/// Every request to the lab's API (mounted at the root of its own listener).
pub async fn handle(State(served): State<ServedLab>, request: Request) -> Response {
    let (mut parts, body) = request.into_parts();
    let Some(bearer) = served.bearer(&parts.headers) else {
        return status_response(401, "Unauthorized", "Unauthorized");
    };
    if let Err(refused) = served.tokens.admit(&bearer) {
        return too_many_requests(&refused);
    }
    if parts.uri.path() == "/kubelab/agents/join" && parts.method == axum::http::Method::POST {
        return match read_body(body).await {
            Ok(body) => agents::join(served, bearer, body).await,
            Err(refused) => refused,
        };
    }
    let user = bearer.user.clone();
    if let Some(target) = exec_target(&parts, &user) {
        use axum::extract::FromRequestParts;
        let upgrade = axum::extract::ws::WebSocketUpgrade::from_request_parts(&mut parts, &served).await;
        return start_exec(served, upgrade, target, Query::parse(parts.uri.query().unwrap_or_default())).await;
    }
    if let Some(target) = port_forward::target_of(&parts, &user) {
        return port_forward::start(served, parts, target).await;
    }
    let body = match read_body(body).await {
        Ok(body) => body,
        Err(refused) => return refused,
    };
    let text = |name: header::HeaderName| {
        parts.headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or_default().to_string()
    };
    let request = OwnedRequest {
        method: parts.method.as_str().to_string(),
        path: parts.uri.path().to_string(),
        query: parts.uri.query().unwrap_or_default().to_string(),
        accept: text(header::ACCEPT),
        content_type: text(header::CONTENT_TYPE),
        body,
        impersonation: Box::new(impersonation(&parts.headers)),
    };
    match served.lab.serve(request, user).await {
        Ok(HttpResponse { stream: Some(Stream::Watch(watch)), .. }) => {
            let slot = match served.tokens.open_watch(&bearer) {
                Ok(slot) => slot,
                Err(refused) => return too_many_requests(&refused),
            };
            open_watch(&served, watch, slot).await
        }
        Ok(HttpResponse { stream: Some(Stream::Log(follow)), body, .. }) => {
            follow_log(served.lab.clone(), body, follow)
        }
        Ok(response) => respond(response),
        Err(_) => stopped(),
    }
}

async fn open_watch(
    served: &ServedLab,
    watch: kubelab_core::apiserver::rest::WatchRequest,
    slot: WatchSlot,
) -> Response {
    match served.lab.open(watch).await {
        Ok(Ok(cursor)) => stream(served.lab.clone(), cursor, slot),
        Ok(Err(refused)) => respond(refused),
        Err(_) => stopped(),
    }
}

/// The `Impersonate-*` headers (`kubectl --as`), for the core's impersonation filter.
fn impersonation(headers: &HeaderMap) -> Impersonation {
    let texts = headers.iter().filter_map(|(name, value)| Some((name.as_str(), value.to_str().ok()?)));
    Impersonation::from_headers(texts)
}

/// The request's body, at most `MAX_BODY`. A longer one is refused as the API server refuses
/// it, after reading on (up to `DRAIN_MAX`) so that the client, still sending, reads the answer
/// rather than a broken connection.
async fn read_body(body: Body) -> Result<Vec<u8>, Response> {
    use futures_util::StreamExt;
    let mut stream = body.into_data_stream();
    let (mut bytes, mut seen) = (Vec::new(), 0usize);
    while let Some(chunk) = stream.next().await {
        let Ok(chunk) = chunk else { break };
        seen += chunk.len();
        if seen <= MAX_BODY {
            bytes.extend_from_slice(&chunk);
        } else if seen > DRAIN_MAX {
            break;
        }
    }
    if seen > MAX_BODY {
        let message = format!("Request entity too large: limit is {MAX_BODY}");
        return Err(status_response(413, "RequestEntityTooLarge", &message));
    }
    Ok(bytes)
}

/// An exec or attach request: `…/namespaces/<ns>/pods/<name>/exec`.
fn exec_target(parts: &axum::http::request::Parts, user: &Arc<UserInfo>) -> Option<lab::ExecTarget> {
    use kubelab_core::apiserver::rest::path::{Target, parse};
    let Some(Target::Resource(path)) = parse(parts.uri.path()) else { return None };
    let wanted = path.group.is_empty() && path.resource == "pods" && !path.name.is_empty();
    if !wanted || !matches!(path.subresource.as_str(), "exec" | "attach") {
        return None;
    }
    let query = Query::parse(parts.uri.query().unwrap_or_default());
    Some(lab::ExecTarget {
        user: user.clone(),
        namespace: path.namespace,
        pod: path.name,
        container: query.get("container").map(String::from),
        attach: path.subresource == "attach",
    })
}

async fn start_exec(
    served: ServedLab,
    upgrade: Result<axum::extract::ws::WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
    target: lab::ExecTarget,
    query: Query,
) -> Response {
    // The pod, the container and the caller's right to them first: a refusal is the API
    // server's answer whichever protocol the client tried.
    let (attach, user) = (target.attach, target.user.clone());
    let (pod, container) = match served.lab.exec_target(target).await {
        Ok(Ok(found)) => found,
        Ok(Err(refused)) => return respond(refused),
        Err(_) => return stopped(),
    };
    let Ok(upgrade) = upgrade else {
        // kubectl falls back to SPDY when the WebSocket upgrade is refused; the lab speaks only
        // WebSockets here.
        return status_response(400, "BadRequest", "exec needs a WebSocket upgrade (v5.channel.k8s.io)");
    };
    if attach {
        return attach::serve(upgrade, served, (pod, container), query.flag("tty"));
    }
    let session = exec::Session {
        user,
        pod,
        container,
        command: exec::Session::command_of(&query),
        stdin: query.flag("stdin"),
        tty: query.flag("tty"),
    };
    exec::serve(upgrade, served, session)
}

fn stopped() -> Response {
    status_response(503, "ServiceUnavailable", "the lab has stopped")
}

fn respond(response: HttpResponse) -> Response {
    let status = StatusCode::from_u16(response.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut answer = (status, [(header::CONTENT_TYPE, HeaderValue::from_static(response.content_type))], response.body)
        .into_response();
    for warning in &response.warnings {
        if let Ok(value) = HeaderValue::from_str(&warning_header(warning)) {
            answer.headers_mut().append(header::WARNING, value);
        }
    }
    answer
}

/// A `Warning` header as the API server writes one (RFC 7234: code 299, no agent, the text
/// quoted), which kubectl prints as `Warning: <text>`.
fn warning_header(text: &str) -> String {
    let quoted: String =
        text.chars().filter(|c| !c.is_control()).collect::<String>().replace('\\', "\\\\").replace('"', "\\\"");
    format!("299 - \"{quoted}\"")
}

/// Over the token's rate or watch limit: what the API server's priority-and-fairness filter
/// answers (a plain-text body and `Retry-After`, which client-go waits out and retries).
fn too_many_requests(refused: &TooMany) -> Response {
    let retry = refused.retry_after_seconds.to_string();
    let mut response = (StatusCode::TOO_MANY_REQUESTS, "Too many requests, please try again later.\n").into_response();
    if let Ok(value) = HeaderValue::from_str(&retry) {
        response.headers_mut().insert(header::RETRY_AFTER, value);
    }
    response
}

/// A `Status` answered before the core sees the request (authentication, body size).
pub(crate) fn status_response(code: u16, reason: &str, message: &str) -> Response {
    let body = serde_json::json!({
        "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
        "message": message, "reason": reason, "code": code,
    });
    respond(HttpResponse {
        status: code,
        content_type: "application/json",
        body: body.to_string(),
        stream: None,
        warnings: Vec::new(),
    })
}

/// The watch's chunked stream: the lab is asked for new lines every `WATCH_POLL`; the stream
/// ends at its timeout, after an ERROR event, or when the client goes (the body is dropped and
/// the lab stops keeping object states for it).
fn stream(lab: ApiLab, cursor: WatchCursor, slot: WatchSlot) -> Response {
    let timeout = cursor.timeout_seconds().map_or(WATCH_DEFAULT_TIMEOUT, Duration::from_secs);
    let deadline = tokio::time::Instant::now() + timeout;
    let guard = CloseOnDrop { lab: lab.clone(), kind: cursor.kind(), _slot: slot };
    let state = (Some(Box::new(cursor)), guard, true);
    let events = futures_util::stream::unfold(state, move |(cursor, guard, first)| {
        let lab = lab.clone();
        async move {
            let cursor = cursor?;
            if !first {
                tokio::time::sleep(WATCH_POLL).await;
            }
            if tokio::time::Instant::now() >= deadline {
                return None;
            }
            let (cursor, lines, ended) = lab.poll(cursor).await.ok()?;
            let mut chunk = String::new();
            for line in lines {
                chunk.push_str(&line);
                chunk.push('\n');
            }
            let next = if ended { None } else { Some(cursor) };
            Some((Ok::<Bytes, std::convert::Infallible>(Bytes::from(chunk)), (next, guard, false)))
        }
    });
    let mut response = Body::from_stream(events).into_response();
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache, private"));
    response
}

/// A followed log: what was printed so far, then new lines as the lab prints them, until the
/// container stops or the client goes.
fn follow_log(lab: ApiLab, first: String, follow: LogFollow) -> Response {
    let state = (Some(follow), Some(first));
    let lines = futures_util::stream::unfold(state, move |(follow, first)| {
        let lab = lab.clone();
        async move {
            if let Some(first) = first {
                return Some((Ok::<Bytes, std::convert::Infallible>(Bytes::from(first)), (follow, None)));
            }
            let follow = follow?;
            tokio::time::sleep(WATCH_POLL).await;
            let (follow, text, ended) = lab.follow(follow).await.ok()?;
            let next = if ended { None } else { Some(follow) };
            Some((Ok(Bytes::from(text)), (next, None)))
        }
    });
    let mut response = Body::from_stream(lines).into_response();
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain"));
    response
}

/// Tells the lab a watch of this kind has ended, whichever way it ends.
struct CloseOnDrop {
    lab: ApiLab,
    kind: kubelab_core::api::Kind,
    /// The token's count of open watches, freed with the stream.
    _slot: WatchSlot,
}

impl Drop for CloseOnDrop {
    fn drop(&mut self) {
        self.lab.close(self.kind);
    }
}
