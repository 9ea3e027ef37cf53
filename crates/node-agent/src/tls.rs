//! TLS to the lab's API server: rustls (ring) trusting the lab's CA (`--certificate-authority`,
//! PEM, as a kubeconfig's `certificate-authority` names it), the server name from
//! `--tls-server-name` or else the URL's host (client-go's `TLSClientConfig.ServerName`).

use std::sync::Arc;
use tokio_rustls::TlsConnector;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, ServerName};
use tokio_rustls::rustls::{ClientConfig, RootCertStore, crypto};

/// What the client dials with: the connector and the name the server's certificate must carry.
#[derive(Clone)]
pub struct Tls {
    pub connector: TlsConnector,
    pub server_name: ServerName<'static>,
}

impl std::fmt::Debug for Tls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tls").field("server_name", &self.server_name).finish_non_exhaustive()
    }
}

/// A client trusting the CA certificates in `ca_pem`, checking the server's certificate for
/// `server_name`.
pub fn client(ca_pem: &[u8], server_name: &str) -> Result<Tls, String> {
    let mut roots = RootCertStore::empty();
    let mut found = 0;
    for cert in CertificateDer::pem_slice_iter(ca_pem) {
        let cert = cert.map_err(|e| format!("the certificate authority is not PEM: {e}"))?;
        roots.add(cert).map_err(|e| format!("the certificate authority cannot be used: {e}"))?;
        found += 1;
    }
    if found == 0 {
        return Err("the certificate authority file holds no PEM certificate".to_string());
    }
    let provider = Arc::new(crypto::ring::default_provider());
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    let host = server_name.trim_start_matches('[').trim_end_matches(']').to_string();
    let server_name =
        ServerName::try_from(host).map_err(|e| format!("invalid TLS server name {server_name:?}: {e}"))?;
    Ok(Tls { connector: TlsConnector::from(Arc::new(config)), server_name })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_without_certificates_is_refused_with_a_reason() {
        assert_eq!(client(b"hello", "lab").unwrap_err(), "the certificate authority file holds no PEM certificate");
        let bad = b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n";
        assert!(client(bad, "lab").unwrap_err().starts_with("the certificate authority cannot be used"));
    }
}
