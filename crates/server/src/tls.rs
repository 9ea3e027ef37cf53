//! HTTPS without a proxy: `kubelab serve --tls-cert FILE --tls-key FILE` (PEM) makes the
//! server speak TLS itself, with rustls (ring as its crypto, TLS 1.2 and 1.3, HTTP/1.1 over
//! ALPN). The handshake must finish within the header-read timeout, like a request head.

use std::io;
use std::path::Path;
use std::sync::Arc;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::{self, pki_types};

/// The acceptor for the certificate chain and private key in these PEM files.
pub fn acceptor(cert: &Path, key: &Path) -> io::Result<TlsAcceptor> {
    use pki_types::pem::PemObject;
    let named = |path: &Path, e: &dyn std::fmt::Display| io::Error::other(format!("{}: {e}", path.display()));
    let chain = pki_types::CertificateDer::pem_file_iter(cert)
        .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
        .map_err(|e| named(cert, &e))?;
    if chain.is_empty() {
        return Err(named(cert, &"no certificate in it"));
    }
    let private = pki_types::PrivateKeyDer::from_pem_file(key).map_err(|e| named(key, &e))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(io::Error::other)?
        .with_no_client_auth()
        .with_single_cert(chain, private)
        .map_err(|e| io::Error::other(format!("{} and {}: {e}", cert.display(), key.display())))?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(TlsAcceptor::from(Arc::new(config)))
}
