//! `kubectl create service clusterip|nodeport NAME --tcp=port[:targetPort]`. Mirrors
//! staging/src/k8s.io/kubectl/pkg/cmd/create/create_service.go.

use super::{generated_metadata, one_name};
use crate::kubectl::args::{Args, Flag, int_flag};
use crate::kubectl::output::Output;
use crate::kubectl::print_flags::Refusal;
use crate::kubectl::print_flags::{self, DRY_RUN, OUTPUT};
use crate::kubectl::{Context, Verb, group_run, usage_error};
use serde_json::{Value, json};

pub const VERB: Verb = Verb {
    name: "create service",
    short: "Create a service using a specified subcommand",
    usage: "kubectl create service [flags] [options]",
    flags: &[],
    run: |_ctx, args| group_run(&VERB, &args),
};

pub const SUBCOMMANDS: &[Verb] = &[CLUSTER_IP, NODE_PORT];

const TCP: Flag = Flag::repeated("tcp", None, "Port pairs can be specified as '<port>:<targetPort>'.");

pub const CLUSTER_IP: Verb = Verb {
    name: "create service clusterip",
    short: "Create a ClusterIP service",
    usage: "kubectl create service clusterip NAME [--tcp=<port>:<targetPort>] [--dry-run=server|client|none] [options]",
    flags: &[
        TCP,
        Flag::value(
            "clusterip",
            None,
            "Assign your own ClusterIP or set to 'None' for a 'headless' service (no loadbalancing).",
        ),
        DRY_RUN,
        OUTPUT,
    ],
    run: |ctx, args| run(ctx, args, &CLUSTER_IP, "ClusterIP"),
};

pub const NODE_PORT: Verb = Verb {
    name: "create service nodeport",
    short: "Create a NodePort service",
    usage: "kubectl create service nodeport NAME [--tcp=port:targetPort] [--dry-run=server|client|none] [options]",
    flags: &[
        TCP,
        Flag::value("node-port", None, "Port used to expose the service on each node in a cluster."),
        DRY_RUN,
        OUTPUT,
    ],
    run: |ctx, args| run(ctx, args, &NODE_PORT, "NodePort"),
};

fn run(ctx: &mut Context<'_>, args: Args, verb: &Verb, type_: &str) -> Output {
    let node_port = match int_flag(&args, "node-port") {
        Ok(port) => port,
        Err(message) => return usage_error(verb, &message),
    };
    let name = match one_name(&args, verb) {
        Ok(name) => name,
        Err(message) => return Output::failed(message),
    };
    let tcp = args.all("tcp");
    if tcp.is_empty() && args.get("clusterip") != Some("None") {
        return Output::failed("error: at least one tcp port specifier must be provided");
    }
    let mut ports = Vec::new();
    for spec in tcp {
        match port(spec, node_port) {
            Ok(port) => ports.push(port),
            Err(message) => return Output::failed(message),
        }
    }
    let labels = json!({"app": name});
    let mut spec = json!({"ports": ports, "selector": labels, "type": type_});
    if let Some(cluster_ip) = args.get("clusterip").filter(|ip| !ip.is_empty()) {
        spec["clusterIP"] = json!(cluster_ip);
    }
    let service = json!({
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": generated_metadata(&args, &name, Some(labels)),
        "spec": spec,
        "status": {"loadBalancer": {}},
    });
    let failed_to = format!("failed to create {type_} service: ");
    print_flags::create(ctx, &args, service, Refusal::Prefixed(&failed_to))
}

/// `80:8080` → `{name: 80-8080, port: 80, protocol: TCP, targetPort: 8080}`.
fn port(spec: &str, node_port: Option<i64>) -> Result<Value, String> {
    let (port_text, target) = spec.split_once(':').unwrap_or((spec, spec));
    let parse_error = |text: &str| format!("error: strconv.ParseUint: parsing {text:?}: invalid syntax");
    let port: u16 = port_text.parse().map_err(|_| parse_error(port_text))?;
    let target_port = match target.parse::<u16>() {
        Ok(number) => json!(number),
        Err(_) if !target.is_empty() => json!(target),
        Err(_) => return Err(parse_error(target)),
    };
    let mut value = json!({"name": spec.replace(':', "-"), "port": port, "protocol": "TCP", "targetPort": target_port});
    if let Some(node_port) = node_port.filter(|p| *p > 0) {
        value["nodePort"] = json!(node_port);
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use crate::kubectl::create::tests::kubectl;
    use crate::sim::Sim;

    #[test]
    fn services_select_their_own_name() {
        let mut sim = Sim::default();
        let (text, _) =
            kubectl(&mut sim, "create service nodeport web --tcp=80:8080 --node-port=30080 --dry-run=client -o yaml");
        assert_eq!(
            text,
            "apiVersion: v1\nkind: Service\nmetadata:\n  labels:\n    app: web\n  name: web\nspec:\n  ports:\n  - name: 80-8080\n    nodePort: 30080\n    port: 80\n    protocol: TCP\n    targetPort: 8080\n  selector:\n    app: web\n  type: NodePort\nstatus:\n  loadBalancer: {}\n"
        );
        let (text, _) = kubectl(&mut sim, "create service clusterip web --tcp=80");
        assert_eq!(text, "service/web created\n");
        let (text, _) = kubectl(&mut sim, "create svc clusterip other");
        assert_eq!(text, "error: at least one tcp port specifier must be provided\n");
        let (text, _) = kubectl(&mut sim, "create service clusterip other --tcp=abc");
        assert_eq!(text, "error: strconv.ParseUint: parsing \"abc\": invalid syntax\n");
    }
}
