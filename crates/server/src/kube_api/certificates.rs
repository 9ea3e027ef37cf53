//! A lab's own certificate authority and the API's serving certificate, generated at start
//! from the OS's randomness (never the lab's seed), as kind and k3s generate theirs: kubectl
//! sends a bearer token only over TLS, and trusts the lab through the kubeconfig's
//! `certificate-authority-data`.

use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, ExtendedKeyUsagePurpose, IsCa, KeyPair,
    KeyUsagePurpose,
};
use std::net::IpAddr;
use std::sync::Arc;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::{self, pki_types};

/// What a lab's TLS needs: the acceptor, and the CA (PEM) clients trust.
pub struct LabTls {
    pub acceptor: TlsAcceptor,
    pub ca_pem: String,
}

fn error(e: impl std::fmt::Display) -> std::io::Error {
    std::io::Error::other(format!("cannot make the lab's certificates: {e}"))
}

/// A fresh CA and a serving certificate for `localhost` and `ip`.
pub fn generate(ip: IpAddr) -> std::io::Result<LabTls> {
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).map_err(error)?;
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca_params.distinguished_name.push(DnType::CommonName, "kubelab-ca");
    ca_params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::DigitalSignature];
    let ca = CertifiedIssuer::self_signed(ca_params, KeyPair::generate().map_err(error)?).map_err(error)?;

    let names = vec!["localhost".to_string(), "127.0.0.1".to_string(), ip.to_string()];
    let mut params = CertificateParams::new(names).map_err(error)?;
    params.distinguished_name.push(DnType::CommonName, "kube-apiserver");
    params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
    let key = KeyPair::generate().map_err(error)?;
    let certificate = params.signed_by(&key, &ca).map_err(error)?;

    let chain = vec![certificate.der().clone()];
    let private = pki_types::PrivateKeyDer::try_from(key.serialize_der()).map_err(error)?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(error)?
        .with_no_client_auth()
        .with_single_cert(chain, private)
        .map_err(error)?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(LabTls { acceptor: TlsAcceptor::from(Arc::new(config)), ca_pem: ca.pem() })
}
