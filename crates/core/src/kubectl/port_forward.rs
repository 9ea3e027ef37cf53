//! `kubectl port-forward TYPE/NAME [LOCAL:]REMOTE…`: picks the pod, maps Service ports to the
//! pod's target ports and prints kubectl's `Forwarding from …` lines. Mirrors
//! staging/src/k8s.io/kubectl/pkg/cmd/portforward/portforward.go. The lab opens no socket on
//! the learner's machine: kubectl would keep running until Ctrl-C; here it returns with a note.

use super::args::{Args, Flag};
use super::output::Output;
use super::{Context, Verb, namespace_of, pods};
use crate::api::intstr::IntOrString;
use crate::api::{Pod, Service};
use crate::kubectl::UsageError;
use crate::store::Store;

pub const VERB: Verb = Verb {
    name: "port-forward",
    short: "Forward one or more local ports to a pod",
    usage: "kubectl port-forward TYPE/NAME [options] [LOCAL_PORT:]REMOTE_PORT [...[LOCAL_PORT_N:]REMOTE_PORT_N]",
    flags: &[
        Flag::repeated(
            "address",
            None,
            "Addresses to listen on (comma separated). Only accepts IP addresses or localhost as a value. When localhost is supplied, kubectl will try to bind on both 127.0.0.1 and ::1 and will fail if neither of these addresses are available to bind.",
        ),
        Flag::value(
            "pod-running-timeout",
            None,
            "The length of time (like 5s, 2m, or 3h, higher than zero) to wait until at least one pod is running",
        ),
    ],
    run,
};

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let [target, ports @ ..] = args.positionals.as_slice() else {
        return Output::failed(usage());
    };
    if ports.is_empty() {
        return Output::failed(usage());
    }
    let mut out = Output::default();
    match forward(ctx.sim.store(), &namespace_of(&args), target, ports) {
        Ok(pairs) => {
            for (local, remote) in &pairs {
                for address in addresses(&args) {
                    out.line(format!("Forwarding from {address}:{local} -> {remote}"));
                }
            }
            let locals: Vec<String> = pairs.iter().map(|(local, _)| local.to_string()).collect();
            out.warn(format!(
                "(kubelab: the cluster is simulated, so nothing listens on port {} of your machine; reach the pod from inside the lab, e.g. kubectl exec … -- wget -qO- http://SERVICE:PORT/)",
                locals.join(", ")
            ));
        }
        Err(message) => out.error(message),
    }
    out
}

fn usage() -> String {
    UsageError::command("TYPE/NAME and list of ports are required for port-forward").render("port-forward")
}

/// `--address`: `localhost` listens on 127.0.0.1 and ::1.
fn addresses(args: &Args) -> Vec<String> {
    let given: Vec<&str> = args.all("address").iter().flat_map(|a| a.split(',')).collect();
    let given = if given.is_empty() { vec!["localhost"] } else { given };
    given
        .into_iter()
        .flat_map(|a| match a {
            "localhost" => vec!["127.0.0.1".to_string(), "[::1]".to_string()],
            ip if ip.contains(':') => vec![format!("[{ip}]")],
            ip => vec![ip.to_string()],
        })
        .collect()
}

/// The (local, remote) port pairs, after the pod is found and Service ports are translated.
fn forward(store: &Store, namespace: &str, target: &str, ports: &[String]) -> Result<Vec<(u16, u16)>, String> {
    let (pod, _) = pods::pod_for(store, namespace, target)?;
    let service = match target.split_once('/') {
        Some((type_, name)) if crate::api::Kind::from_cli_name(type_) == Some(crate::api::Kind::Service) => {
            Some(store.get::<Service>(namespace, name).map_err(|e| e.to_string())?.clone())
        }
        _ => None,
    };
    let mut pairs = Vec::new();
    for spec in ports {
        let (local, remote) = spec.split_once(':').unwrap_or((spec, spec));
        let (local, remote) = match &service {
            Some(svc) => service_port(svc, &pod, local, remote)?,
            None => (local.to_string(), named_port(&pod, remote)?),
        };
        let local = if local.is_empty() { remote.clone() } else { local };
        let parse = |text: &str, which: &str| {
            text.parse::<u16>().map_err(|_| {
                format!(
                    "error: Error parsing {which} port '{text}': strconv.ParseUint: parsing \"{text}\": invalid syntax"
                )
            })
        };
        let (local, remote) = (parse(&local, "local")?, parse(&remote, "remote")?);
        if remote == 0 {
            return Err("error: remote port cannot be zero".into());
        }
        pairs.push((local, remote));
    }
    if pod.phase() != "Running" {
        return Err(format!(
            "error: unable to forward port because pod is not running. Current status={}",
            pod.phase()
        ));
    }
    Ok(pairs)
}

/// A Service port (number or name) to the pod's port its targetPort names; the local port
/// defaults to the Service port. Upstream `translateServicePortToTargetPort`.
fn service_port(svc: &Service, pod: &Pod, local: &str, remote: &str) -> Result<(String, String), String> {
    let name = &svc.metadata.name;
    let port = svc
        .spec
        .ports
        .iter()
        .find(|p| p.port.to_string() == remote || p.name.as_deref() == Some(remote))
        .ok_or_else(|| format!("error: Service {name} does not have a service port {remote}"))?;
    let target = match &port.target_port {
        None => port.port.to_string(),
        Some(IntOrString::Int(n)) => n.to_string(),
        Some(IntOrString::String(named)) => named_port(pod, named)?,
    };
    let local = if local == remote { port.port.to_string() } else { local.to_string() };
    Ok((local, target))
}

/// A port given by name (`http`) as the number the pod's container declares.
fn named_port(pod: &Pod, port: &str) -> Result<String, String> {
    if port.is_empty() || port.chars().all(|c| c.is_ascii_digit()) {
        return Ok(port.to_string());
    }
    let ports = pod.spec.containers.iter().flat_map(|c| &c.ports);
    let found = ports.clone().find(|p| p.name.as_deref() == Some(port)).map(|p| p.container_port.to_string());
    found.ok_or_else(|| format!("error: Pod '{}' does not have a named port '{port}'", pod.metadata.name))
}

#[cfg(test)]
mod tests {
    use crate::kubectl::create::tests::kubectl;
    use crate::kubectl::fixture::{hello_lab, pod_named};

    #[test]
    fn port_forward_prints_both_loopback_listeners_and_maps_service_ports() {
        let mut sim = hello_lab(12);
        kubectl(&mut sim, "expose deploy hello --port=80 --target-port=8080");
        let (text, code) = kubectl(&mut sim, "port-forward svc/hello 8080:80");
        assert_eq!(code, 0, "{text}");
        assert!(
            text.starts_with("Forwarding from 127.0.0.1:8080 -> 8080\nForwarding from [::1]:8080 -> 8080\n"),
            "{text}"
        );
        let (text, _) = kubectl(&mut sim, "port-forward svc/hello 80 --address 0.0.0.0");
        assert!(text.starts_with("Forwarding from 0.0.0.0:80 -> 8080\n(kubelab"), "{text}");
        let pod = pod_named(&sim, "hello-");
        let (text, _) = kubectl(&mut sim, &format!("port-forward {pod} 9000:8080"));
        assert!(text.starts_with("Forwarding from 127.0.0.1:9000 -> 8080\n"), "{text}");
        let cases = [
            (
                "port-forward svc/hello",
                "error: TYPE/NAME and list of ports are required for port-forward\nSee 'kubectl port-forward -h' for help and examples\n",
            ),
            ("port-forward svc/hello 81", "error: Service hello does not have a service port 81\n"),
            ("port-forward svc/nope 80", "Error from server (NotFound): services \"nope\" not found\n"),
            (
                "port-forward deploy/hello x:8080",
                "error: Error parsing local port 'x': strconv.ParseUint: parsing \"x\": invalid syntax\n",
            ),
        ];
        for (line, expected) in cases {
            assert_eq!(kubectl(&mut sim, line), (expected.to_string(), 1), "{line}");
        }
    }
}
