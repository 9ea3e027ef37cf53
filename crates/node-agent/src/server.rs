//! The kubelet's server (pkg/kubelet/server), which the API server dials for `kubectl logs` and
//! `kubectl exec`. Every request carries `Authorization: Bearer <kubeletKey>` (the key the join
//! answered with). Plain HTTP: upstream serves TLS on :10250 and authenticates the API server
//! with a client certificate or a webhook; here the key stands in for both.
//!
//! - `GET /containerLogs/{namespace}/{pod}/{container}?previous=true|false` →
//!   `{"lines":[{"unixMillis":N,"text":"..."}]}` (the previous instance's with `previous=true`;
//!   times on the lab's clock, which is the wall clock unless the join said otherwise)
//! - `POST /exec/{namespace}/{pod}/{container}` with `{"command":[...]}` →
//!   `{"output":"...","exitCode":N}`
//!
//! - `GET /stats/summary` → the summary API's CPU figures (`summary.rs`)
//! - `PUT /kubelab/cpu-quota` with `{"refusal":"..."}` or `{"refusal":null}`: the lab's quota of
//!   CPU-seconds on real machines is spent (running containers are killed, none starts) or has
//!   room again
//!
//! An unknown pod or container is a 404 with a message saying which.

use crate::containers::Containers;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use serde::Deserialize;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

/// The most a request body may hold.
const MAX_BODY: usize = 64 * 1024;
/// How long one exec may run.
const EXEC_TIMEOUT: Duration = Duration::from_secs(60);

/// What the server answers from.
#[derive(Clone, Debug)]
pub struct KubeletServer {
    pub node_name: String,
    pub containers: Containers,
    pub key: String,
}

impl KubeletServer {
    /// Serves on `listener` until the task is aborted.
    pub fn serve(self, listener: TcpListener) -> JoinHandle<()> {
        let server = Arc::new(self);
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let server = server.clone();
                tokio::spawn(async move {
                    let service = hyper::service::service_fn(move |request| {
                        let server = server.clone();
                        async move { Ok::<_, std::convert::Infallible>(server.handle(request).await) }
                    });
                    let _ = hyper::server::conn::http1::Builder::new()
                        .timer(hyper_util::rt::TokioTimer::new())
                        .header_read_timeout(Duration::from_secs(10))
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
                });
            }
        })
    }

    /// Binds `address` (port 0: any free port); the address it listens on.
    pub async fn bind(address: SocketAddr) -> Result<(TcpListener, SocketAddr), String> {
        let listener = TcpListener::bind(address)
            .await
            .map_err(|e| format!("the kubelet server cannot listen on {address}: {e}"))?;
        let bound = listener.local_addr().map_err(|e| e.to_string())?;
        Ok((listener, bound))
    }

    pub async fn handle(&self, request: Request<Incoming>) -> Response<Full<Bytes>> {
        let authorized = request
            .headers()
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .is_some_and(|key| !self.key.is_empty() && key == self.key);
        if !authorized {
            return answer(StatusCode::UNAUTHORIZED, json!({"message": "Unauthorized"}));
        }
        let method = request.method().clone();
        let path = request.uri().path().to_string();
        let query = request.uri().query().unwrap_or("").to_string();
        let body = match Limited::new(request.into_body(), MAX_BODY).collect().await {
            Ok(body) => body.to_bytes(),
            Err(_) => {
                return answer(StatusCode::PAYLOAD_TOO_LARGE, json!({"message": "the request body is too large"}));
            }
        };
        self.route(&method, &path, &query, &body).await
    }

    /// The answer to one request (authorized already).
    pub async fn route(&self, method: &Method, path: &str, query: &str, body: &[u8]) -> Response<Full<Bytes>> {
        let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        match (method, parts.as_slice()) {
            (&Method::GET, ["containerLogs", namespace, pod, container]) => {
                let previous = query.split('&').any(|pair| pair == "previous=true");
                self.logs(namespace, pod, container, previous).await
            }
            (&Method::POST, ["exec", namespace, pod, container]) => self.exec(namespace, pod, container, body).await,
            (&Method::GET, ["stats", "summary"]) => {
                let time = crate::clock::now().to_rfc3339();
                answer(StatusCode::OK, crate::summary::summary(&self.node_name, &self.containers, &time))
            }
            (&Method::PUT, ["kubelab", "cpu-quota"]) => self.cpu_quota(body).await,
            (_, ["containerLogs" | "exec", ..]) => {
                answer(StatusCode::METHOD_NOT_ALLOWED, json!({"message": format!("{method} is not served on {path}")}))
            }
            _ => answer(StatusCode::NOT_FOUND, json!({"message": format!("no such path {path}")})),
        }
    }

    /// The container's instances, or the 404 naming what is not here.
    fn instances(
        &self,
        namespace: &str,
        pod: &str,
        container: &str,
    ) -> Result<crate::containers::Instances, Box<Response<Full<Bytes>>>> {
        self.containers.get(namespace, pod, container).ok_or_else(|| {
            let message = if self.containers.has_pod(namespace, pod) {
                format!("container {container:?} in pod {namespace}/{pod} is not found on this node")
            } else {
                format!("pod {namespace}/{pod} is not found on this node")
            };
            Box::new(answer(StatusCode::NOT_FOUND, json!({"message": message})))
        })
    }

    async fn logs(&self, namespace: &str, pod: &str, container: &str, previous: bool) -> Response<Full<Bytes>> {
        let instances = match self.instances(namespace, pod, container) {
            Ok(instances) => instances,
            Err(response) => return *response,
        };
        let instance = if previous { instances.previous } else { instances.current };
        let Some(instance) = instance else {
            let message = if previous {
                format!("previous terminated container {container:?} in pod {pod:?} not found")
            } else {
                format!("container {container:?} in pod {pod:?} has not started")
            };
            return answer(StatusCode::BAD_REQUEST, json!({"message": message}));
        };
        let lines = tokio::task::spawn_blocking(move || instance.logs()).await.unwrap_or_default();
        let lines: Vec<Value> = lines
            .into_iter()
            .map(|(at, text)| {
                json!({"unixMillis": crate::clock::unix_millis(crate::clock::from_system(at)), "text": text})
            })
            .collect();
        answer(StatusCode::OK, json!({"lines": lines}))
    }

    async fn exec(&self, namespace: &str, pod: &str, container: &str, body: &[u8]) -> Response<Full<Bytes>> {
        #[derive(Deserialize)]
        struct ExecRequest {
            command: Vec<String>,
        }
        let request: ExecRequest = match serde_json::from_slice(body) {
            Ok(request) => request,
            Err(e) => {
                return answer(
                    StatusCode::BAD_REQUEST,
                    json!({"message": format!("want {{\"command\": [...]}}: {e}")}),
                );
            }
        };
        if request.command.is_empty() {
            return answer(StatusCode::BAD_REQUEST, json!({"message": "the command is empty"}));
        }
        let instances = match self.instances(namespace, pod, container) {
            Ok(instances) => instances,
            Err(response) => return *response,
        };
        let Some(instance) = instances.current else {
            let message = format!("container {container:?} in pod {pod:?} is not running");
            return answer(StatusCode::BAD_REQUEST, json!({"message": message}));
        };
        let command = request.command;
        let result = tokio::task::spawn_blocking(move || instance.exec(&command, EXEC_TIMEOUT)).await;
        match result {
            Ok((output, code)) => answer(StatusCode::OK, json!({"output": output, "exitCode": code})),
            Err(e) => answer(StatusCode::INTERNAL_SERVER_ERROR, json!({"message": format!("exec: {e}")})),
        }
    }
}

impl KubeletServer {
    /// `PUT /kubelab/cpu-quota`: the lab's word on its quota of CPU-seconds.
    async fn cpu_quota(&self, body: &[u8]) -> Response<Full<Bytes>> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Quota {
            refusal: Option<String>,
        }
        let quota: Quota = match serde_json::from_slice(body) {
            Ok(quota) => quota,
            Err(e) => {
                let message = format!("want {{\"refusal\": \"...\" or null}}: {e}");
                return answer(StatusCode::BAD_REQUEST, json!({ "message": message }));
            }
        };
        let containers = self.containers.clone();
        let _ = tokio::task::spawn_blocking(move || containers.set_refusal(quota.refusal)).await;
        answer(StatusCode::OK, json!({}))
    }
}

fn answer(status: StatusCode, body: Value) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(body.to_string())));
    *response.status_mut() = status;
    response.headers_mut().insert("content-type", hyper::header::HeaderValue::from_static("application/json"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::{ContainerRuntime, ContainerSpec};
    use crate::testing::{FakeRuntime, Script};

    fn spec(pod: &str) -> ContainerSpec {
        ContainerSpec {
            pod_name: pod.into(),
            namespace: "default".into(),
            container: "web".into(),
            image: "hello:v1".into(),
            argv: Vec::new(),
            env: Vec::new(),
            memory_limit_bytes: None,
            cpu_limit_millicores: None,
            ip: std::net::IpAddr::from([127, 0, 0, 1]),
            ports: Vec::new(),
        }
    }

    async fn body(response: Response<Full<Bytes>>) -> (StatusCode, Value) {
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    fn server() -> KubeletServer {
        let runtime =
            FakeRuntime::new().with_image("hello:v1", Script { logs: vec!["hello".into()], ..Default::default() });
        let containers = Containers::default();
        let first = runtime.start(spec("web")).unwrap();
        containers.started("default", "web", "web", Arc::from(first));
        let second = FakeRuntime::new()
            .with_image("hello:v1", Script { logs: vec!["again".into()], ..Default::default() })
            .start(spec("web"))
            .unwrap();
        containers.started("default", "web", "web", Arc::from(second));
        KubeletServer { node_name: "real-a".into(), containers, key: "key".into() }
    }

    #[tokio::test]
    async fn logs_of_the_current_and_previous_instance() {
        let server = server();
        let (status, now) = body(server.route(&Method::GET, "/containerLogs/default/web/web", "", b"").await).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(now["lines"][0]["text"], "again");
        assert!(now["lines"][0]["unixMillis"].as_u64().unwrap() > 1_700_000_000_000);
        let (_, before) =
            body(server.route(&Method::GET, "/containerLogs/default/web/web", "previous=true", b"").await).await;
        assert_eq!(before["lines"][0]["text"], "hello");
    }

    #[tokio::test]
    async fn exec_answers_output_and_exit_code() {
        let server = server();
        let request = br#"{"command":["echo","hi"]}"#;
        let (status, answer) = body(server.route(&Method::POST, "/exec/default/web/web", "", request).await).await;
        assert_eq!((status, answer), (StatusCode::OK, json!({"output": "hi\n", "exitCode": 0})));
        let (status, bad) = body(server.route(&Method::POST, "/exec/default/web/web", "", b"{}").await).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(bad["message"].as_str().unwrap().contains("command"));
    }

    #[tokio::test]
    async fn unknown_pods_and_containers_are_named() {
        let server = server();
        let (status, gone) = body(server.route(&Method::GET, "/containerLogs/default/api/web", "", b"").await).await;
        assert_eq!(
            (status, gone["message"].as_str()),
            (StatusCode::NOT_FOUND, Some("pod default/api is not found on this node"))
        );
        let (_, other) =
            body(server.route(&Method::POST, "/exec/default/web/sidecar", "", br#"{"command":["true"]}"#).await).await;
        assert_eq!(other["message"], "container \"sidecar\" in pod default/web is not found on this node");
        let (status, _) = body(server.route(&Method::GET, "/healthz", "", b"").await).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let (status, _) = body(server.route(&Method::GET, "/exec/default/web/web", "", b"").await).await;
        assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    }

    #[tokio::test]
    async fn requests_without_the_key_are_refused() {
        let server = server();
        let (listener, address) = KubeletServer::bind("127.0.0.1:0".parse().unwrap()).await.unwrap();
        let task = server.serve(listener);
        let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        stream.write_all(b"GET /containerLogs/default/web/web HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer nope\r\nConnection: close\r\n\r\n").await.unwrap();
        let mut text = String::new();
        stream.read_to_string(&mut text).await.unwrap();
        assert!(text.starts_with("HTTP/1.1 401"), "{text}");
        let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
        stream.write_all(b"GET /containerLogs/default/web/web HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer key\r\nConnection: close\r\n\r\n").await.unwrap();
        let mut text = String::new();
        stream.read_to_string(&mut text).await.unwrap();
        assert!(text.starts_with("HTTP/1.1 200") && text.contains("again"), "{text}");
        task.abort();
    }
}
