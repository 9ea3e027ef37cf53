//! The API's tests, against the real router and a real database: a fresh SQLite file per test,
//! or the PostgreSQL named by `KUBELAB_TEST_DATABASE_URL` (scripts/test.sh starts one), where
//! tests share one database and keep apart by using fresh emails and classes.

mod accounts;
mod classes;
mod dashboard;
mod labs;
mod limits;
mod live;
mod progress;
mod public;
mod quotas;

use super::{AppState, Limits};
use crate::db::Db;
use axum::Router;
use axum::body::{Body, to_bytes};
use axum::http::{Request, StatusCode, header};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::Arc;
use tokio::sync::watch;
use tower::ServiceExt;

pub struct TestApp {
    pub router: Router,
    pub state: Arc<AppState>,
    pub shutdown: watch::Sender<bool>,
    dir: PathBuf,
}

impl Drop for TestApp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// What one call answered.
#[derive(Debug)]
pub struct Answer {
    pub status: StatusCode,
    pub body: Value,
    pub content_type: Option<String>,
    pub set_cookie: Option<String>,
    pub retry_after: Option<String>,
}

impl TestApp {
    pub async fn new() -> TestApp {
        TestApp::with_limits(Limits::default()).await
    }

    pub async fn with_limits(limits: Limits) -> TestApp {
        let dir = std::env::temp_dir().join(format!("kubelab-api-{}", super::codes::new_id()));
        std::fs::create_dir_all(&dir).unwrap();
        let url = std::env::var("KUBELAB_TEST_DATABASE_URL")
            .unwrap_or_else(|_| format!("sqlite://{}/kubelab.db", dir.display()));
        let db = Db::open(&url).await.unwrap_or_else(|e| panic!("cannot open {url}: {e}"));
        let mut lessons = crate::lesson_library::LessonLibrary::default();
        lessons.add(LESSON.to_string()).unwrap();
        let (shutdown, stopping) = watch::channel(false);
        let state = Arc::new(AppState::new(db, lessons, limits, stopping));
        let router = Router::new().nest("/api", super::router(Arc::clone(&state)));
        TestApp { router, state, shutdown, dir }
    }

    /// Calls the router with an optional session cookie and JSON body.
    pub async fn call(&self, method: &str, path: &str, cookie: Option<&str>, body: Option<Value>) -> Answer {
        let mut request = Request::builder().method(method).uri(path);
        if let Some(cookie) = cookie {
            request = request.header(header::COOKIE, cookie);
        }
        let request = match body {
            Some(body) => request.header(header::CONTENT_TYPE, "application/json").body(Body::from(body.to_string())),
            None => request.body(Body::empty()),
        };
        self.send(request.unwrap()).await
    }

    /// As `call`, from the client address `peer`, with extra headers.
    pub async fn call_from(
        &self,
        peer: &str,
        extra: &[(&str, &str)],
        (method, path): (&str, &str),
        cookie: Option<&str>,
        body: Option<Value>,
    ) -> Answer {
        let mut request = Request::builder().method(method).uri(path);
        for (name, value) in extra {
            request = request.header(*name, *value);
        }
        if let Some(cookie) = cookie {
            request = request.header(header::COOKIE, cookie);
        }
        let body = body.map_or_else(Body::empty, |body| Body::from(body.to_string()));
        let mut request = request.header(header::CONTENT_TYPE, "application/json").body(body).unwrap();
        let peer: std::net::SocketAddr = (peer.parse::<std::net::IpAddr>().unwrap(), 40000).into();
        request.extensions_mut().insert(axum::extract::ConnectInfo(peer));
        self.send(request).await
    }

    pub async fn send(&self, request: Request<Body>) -> Answer {
        let response = self.router.clone().oneshot(request).await.unwrap();
        let header = |name| response.headers().get(name).map(|v: &header::HeaderValue| v.to_str().unwrap().to_string());
        let (content_type, set_cookie, retry_after) =
            (header(header::CONTENT_TYPE), header(header::SET_COOKIE), header(header::RETRY_AFTER));
        let status = response.status();
        let bytes = to_bytes(response.into_body(), 1 << 22).await.unwrap();
        let body =
            serde_json::from_slice(&bytes).unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into()));
        Answer { status, body, content_type, set_cookie, retry_after }
    }

    /// Signs up a fresh instructor; returns their cookie.
    pub async fn instructor(&self, name: &str) -> String {
        let email = format!("{}-{}@example.org", name.to_lowercase(), super::codes::new_id());
        let answer = self
            .call(
                "POST",
                "/api/instructors",
                None,
                Some(json!({"email": email, "password": "correct horse", "display_name": name})),
            )
            .await;
        assert_eq!(answer.status, StatusCode::CREATED, "{:?}", answer.body);
        cookie_of(&answer)
    }

    /// Creates a class as the instructor; returns (class id, join code).
    pub async fn class(&self, instructor: &str, name: &str) -> (String, String) {
        let answer = self.call("POST", "/api/classes", Some(instructor), Some(json!({"name": name}))).await;
        assert_eq!(answer.status, StatusCode::CREATED, "{:?}", answer.body);
        (answer.body["id"].as_str().unwrap().into(), answer.body["join_code"].as_str().unwrap().into())
    }

    /// Joins the class as a learner; returns (cookie, learner id).
    pub async fn learner(&self, join_code: &str, name: &str) -> (String, String) {
        let answer =
            self.call("POST", "/api/join", None, Some(json!({"join_code": join_code, "display_name": name}))).await;
        assert_eq!(answer.status, StatusCode::CREATED, "{:?}", answer.body);
        (cookie_of(&answer), answer.body["id"].as_str().unwrap().into())
    }
}

/// The `name=value` part of a `Set-Cookie`, ready to send back.
pub fn cookie_of(answer: &Answer) -> String {
    let set_cookie = answer.set_cookie.as_deref().expect("a Set-Cookie header");
    set_cookie.split(';').next().unwrap().to_string()
}

/// Asserts a problem answer: its status, content type and a phrase of its detail.
pub fn assert_problem(answer: &Answer, status: StatusCode, detail_contains: &str) {
    assert_eq!(answer.status, status, "{:?}", answer.body);
    assert_eq!(answer.content_type.as_deref(), Some("application/problem+json"));
    let detail = answer.body["detail"].as_str().unwrap_or_default();
    assert!(detail.contains(detail_contains), "detail {detail:?} lacks {detail_contains:?}");
    assert_eq!(answer.body["status"], status.as_u16());
}

const LESSON: &str = r#"
id: demo
title: Demo
summary: A lesson for the server's tests.
minutes: 5
level: beginner
setup: |
  kubectl create deployment hello --image=nginx --replicas=2
  sleep 30s
steps:
  - title: Look
    text: Look at the pods.
"#;

impl TestApp {
    /// Serves the router on a loopback port (for WebSockets); returns its address.
    pub async fn serve(&self) -> std::net::SocketAddr {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let app = self.router.clone().into_make_service_with_connect_info::<std::net::SocketAddr>();
        tokio::spawn(async move { axum::serve(listener, app).await });
        addr
    }
}

pub type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Opens a WebSocket to `path` with the session cookie.
pub async fn connect(addr: std::net::SocketAddr, path: &str, cookie: &str) -> Socket {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut request = format!("ws://{addr}{path}").into_client_request().unwrap();
    request.headers_mut().insert(header::COOKIE, cookie.parse().unwrap());
    tokio_tungstenite::connect_async(request).await.unwrap_or_else(|e| panic!("{path}: {e}")).0
}

/// As `connect`, sent from a page at `origin`: the socket, or the HTTP status that refused it.
pub async fn connect_from(addr: std::net::SocketAddr, path: &str, cookie: &str, origin: &str) -> Result<Socket, u16> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut request = format!("ws://{addr}{path}").into_client_request().unwrap();
    request.headers_mut().insert(header::COOKIE, cookie.parse().unwrap());
    request.headers_mut().insert(header::ORIGIN, origin.parse().unwrap());
    match tokio_tungstenite::connect_async(request).await {
        Ok((socket, _)) => Ok(socket),
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => Err(response.status().as_u16()),
        Err(other) => panic!("{path}: {other}"),
    }
}

/// The next text message as JSON (waits up to 5 s).
pub async fn next_json(socket: &mut Socket) -> Value {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    loop {
        let message = tokio::time::timeout(std::time::Duration::from_secs(5), socket.next())
            .await
            .expect("a message within 5 s")
            .expect("the socket open")
            .expect("a readable message");
        match message {
            Message::Text(text) => return serde_json::from_str(&text).unwrap(),
            Message::Close(frame) => panic!("closed: {frame:?}"),
            _ => {}
        }
    }
}

/// Waits for the close frame; returns its code and reason.
pub async fn close_frame(socket: &mut Socket) -> (u16, String) {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    loop {
        let message =
            tokio::time::timeout(std::time::Duration::from_secs(5), socket.next()).await.expect("closed within 5 s");
        match message {
            Some(Ok(Message::Close(Some(frame)))) => return (frame.code.into(), frame.reason.to_string()),
            Some(Ok(_)) => {}
            other => panic!("no close frame: {other:?}"),
        }
    }
}

/// A dashboard socket as the web app reads it: the whole dashboard first, then changes.
pub struct LiveDashboard {
    pub socket: Socket,
    pub dashboard: kubelab_wire::Dashboard,
}

impl LiveDashboard {
    pub async fn open(addr: std::net::SocketAddr, path: &str, cookie: &str) -> LiveDashboard {
        let mut socket = connect(addr, path, cookie).await;
        let first = next_json(&mut socket).await;
        assert_eq!(first["type"], "dashboard", "{first}");
        let dashboard = serde_json::from_value(first).unwrap();
        LiveDashboard { socket, dashboard }
    }

    /// Waits for the next update and applies it; returns it as sent.
    pub async fn next(&mut self) -> Value {
        let message = next_json(&mut self.socket).await;
        assert_eq!(message["type"], "dashboard_changes", "{message}");
        self.dashboard.apply(serde_json::from_value(message.clone()).unwrap());
        message
    }

    /// The next update that makes `done` true of the dashboard.
    pub async fn until(&mut self, done: impl Fn(&kubelab_wire::Dashboard) -> bool) {
        while !done(&self.dashboard) {
            self.next().await;
        }
    }
}
