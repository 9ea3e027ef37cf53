//! A served lab's Kubernetes API as the benches reach it: the address, CA and owner's token of
//! a `kubelab up` kubeconfig, and fresh HTTP/1.1 connections over TLS (no client library, so
//! the figures are the server's and the wire's).

use axum::body::Bytes;
use http_body_util::Full;
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use serde_json::Value;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use tokio_rustls::TlsConnector;
use tokio_rustls::rustls::{self, pki_types};

/// One kept-alive connection.
pub type Conn = SendRequest<Full<Bytes>>;

/// Where the lab listens, a TLS connector trusting its CA, and a token.
#[derive(Clone)]
pub struct LabApi {
    pub addr: SocketAddr,
    pub tls: TlsConnector,
    pub token: String,
}

impl LabApi {
    /// The server, CA (also as PEM, for an agent to trust) and owner's token of a kubeconfig.
    pub fn from_kubeconfig(path: &Path) -> (LabApi, Vec<u8>) {
        use base64::Engine;
        use pki_types::pem::PemObject;
        let config: Value = serde_yaml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let cluster = &config["clusters"][0]["cluster"];
        let addr = cluster["server"].as_str().unwrap().trim_start_matches("https://").parse().unwrap();
        let ca = base64::engine::general_purpose::STANDARD
            .decode(cluster["certificate-authority-data"].as_str().unwrap())
            .unwrap();
        let mut roots = rustls::RootCertStore::empty();
        for cert in pki_types::CertificateDer::pem_slice_iter(&ca) {
            roots.add(cert.unwrap()).unwrap();
        }
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let tls = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_root_certificates(roots)
            .with_no_client_auth();
        let token = config["users"][0]["user"]["token"].as_str().unwrap().to_string();
        (LabApi { addr, tls: TlsConnector::from(Arc::new(tls)), token }, ca)
    }

    /// The same lab with another token.
    pub fn with_token(&self, token: &str) -> LabApi {
        LabApi { token: token.to_string(), ..self.clone() }
    }

    /// A new connection: TCP, the TLS handshake, HTTP/1.1.
    pub async fn connect(&self) -> Conn {
        let tcp = tokio::net::TcpStream::connect(self.addr).await.expect("connect");
        let _ = tcp.set_nodelay(true);
        let name = pki_types::ServerName::try_from(self.addr.ip().to_string()).unwrap();
        let tls = self.tls.connect(name, tcp).await.expect("a TLS handshake with the lab");
        let (send, connection) = hyper::client::conn::http1::handshake(TokioIo::new(tls)).await.expect("HTTP/1.1");
        tokio::spawn(async move {
            let _ = connection.await;
        });
        send
    }
}
