//! What the process-level tests and the load benchmark share: starting the real `kubelab`
//! binary on a loopback port over a given database, and a small JSON-over-HTTP client.

#![allow(dead_code)]

pub mod machines;
/// Independent cases on every core, as the core's tests run their lessons and scenarios.
#[path = "../../../core/tests/support/mod.rs"]
pub mod parallel;
pub mod up;

use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

pub type Bytes = axum::body::Bytes;

/// A running `kubelab serve`; killed (SIGKILL) when dropped.
pub struct Server {
    pub child: Child,
    pub addr: String,
    /// Where the hosted labs' Kubernetes API listens (`https://…`).
    pub kube_api: String,
}

impl Server {
    /// Starts the binary over `database_url`, waiting for its "serving on" line.
    pub fn start(database_url: &str, static_dir: &Path) -> Server {
        Server::start_with(database_url, static_dir, &[])
    }

    /// As `start`, with more `kubelab serve` flags.
    pub fn start_with(database_url: &str, static_dir: &Path, flags: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kubelab"))
            .args(["serve", "--addr", "127.0.0.1:0", "--database", database_url, "--static"])
            .arg(static_dir)
            .args(flags)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("kubelab starts");
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut read_url = |scheme: &str| {
            let mut line = String::new();
            stdout.read_line(&mut line).expect("a line");
            line.split(scheme)
                .nth(1)
                .and_then(|rest| rest.split_whitespace().next())
                .unwrap_or_else(|| panic!("no {scheme} address in {line:?}"))
                .to_string()
        };
        let addr = read_url("http://");
        let kube_api = read_url("https://");
        // The server may print more; a closed pipe would fail its writes.
        std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
        Server { child, addr, kube_api }
    }

    /// `kill -9`: no shutdown, no flushing.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// The server's resident memory (VmRSS, VmHWM) in KiB, from /proc.
    pub fn memory_kib(&self) -> (u64, u64) {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap_or_default();
        let field = |name: &str| {
            status
                .lines()
                .find(|l| l.starts_with(name))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
                .unwrap_or(0)
        };
        (field("VmRSS:"), field("VmHWM:"))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// JSON over HTTP/1.1 with keep-alive.
#[derive(Clone)]
pub struct Http {
    client: Client<HttpConnector, Full<Bytes>>,
    pub base: String,
    /// Sent with every request (a proxy's `X-Forwarded-For`, say).
    headers: Vec<(String, String)>,
}

pub struct Reply {
    pub status: u16,
    pub set_cookie: Option<String>,
    pub body: Value,
}

impl Reply {
    /// The cookie to send back, from `Set-Cookie`.
    pub fn cookie(&self) -> String {
        self.set_cookie.as_deref().and_then(|c| c.split(';').next()).expect("a session cookie").to_string()
    }
}

impl Http {
    pub fn new(addr: &str) -> Http {
        let client = Client::builder(TokioExecutor::new()).pool_max_idle_per_host(256).build_http();
        Http { client, base: format!("http://{addr}"), headers: Vec::new() }
    }

    /// This client, sending `name: value` with every request.
    pub fn with_header(&self, name: &str, value: &str) -> Http {
        let mut http = self.clone();
        http.headers.push((name.to_string(), value.to_string()));
        http
    }

    /// `GET` or `POST` with a cookie; the status and the body as text.
    pub async fn text(&self, method: &str, path: &str, cookie: &str) -> Result<(u16, String), String> {
        let request = axum::http::Request::builder()
            .method(method)
            .uri(format!("{}{path}", self.base))
            .header("cookie", cookie)
            .body(Full::new(Bytes::new()))
            .map_err(|e| e.to_string())?;
        let response = self.client.request(request).await.map_err(|e| e.to_string())?;
        let status = response.status().as_u16();
        let bytes = response.into_body().collect().await.map_err(|e| e.to_string())?.to_bytes();
        Ok((status, String::from_utf8_lossy(&bytes).into_owned()))
    }

    pub async fn call(
        &self,
        method: &str,
        path: &str,
        cookie: Option<&str>,
        body: Option<&Value>,
    ) -> Result<Reply, String> {
        let mut request = axum::http::Request::builder().method(method).uri(format!("{}{path}", self.base));
        if let Some(cookie) = cookie {
            request = request.header("cookie", cookie);
        }
        for (name, value) in &self.headers {
            request = request.header(name, value);
        }
        let payload = match body {
            Some(body) => {
                request = request.header("content-type", "application/json");
                Full::new(Bytes::from(body.to_string()))
            }
            None => Full::new(Bytes::new()),
        };
        let response =
            self.client.request(request.body(payload).map_err(|e| e.to_string())?).await.map_err(|e| e.to_string())?;
        let status = response.status().as_u16();
        let set_cookie = response.headers().get("set-cookie").and_then(|v| v.to_str().ok()).map(str::to_string);
        let bytes = response.into_body().collect().await.map_err(|e| e.to_string())?.to_bytes();
        let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Ok(Reply { status, set_cookie, body })
    }
}

/// A fresh folder under the system temp dir.
pub fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("kubelab-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("index.html"), "<h1>kubelab</h1>").unwrap();
    dir
}
