//! The Kubernetes API of the labs `kubelab serve` hosts: one TLS listener with the server's
//! own certificate authority, made at start as kind makes one (kubectl sends a token only over
//! TLS), each lab under its own prefix, `/k8s/<lab>/…`, which is part of the server URL in the
//! lab's kubeconfig. The prefix is taken off and the rest is served as `kubelab up` serves it,
//! with the lab's own tokens, on the lab's own thread (`hosted_api.rs`).

use super::{ServedLab, certificates, status_response};
use crate::api::AppState;
use crate::http_server::{self, ConnectionBounds};
use axum::extract::{Request, State};
use axum::http::Uri;
use axum::response::Response;
use std::net::SocketAddr;
use std::sync::Arc;

/// Where the hosted labs' API listens, and the CA its kubeconfigs trust.
#[derive(Clone, Debug)]
pub struct KubeEndpoint {
    pub addr: SocketAddr,
    pub ca_pem: String,
}

impl KubeEndpoint {
    /// The server URL of a lab's kubeconfig. A listener on every address is reached by the
    /// name the browser used for the web app (`host`, without its port).
    pub fn server_url(&self, host: Option<&str>, lab: &str) -> String {
        let ip = self.addr.ip();
        let name = match host.map(host_without_port) {
            Some(name) if ip.is_unspecified() && !name.is_empty() => name.to_string(),
            _ if ip.is_unspecified() => "127.0.0.1".to_string(),
            _ if ip.is_ipv6() => format!("[{ip}]"),
            _ => ip.to_string(),
        };
        format!("https://{name}:{}/k8s/{lab}", self.addr.port())
    }
}

fn host_without_port(host: &str) -> &str {
    if let Some(bracketed) = host.strip_prefix('[') {
        return bracketed.split(']').next().unwrap_or_default();
    }
    match host.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => host,
    }
}

/// Binds the listener and serves it until the server shuts down.
pub async fn start(bind: SocketAddr, state: Arc<AppState>) -> std::io::Result<KubeEndpoint> {
    let listener = tokio::net::TcpListener::bind(bind).await?;
    let addr = listener.local_addr()?;
    let tls = certificates::generate(addr.ip())?;
    let endpoint = KubeEndpoint { addr, ca_pem: tls.ca_pem.clone() };
    let mut shutdown = state.shutdown.clone();
    let stop = async move {
        let _ = shutdown.wait_for(|closing| *closing).await;
    };
    let app = axum::Router::new().fallback(handle).with_state(state);
    tokio::spawn(http_server::serve(listener, app, (ConnectionBounds::default(), Some(tls.acceptor)), stop));
    Ok(endpoint)
}

/// `/k8s/<lab>/<path>`: the lab's API at `<path>`.
async fn handle(State(state): State<Arc<AppState>>, mut request: Request) -> Response {
    let path = request.uri().path().to_string();
    let Some((lab_id, rest)) = split_prefix(&path) else {
        return status_response(404, "NotFound", "the server could not find the requested resource");
    };
    let Some(lab) = state.labs.find(lab_id) else {
        return status_response(404, "NotFound", &format!("no hosted lab has id {lab_id:?}"));
    };
    let target = match request.uri().query() {
        Some(query) => format!("{rest}?{query}"),
        None => rest.to_string(),
    };
    match target.parse::<Uri>() {
        Ok(uri) => *request.uri_mut() = uri,
        Err(_) => return status_response(400, "BadRequest", "the request's path is not a valid URI"),
    }
    let served: ServedLab = lab.served();
    super::handle(State(served), request).await
}

/// `/k8s/<lab>/rest` → (`<lab>`, `/rest`); `/k8s/<lab>` → (`<lab>`, `/`).
fn split_prefix(path: &str) -> Option<(&str, &str)> {
    let after = path.strip_prefix("/k8s/")?;
    let (lab, rest) = match after.find('/') {
        Some(at) => (&after[..at], &after[at..]),
        None => (after, "/"),
    };
    (!lab.is_empty()).then_some((lab, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_labs_prefix_is_taken_off() {
        assert_eq!(split_prefix("/k8s/abc/api/v1/pods"), Some(("abc", "/api/v1/pods")));
        assert_eq!(split_prefix("/k8s/abc"), Some(("abc", "/")));
        assert_eq!(split_prefix("/api/v1/pods"), None);
        assert_eq!(split_prefix("/k8s//api"), None);
    }

    #[test]
    fn the_server_url_names_what_the_client_can_reach() {
        let endpoint = |addr: &str| KubeEndpoint { addr: addr.parse().unwrap(), ca_pem: String::new() };
        assert_eq!(
            endpoint("127.0.0.1:6443").server_url(Some("example.org:8080"), "l1"),
            "https://127.0.0.1:6443/k8s/l1"
        );
        assert_eq!(
            endpoint("0.0.0.0:6443").server_url(Some("example.org:8080"), "l1"),
            "https://example.org:6443/k8s/l1"
        );
        assert_eq!(endpoint("0.0.0.0:6443").server_url(None, "l1"), "https://127.0.0.1:6443/k8s/l1");
    }
}
