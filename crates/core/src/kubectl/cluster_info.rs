//! `kubectl cluster-info`: where the control plane listens, and a proxy link for each Service
//! labelled `kubernetes.io/cluster-service=true` in kube-system (CoreDNS's kube-dns). Mirrors
//! staging/src/k8s.io/kubectl/pkg/cmd/clusterinfo/clusterinfo.go. The control plane's line is
//! printed before any request is made, so a stopped API server's refusal follows it.

use super::args::Args;
use super::control_plane_down;
use super::output::Output;
use super::{Context, Verb};
use crate::api::Service;
use crate::controllers::control_plane::SERVER_ADDRESS;

pub const VERB: Verb = Verb {
    name: "cluster-info",
    short: "Display cluster information",
    usage: "kubectl cluster-info [flags] [options]",
    flags: &[],
    run,
};

/// The label that marks a Service as the cluster's own (`kubernetes.io/cluster-service`).
const CLUSTER_SERVICE_LABEL: &str = "kubernetes.io/cluster-service";

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    if args.positionals.first().is_some_and(|word| word == "dump") {
        return Output::failed(
            "error: kubectl cluster-info dump is not available in the lab: use kubectl get, describe, logs and events",
        );
    }
    let host = format!("https://{SERVER_ADDRESS}");
    let mut out = Output::default();
    out.line(format!("Kubernetes control plane is running at {host}"));
    if let Some(refused) = control_plane_down::request_refusal(ctx) {
        out.error(refused);
        return out;
    }
    // `Complete`: the namespace is kube-system unless -n names another.
    let namespace = args.get("namespace").filter(|n| !n.is_empty()).unwrap_or("kube-system");
    let services: Vec<&Service> = ctx
        .sim
        .store()
        .list::<Service>(Some(namespace))
        .filter(|s| s.metadata.labels.get(CLUSTER_SERVICE_LABEL) == Some("true"))
        .collect();
    for service in services {
        let name = service.metadata.labels.get("kubernetes.io/name").unwrap_or(&service.metadata.name);
        out.line(format!("{name} is running at {}", proxy_link(&host, service)));
    }
    out.line("");
    out.line("To further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.");
    out
}

/// The API server's proxy path to the Service's first port: `<scheme>:<name>:<port name>`,
/// `https` guessed from the port's name or number (`utilnet.JoinSchemeNamePort`).
fn proxy_link(host: &str, service: &Service) -> String {
    let meta = &service.metadata;
    let name = match service.spec.ports.first() {
        None => meta.name.clone(),
        Some(port) => {
            let port_name = port.name.clone().unwrap_or_default();
            let scheme = if port_name == "https" || port.port == 443 { "https" } else { "" };
            join_scheme_name_port(scheme, &meta.name, &port_name)
        }
    };
    format!("{host}/api/v1/namespaces/{}/services/{name}/proxy", meta.namespace)
}

/// `JoinSchemeNamePort`: `name`, `name:port`, `scheme:name:port` or `scheme:name:`.
fn join_scheme_name_port(scheme: &str, name: &str, port: &str) -> String {
    match (scheme.is_empty(), port.is_empty()) {
        (true, true) => name.to_string(),
        (true, false) => format!("{name}:{port}"),
        (false, _) => format!("{scheme}:{name}:{port}"),
    }
}

#[cfg(test)]
mod tests {
    use crate::kubectl::rollout::fixtures::kubectl;
    use crate::sim::Sim;

    #[test]
    fn the_control_plane_and_coredns_are_listed() {
        let mut sim = Sim::default();
        let (text, code) = kubectl(&mut sim, "cluster-info");
        assert_eq!(code, 0);
        assert_eq!(
            text,
            "Kubernetes control plane is running at https://127.0.0.1:6443\n\
             CoreDNS is running at https://127.0.0.1:6443/api/v1/namespaces/kube-system/services/kube-dns:dns/proxy\n\
             \n\
             To further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.\n"
        );
        let (text, _) = kubectl(&mut sim, "cluster-info -n default");
        assert!(!text.contains("CoreDNS"), "{text}");
        crate::kubectl::fixture::run(&mut sim, "lab apiserver stop");
        let (text, code) = kubectl(&mut sim, "cluster-info");
        assert_eq!(code, 1);
        assert_eq!(
            text,
            "Kubernetes control plane is running at https://127.0.0.1:6443\n\
             The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?\n"
        );
    }
}
