//! `kubectl create secret tls NAME --cert=PATH --key=PATH`: a `kubernetes.io/tls` Secret from a
//! PEM certificate and key (staging/src/k8s.io/kubectl/pkg/cmd/create/create_secret_tls.go).
//! kubectl loads the pair with Go's `tls.X509KeyPair`; the lab checks that each file holds PEM
//! data of the right kind, not that the key matches the certificate.

use super::{generated_metadata, one_name};
use crate::api::secret::base64_encode;
use crate::kubectl::args::{Args, Flag};
use crate::kubectl::output::Output;
use crate::kubectl::print_flags::{self, DRY_RUN, OUTPUT, Refusal};
use crate::kubectl::{Context, Verb};
use serde_json::json;

pub const VERB: Verb = Verb {
    name: "create secret tls",
    short: "Create a TLS secret",
    usage: "kubectl create secret tls NAME --cert=path/to/cert/file --key=path/to/key/file [--dry-run=server|client|none] [options]",
    flags: &[
        Flag::value("cert", None, "Path to PEM encoded public key certificate."),
        Flag::value("key", None, "Path to private key associated with given certificate."),
        DRY_RUN,
        OUTPUT,
    ],
    run,
};

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let name = match one_name(&args, &VERB) {
        Ok(name) => name,
        Err(message) => return Output::failed(message),
    };
    let (Some(cert_path), Some(key_path)) = (args.get("cert"), args.get("key")) else {
        return Output::failed("error: key and cert must be specified");
    };
    let read = |path: &str| {
        ctx.files
            .read_file(path)
            .map_err(|_| format!("error: Cannot read file {path}, open {path}: no such file or directory"))
    };
    let (cert, key) = match (read(cert_path), read(key_path)) {
        (Ok(cert), Ok(key)) => (cert, key),
        (Err(message), _) | (_, Err(message)) => return Output::failed(message),
    };
    if let Some(problem) = key_pair_problem(&cert, &key) {
        return Output::failed(format!("error: tls: {problem}"));
    }
    let secret = json!({
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": generated_metadata(&args, &name, None),
        "type": "kubernetes.io/tls",
        "data": {"tls.crt": base64_encode(cert.as_bytes()), "tls.key": base64_encode(key.as_bytes())},
    });
    print_flags::create(ctx, &args, secret, Refusal::Prefixed("failed to create secret "))
}

/// What `tls.X509KeyPair` says of PEM blocks that are missing or of the wrong kind.
fn key_pair_problem(cert: &str, key: &str) -> Option<&'static str> {
    let blocks = |text: &str| -> Vec<String> {
        text.lines().filter_map(|l| l.strip_prefix("-----BEGIN ")?.strip_suffix("-----").map(str::to_string)).collect()
    };
    let (cert_blocks, key_blocks) = (blocks(cert), blocks(key));
    if cert_blocks.is_empty() {
        return Some("failed to find any PEM data in certificate input");
    }
    if !cert_blocks.iter().any(|b| b == "CERTIFICATE") {
        return Some(
            "failed to find \"CERTIFICATE\" PEM block in certificate input after skipping PEM blocks of the following types: [PRIVATE KEY]",
        );
    }
    if key_blocks.is_empty() {
        return Some("failed to find any PEM data in key input");
    }
    if !key_blocks.iter().any(|b| b == "PRIVATE KEY" || b.ends_with(" PRIVATE KEY")) {
        return Some("found a certificate rather than a key in the PEM for the private key");
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::kubectl::create::tests::kubectl_with_files;
    use crate::sim::Sim;

    const CERT: &str = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
    const KEY: &str = "-----BEGIN EC PRIVATE KEY-----\nMHcC\n-----END EC PRIVATE KEY-----\n";

    #[test]
    fn a_pem_pair_becomes_a_tls_secret() {
        let mut sim = Sim::default();
        let files = [("tls.crt", CERT), ("tls.key", KEY), ("notes.txt", "hello")];
        let (text, _) = kubectl_with_files(&mut sim, "create secret tls shop-tls --cert=tls.crt --key=tls.key", &files);
        assert_eq!(text, "secret/shop-tls created\n");
        let (text, _) = kubectl_with_files(&mut sim, "get secret shop-tls", &files);
        assert!(text.contains("shop-tls   kubernetes.io/tls   2      "), "{text}");
        let (text, _) = kubectl_with_files(&mut sim, "create secret tls x --cert=notes.txt --key=tls.key", &files);
        assert_eq!(text, "error: tls: failed to find any PEM data in certificate input\n");
        let (text, _) = kubectl_with_files(&mut sim, "create secret tls x --cert=tls.crt --key=tls.crt", &files);
        assert_eq!(text, "error: tls: found a certificate rather than a key in the PEM for the private key\n");
        let (text, _) = kubectl_with_files(&mut sim, "create secret tls x --cert=tls.crt", &files);
        assert_eq!(text, "error: key and cert must be specified\n");
    }
}
