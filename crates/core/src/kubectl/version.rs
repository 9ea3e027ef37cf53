//! `kubectl version`: the client, its embedded kustomize, and the lab's API server (which
//! reports the same Kubernetes version). Mirrors staging/src/k8s.io/kubectl/pkg/cmd/version.

use super::args::{Args, Flag};
use super::output::{DocumentFormat, Output};
use super::{Context, Verb};
use serde_json::json;

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

use crate::version::{BUILD_DATE, GIT_COMMIT, GO_VERSION, KUBERNETES_VERSION, KUSTOMIZE_VERSION, MAJOR, MINOR};

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
        "yaml" => {
            let info = || serde_json::to_value(Info::new()).unwrap_or_default();
            let mut document = json!({"clientVersion": info(), "kustomizeVersion": KUSTOMIZE_VERSION});
            if !client_only {
                document["serverVersion"] = info();
            }
            // yaml.Marshal sorts the keys; `fmt.Fprintln` adds a blank line after its newline.
            out.document(document, DocumentFormat::Yaml);
            out.line("");
        }
        "json" => {
            // json.MarshalIndent keeps the struct's field order, two spaces deep.
            let server = (!client_only).then(Info::new);
            let document =
                Versions { client_version: Info::new(), kustomize_version: KUSTOMIZE_VERSION, server_version: server };
            out.line(serde_json::to_string_pretty(&document).unwrap_or_default());
        }
        _ => return Output::failed("error: --output must be 'yaml' or 'json'"),
    }
    out
}

/// What `kubectl version -o json` prints, in its field order.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Versions {
    client_version: Info,
    kustomize_version: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    server_version: Option<Info>,
}

/// `version.Info` (k8s.io/apimachinery/pkg/version), fields in its order.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Info {
    major: &'static str,
    minor: &'static str,
    git_version: &'static str,
    git_commit: &'static str,
    git_tree_state: &'static str,
    build_date: &'static str,
    go_version: &'static str,
    compiler: &'static str,
    platform: &'static str,
}

impl Info {
    fn new() -> Info {
        Info {
            major: MAJOR,
            minor: MINOR,
            git_version: KUBERNETES_VERSION,
            git_commit: GIT_COMMIT,
            git_tree_state: "clean",
            build_date: BUILD_DATE,
            go_version: GO_VERSION,
            compiler: "gc",
            platform: "linux/amd64",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{lab, run};

    #[test]
    fn versions_print_as_kubectl_prints_them() {
        let mut sim = lab("");
        assert_eq!(
            run(&mut sim, "kubectl version"),
            "Client Version: v1.36.4\nKustomize Version: v5.8.1\nServer Version: v1.36.4\n"
        );
        assert_eq!(run(&mut sim, "kubectl version --client"), "Client Version: v1.36.4\nKustomize Version: v5.8.1\n");
        assert!(run(&mut sim, "kubectl version -o yaml").contains("serverVersion:\n  buildDate:"));
    }
}
