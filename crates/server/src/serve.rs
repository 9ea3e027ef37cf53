//! `kubelab serve`: the web app (static files), `/healthz`, and the API under `/api` over the
//! database, with graceful shutdown on Ctrl-C and SIGTERM: in-flight requests finish (within
//! a deadline), WebSockets close with a reason, hosted labs stop.

use crate::api::{self, AppState, Limits};
use crate::db::{self, Db};
use crate::http_server::{self, ConnectionBounds};
use crate::lesson_library::LessonLibrary;
use std::io;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::Router;
use axum::routing::get;
use tokio::sync::watch;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::timeout::RequestBodyTimeoutLayer;
use tower_http::trace::{DefaultMakeSpan, DefaultOnResponse, TraceLayer};

/// The longest a request body may take to arrive.
const REQUEST_BODY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// What `kubelab serve` was asked for.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    pub addr: SocketAddr,
    pub static_dir: PathBuf,
    pub database_url: String,
    pub lessons_dir: Option<PathBuf>,
    pub bounds: ConnectionBounds,
    pub limits: Limits,
    /// PEM certificate chain and key: the server speaks HTTPS itself.
    pub tls: Option<(PathBuf, PathBuf)>,
    /// Where the hosted labs' Kubernetes API listens (TLS, the server's own CA); `None`: the
    /// web app's address with a port the system picks.
    pub kube_api_addr: Option<SocketAddr>,
}

/// Serves until Ctrl-C or SIGTERM, then finishes in-flight requests and returns.
pub async fn run(config: ServeConfig) -> io::Result<()> {
    run_until(config, shutdown_signal()).await
}

/// Serves until `stop` resolves.
pub async fn run_until(config: ServeConfig, stop: impl Future<Output = ()> + Send + 'static) -> io::Result<()> {
    if !config.static_dir.join("index.html").is_file() {
        tracing::warn!(
            static_dir = %config.static_dir.display(),
            "no index.html in the static dir; build the web bundle with scripts/build-web.sh"
        );
    }
    let db = Db::open(&config.database_url)
        .await
        .map_err(|e| io::Error::other(format!("cannot open the database {}: {e}", db::redact(&config.database_url))))?;
    tracing::info!(database = %db::redact(&config.database_url), "database ready");
    let lessons = config.lessons_dir.as_deref().map(LessonLibrary::load).unwrap_or_default();
    let (shutdown_tx, shutdown) = watch::channel(false);
    let tls = match &config.tls {
        Some((cert, key)) => Some(crate::tls::acceptor(cert, key)?),
        None => None,
    };
    let limits = Limits { https: tls.is_some(), ..config.limits.clone() };
    let state = Arc::new(AppState::new(db, lessons, limits, shutdown));

    let listener = tokio::net::TcpListener::bind(config.addr).await?;
    let bound = listener.local_addr()?;
    let scheme = if tls.is_some() { "https" } else { "http" };
    println!("kubelab serving on {scheme}://{bound} — open it in a browser");
    let kube_bind = config.kube_api_addr.unwrap_or_else(|| SocketAddr::new(bound.ip(), 0));
    let endpoint = crate::kube_api::hosted::start(kube_bind, Arc::clone(&state)).await?;
    println!("hosted labs' Kubernetes API on https://{}/k8s/<lab> (kubeconfigs from each lab's page)", endpoint.addr);
    let _ = state.kube_api.set(endpoint);

    tokio::spawn(expire_idle_labs(Arc::clone(&state)));
    let app = app(&config.static_dir, Arc::clone(&state));
    let closing = Arc::clone(&state);
    let stop = async move {
        stop.await;
        shutdown_tx.send_replace(true);
        closing.labs.close_all();
    };
    http_server::serve(listener, app, (config.bounds, tls), stop).await;
    state.db.pool.close().await;
    tracing::info!("kubelab stopped");
    Ok(())
}

/// The routes: `/api/…`, `/healthz`, then any file under `static_dir`; paths that name no
/// file get `index.html`, so the web app's own routes survive a reload.
pub fn app(static_dir: &Path, state: Arc<AppState>) -> Router {
    let index = ServeFile::new(static_dir.join("index.html"));
    Router::new()
        .nest("/api", api::router(state))
        .route("/healthz", get(healthz))
        .fallback_service(ServeDir::new(static_dir).fallback(index))
        // A body that trickles in is cut off (the handler answers with a problem document).
        .layer(RequestBodyTimeoutLayer::new(REQUEST_BODY_TIMEOUT))
        // One line per request at info (method, path, status, latency); RUST_LOG filters it.
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(DefaultMakeSpan::new().level(tracing::Level::INFO))
                .on_request(())
                .on_response(DefaultOnResponse::new().level(tracing::Level::INFO)),
        )
}

/// Every minute, closes the hosted labs that have been idle past the expiry.
async fn expire_idle_labs(state: Arc<AppState>) {
    let mut every_minute = tokio::time::interval(std::time::Duration::from_secs(60));
    loop {
        every_minute.tick().await;
        let closed = state.labs.expire_idle(state.limits.lab_idle_expiry);
        if closed > 0 {
            tracing::info!(closed, "closed idle hosted labs");
        }
    }
}

async fn healthz() -> &'static str {
    "ok"
}

/// Resolves on the first Ctrl-C (SIGINT) or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(error) = tokio::signal::ctrl_c().await {
            tracing::error!(%error, "cannot listen for Ctrl-C");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut sigterm) => {
                sigterm.recv().await;
            }
            Err(error) => {
                tracing::error!(%error, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();

    tokio::select! {
        () = ctrl_c => tracing::info!("Ctrl-C received, shutting down"),
        () = terminate => tracing::info!("SIGTERM received, shutting down"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::{Body, to_bytes};
    use axum::http::{Request, StatusCode, header};
    use tower::ServiceExt;

    /// An app over `dir` with a fresh SQLite database inside it.
    async fn router(dir: &Path) -> Router {
        let db = Db::open(&format!("sqlite://{}/test.db", dir.display())).await.unwrap();
        let state = AppState::new(db, LessonLibrary::default(), Limits::default(), watch::channel(false).1);
        app(dir, Arc::new(state))
    }

    /// A fresh static dir under the system temp dir, removed when dropped.
    struct StaticDir(PathBuf);

    impl StaticDir {
        fn new(test_name: &str) -> Self {
            let path = std::env::temp_dir().join(format!("kubelab-serve-{test_name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&path);
            std::fs::create_dir_all(path.join("pkg")).unwrap();
            std::fs::write(path.join("index.html"), "<h1>kubelab</h1>").unwrap();
            std::fs::write(path.join("pkg/kubelab_web.js"), "export {};").unwrap();
            Self(path)
        }
    }

    impl Drop for StaticDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    async fn get_path(router: Router, path: &str) -> (StatusCode, Option<String>, String) {
        let request = Request::get(path).body(Body::empty()).unwrap();
        let response = router.oneshot(request).await.unwrap();
        let status = response.status();
        let content_type = response.headers().get(header::CONTENT_TYPE).map(|value| value.to_str().unwrap().to_owned());
        let body = to_bytes(response.into_body(), 1 << 20).await.unwrap();
        (status, content_type, String::from_utf8(body.to_vec()).unwrap())
    }

    #[tokio::test]
    async fn healthz_answers_ok() {
        let dir = StaticDir::new("healthz");
        let (status, _, body) = get_path(router(&dir.0).await, "/healthz").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body, "ok");
    }

    #[tokio::test]
    async fn serves_files_from_the_static_dir() {
        let dir = StaticDir::new("files");
        let (status, content_type, body) = get_path(router(&dir.0).await, "/pkg/kubelab_web.js").await;
        assert_eq!(status, StatusCode::OK);
        assert!(content_type.unwrap().contains("javascript"));
        assert_eq!(body, "export {};");

        let (status, _, body) = get_path(router(&dir.0).await, "/").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body, "<h1>kubelab</h1>");
    }

    #[tokio::test]
    async fn unknown_paths_get_index_html() {
        let dir = StaticDir::new("fallback");
        let (status, _, body) = get_path(router(&dir.0).await, "/lessons/first-deployment").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body, "<h1>kubelab</h1>");
    }

    #[tokio::test]
    async fn run_serves_on_a_bound_port_and_stops() {
        let dir = StaticDir::new("run");
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        drop(listener);
        let config = ServeConfig {
            addr,
            static_dir: dir.0.clone(),
            database_url: format!("sqlite://{}/serve.db", dir.0.display()),
            lessons_dir: None,
            bounds: ConnectionBounds::default(),
            limits: Limits::default(),
            tls: None,
            kube_api_addr: None,
        };
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(run_until(config, async move {
            let _ = stop_rx.await;
        }));

        let mut reply = String::new();
        for _ in 0..50 {
            if let Ok(mut stream) = tokio::net::TcpStream::connect(addr).await {
                use tokio::io::{AsyncReadExt, AsyncWriteExt};
                stream
                    .write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                    .await
                    .unwrap();
                stream.read_to_string(&mut reply).await.unwrap();
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        stop_tx.send(()).unwrap();
        server.await.unwrap().unwrap();
        assert!(reply.starts_with("HTTP/1.1 200"), "reply: {reply}");
        assert!(reply.ends_with("ok"), "reply: {reply}");
    }

    /// A config on a free loopback port over a fresh SQLite file in `dir`.
    fn config_in(dir: &Path, bounds: ConnectionBounds) -> ServeConfig {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        drop(listener);
        ServeConfig {
            addr,
            static_dir: dir.to_path_buf(),
            database_url: format!("sqlite://{}/serve.db", dir.display()),
            lessons_dir: None,
            bounds,
            limits: Limits::default(),
            tls: None,
            kube_api_addr: None,
        }
    }

    async fn connect(addr: SocketAddr) -> tokio::net::TcpStream {
        for _ in 0..100 {
            if let Ok(stream) = tokio::net::TcpStream::connect(addr).await {
                return stream;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        panic!("nothing listens on {addr}");
    }

    #[tokio::test]
    async fn a_half_sent_request_is_cut_off_and_does_not_hold_shutdown() {
        use std::time::{Duration, Instant};
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let dir = StaticDir::new("stalled");
        let bounds = ConnectionBounds {
            header_read_timeout: Duration::from_millis(500),
            shutdown_deadline: Duration::from_secs(1),
            ..ConnectionBounds::default()
        };
        let config = config_in(&dir.0, bounds);
        let addr = config.addr;
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(run_until(config, async move {
            let _ = stop_rx.await;
        }));
        // A request head that never ends: the server hangs up after the header-read timeout.
        let mut stalled = connect(addr).await;
        stalled.write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n").await.unwrap();
        let start = Instant::now();
        let mut rest = Vec::new();
        let read = tokio::time::timeout(Duration::from_secs(5), stalled.read_to_end(&mut rest)).await;
        assert!(read.is_ok(), "still open after 5 s");
        assert!(start.elapsed() < Duration::from_secs(3), "{:?}", start.elapsed());
        // Another sends its head but not its body, then the server is told to stop: it returns
        // within its deadline however long the client would take.
        let mut second = connect(addr).await;
        let head = "POST /api/join HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{";
        second.write_all(head.as_bytes()).await.unwrap();
        tokio::time::sleep(Duration::from_millis(50)).await;
        let start = Instant::now();
        stop_tx.send(()).unwrap();
        tokio::time::timeout(Duration::from_secs(5), server).await.expect("stopped within 5 s").unwrap().unwrap();
        assert!(start.elapsed() < Duration::from_millis(1800), "{:?}", start.elapsed());
    }

    /// One HTTP/1.1 request over TLS to `addr`, trusting the test certificate; the raw reply.
    async fn https_request(addr: SocketAddr, request: &str) -> String {
        use pki_types::pem::PemObject;
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        use tokio_rustls::rustls::{self, pki_types};
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let mut roots = rustls::RootCertStore::empty();
        for cert in pki_types::CertificateDer::pem_file_iter(fixtures.join("localhost-test-only-cert.pem")).unwrap() {
            roots.add(cert.unwrap()).unwrap();
        }
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_root_certificates(roots)
            .with_no_client_auth();
        let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
        let tcp = connect(addr).await;
        let name = pki_types::ServerName::try_from("localhost").unwrap();
        let mut tls = connector.connect(name, tcp).await.expect("a TLS handshake with the server");
        tls.write_all(request.as_bytes()).await.unwrap();
        let mut reply = String::new();
        let _ = tls.read_to_string(&mut reply).await;
        reply
    }

    #[tokio::test]
    async fn with_a_certificate_it_serves_https_and_the_cookie_is_secure() {
        let dir = StaticDir::new("tls");
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let mut config = config_in(&dir.0, ConnectionBounds::default());
        config.tls =
            Some((fixtures.join("localhost-test-only-cert.pem"), fixtures.join("localhost-test-only-key.pem")));
        let addr = config.addr;
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(run_until(config, async move {
            let _ = stop_rx.await;
        }));
        let health = https_request(addr, "GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").await;
        assert!(health.starts_with("HTTP/1.1 200") && health.ends_with("ok"), "{health}");
        let body = r#"{"email":"ada@example.org","password":"correct horse","display_name":"Ada"}"#;
        let sign_up = format!(
            "POST /api/instructors HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        let reply = https_request(addr, &sign_up).await;
        assert!(reply.starts_with("HTTP/1.1 201"), "{reply}");
        assert!(reply.contains("set-cookie: __Host-kubelab_session="), "{reply}");
        assert!(reply.contains("; Secure; HttpOnly"), "{reply}");
        // Plain HTTP to an HTTPS port gets no answer a browser would take.
        let mut plain = connect(addr).await;
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        plain.write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n").await.unwrap();
        let mut answer = Vec::new();
        let _ = tokio::time::timeout(std::time::Duration::from_secs(5), plain.read_to_end(&mut answer)).await;
        assert!(!String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 200"));
        stop_tx.send(()).unwrap();
        server.await.unwrap().unwrap();
    }
}
