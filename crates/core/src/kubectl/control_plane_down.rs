//! What kubectl answers while the control plane cannot serve it: a stopped API server refuses
//! the connection (cmd/util/helpers.go's `The connection to the server … was refused`, with the
//! discovery cache still warm, so none of memcache.go's retries are logged first); with etcd
//! stopped, every request that reads or writes objects hangs for the API server's request
//! timeout and then fails (`sim/control_plane.rs` says which error and why).

use super::{Context, Output, Verb, args};
use crate::controllers::control_plane::{Component, ETCD_TIMEOUT_ERROR, REQUEST_TIMEOUT_SECONDS, SERVER_ADDRESS};
use crate::sim::time::Duration;

/// The failure the command meets before it can do anything, if the control plane is down.
pub fn refusal(ctx: &mut Context<'_>, verb: &Verb, args: &args::Args) -> Option<Output> {
    if !needs_server(verb, args) {
        return None;
    }
    if !ctx.sim.control_plane().is_running(Component::ApiServer) || needs_storage(verb, args) {
        return request_refusal(ctx).map(Output::failed);
    }
    None
}

/// What a request that reads or writes objects meets now, for a verb that makes its request
/// after printing something of its own (`cluster-info`): the refused connection, or etcd's
/// timeout once the request timeout has passed.
pub fn request_refusal(ctx: &mut Context<'_>) -> Option<String> {
    let plane = ctx.sim.control_plane();
    if !plane.is_running(Component::ApiServer) {
        return Some(format!(
            "The connection to the server {SERVER_ADDRESS} was refused - did you specify the right host or port?"
        ));
    }
    if !plane.is_running(Component::Etcd) {
        ctx.sim.advance(Duration::from_secs(REQUEST_TIMEOUT_SECONDS));
        return Some(ETCD_TIMEOUT_ERROR.to_string());
    }
    None
}

/// Whether the command talks to the API server at all: kubeconfig edits, `version --client`
/// and client-side dry runs of generators do not.
fn needs_server(verb: &Verb, args: &args::Args) -> bool {
    let client_dry_run =
        (verb.name.starts_with("create") || verb.name == "run") && args.get("dry-run") == Some("client");
    // cluster-info prints the control plane's address before its one request.
    !(verb.name.starts_with("config")
        || (verb.name == "version" && args.switch("client"))
        || client_dry_run
        || verb.name == "cluster-info")
}

/// Whether the API server must reach etcd to answer: discovery, `/version`, the OpenAPI
/// document and access reviews are served from its own memory. `get --raw` asks for one path,
/// which the REST door itself judges (`get_raw.rs` waits out the timeout when it must).
fn needs_storage(verb: &Verb, args: &args::Args) -> bool {
    let raw = verb.name == "get" && args.get("raw").is_some_and(|raw| !raw.is_empty());
    !(raw
        || matches!(verb.name, "version" | "api-resources" | "api-versions" | "explain" | "auth can-i" | "auth whoami"))
}

#[cfg(test)]
mod tests {
    use crate::cluster::ClusterSpec;
    use crate::kubectl::MemoryFiles;
    use crate::script;
    use crate::sim::Sim;

    fn run(sim: &mut Sim, line: &str) -> (String, bool) {
        let steps = script::parse(line).unwrap();
        script::run_step(sim, &steps[0], &MemoryFiles::new())
    }

    #[test]
    fn a_stopped_etcd_times_requests_out_and_a_stopped_api_server_refuses_them() {
        let mut sim = Sim::new(1, &ClusterSpec::default());
        assert!(run(&mut sim, "lab etcd stop").1);
        let before = sim.now();
        let (printed, ok) = run(&mut sim, "kubectl get pods");
        assert!(!ok);
        assert_eq!(
            printed,
            "Error from server (Timeout): Timeout: request did not complete within the allotted timeout\n"
        );
        assert_eq!(sim.now().since(before).as_millis(), 60_000);
        assert!(run(&mut sim, "kubectl api-resources --api-group=apps").1);
        assert!(run(&mut sim, "lab etcd start").1);
        assert!(run(&mut sim, "lab apiserver stop").1);
        let (printed, ok) = run(&mut sim, "kubectl get pods");
        assert!(!ok);
        assert_eq!(
            printed,
            "The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?\n"
        );
        assert!(run(&mut sim, "kubectl version --client").1);
        assert!(run(&mut sim, "kubectl create deployment web --image=nginx --dry-run=client -o name").1);
        assert!(run(&mut sim, "lab apiserver start").1);
        assert_eq!(run(&mut sim, "kubectl get pods"), ("No resources found in default namespace.\n".into(), true));
    }
}
