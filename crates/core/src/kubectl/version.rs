//! `kubectl version`: the client, its embedded kustomize, and the lab's API server (which
//! reports the same Kubernetes version). Mirrors staging/src/k8s.io/kubectl/pkg/cmd/version.

use super::args::{Args, Flag};
use super::output::{DocumentFormat, Output};
use super::{Context, Verb};
use serde_json::{Value, json};

pub const VERB: Verb = Verb {
    name: "version",
    short: "Print the client and server version information",
    usage: "kubectl version [flags] [options]",
    flags: &[
        Flag::switch("client", None, "If true, shows client version only (no server required)."),
        Flag::value("output", Some('o'), "One of 'yaml' or 'json'."),
    ],
    run,
};

pub const KUBERNETES_VERSION: &str = "v1.32.0";
const KUSTOMIZE_VERSION: &str = "v5.5.0";

fn run(_ctx: &mut Context<'_>, args: Args) -> Output {
    let client_only = args.switch("client");
    let mut out = Output::default();
    match args.get("output").unwrap_or("") {
        "" => {
            out.line(format!("Client Version: {KUBERNETES_VERSION}"));
            out.line(format!("Kustomize Version: {KUSTOMIZE_VERSION}"));
            if !client_only {
                out.line(format!("Server Version: {KUBERNETES_VERSION}"));
            }
        }
        format @ ("yaml" | "json") => {
            let mut document = json!({"clientVersion": info(), "kustomizeVersion": KUSTOMIZE_VERSION});
            if !client_only {
                document["serverVersion"] = info();
            }
            let format = if format == "yaml" { DocumentFormat::Yaml } else { DocumentFormat::Json };
            out.document(document, format);
        }
        _ => return Output::failed("error: --output must be 'yaml' or 'json'"),
    }
    out
}

/// `version.Info` as the API server's `/version` returns it.
fn info() -> Value {
    json!({
        "buildDate": "2024-12-11T17:58:57Z",
        "compiler": "gc",
        "gitCommit": "70d3cc986aa8221cd1dfb1121852688902d3bf53",
        "gitTreeState": "clean",
        "gitVersion": KUBERNETES_VERSION,
        "goVersion": "go1.23.3",
        "major": "1",
        "minor": "32",
        "platform": "linux/amd64",
    })
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{lab, run};

    #[test]
    fn versions_print_as_kubectl_prints_them() {
        let mut sim = lab("");
        assert_eq!(
            run(&mut sim, "kubectl version"),
            "Client Version: v1.32.0\nKustomize Version: v5.5.0\nServer Version: v1.32.0\n"
        );
        assert_eq!(run(&mut sim, "kubectl version --client"), "Client Version: v1.32.0\nKustomize Version: v5.5.0\n");
        assert!(run(&mut sim, "kubectl version -o yaml").contains("serverVersion:\n  buildDate:"));
    }
}
