//! busybox `wget` inside a pod, for `kubectl exec`: names resolved as cluster DNS does
//! (`svc`, `svc.ns`, `svc.ns.svc.cluster.local`), Service traffic sent to one ready endpoint
//! picked at random with the lab's rng (kube-proxy's iptables mode), and the answer taken
//! from the target pod's workload. A `/hog?mb=N` answer grows the container's memory.

use crate::api::intstr::IntOrString;
use crate::api::labels::Selector;
use crate::api::service::ServicePort;
use crate::api::{EndpointSlice, Pod, Service};
use crate::sim::Sim;
use crate::sim::random::Purpose;

/// What the command printed (stdout and stderr together) and its exit code.
pub type Ran = (String, i32);

const USAGE: &str = "BusyBox v1.37.0 (2024-09-26 21:31:42 UTC) multi-call binary.\n\nUsage: wget [-cqS] [--spider] [-O FILE] [-o LOGFILE] [--header STR]\n\t[--post-data STR | --post-file FILE] [-Y on/off]\n\t[-P DIR] [-U AGENT] [-T SEC] URL...\n\nRetrieve files via HTTP or FTP\n";

/// The flags lessons use: `-q`, `-O FILE|-`, `-T SEC`, `--spider`.
struct Request {
    quiet: bool,
    to_stdout: bool,
    spider: bool,
    url: String,
}

/// Runs `wget ARGS…` from `from` (the pod exec'd into).
pub fn wget(sim: &mut Sim, from: &Pod, args: &[String]) -> Ran {
    let Some(request) = parse(args) else { return (USAGE.to_string(), 1) };
    let Some((host, port, path)) = split_url(&request.url) else {
        return (format!("wget: not an http or ftp url: {}\n", request.url), 1);
    };
    let mut printed = String::new();
    let target = match resolve(sim, from, &host, port) {
        Ok(target) => target,
        Err(message) => return (message, 1),
    };
    if !request.quiet {
        printed.push_str(&format!("Connecting to {host} ({}:{port})\n", target.shown_ip));
    }
    let (ip, target_port) = match target.backend {
        Some(backend) => backend,
        None => {
            return (
                printed + &format!("wget: can't connect to remote host ({}): Connection refused\n", target.shown_ip),
                1,
            );
        }
    };
    match answer(sim, &ip, target_port, &path) {
        Answer::Refused => (printed + &format!("wget: can't connect to remote host ({ip}): Connection refused\n"), 1),
        Answer::Unreachable => {
            (printed + &format!("wget: can't connect to remote host ({ip}): Host is unreachable\n"), 1)
        }
        Answer::Killed => (printed + "wget: error getting response\n", 1),
        Answer::Http(status, _) if !(200..300).contains(&status) => {
            (printed + &format!("wget: server returned error: HTTP/1.1 {status} {}\n", reason_phrase(status)), 1)
        }
        Answer::Http(_, body) => {
            if request.spider {
                return (printed, 0);
            }
            let file = if request.to_stdout { None } else { Some(file_name(&path)) };
            if !request.quiet {
                printed.push_str(&file.as_ref().map_or("writing to stdout\n".into(), |f| format!("saving to '{f}'\n")));
            }
            if file.is_none() {
                printed.push_str(&body);
            }
            if !request.quiet {
                printed.push_str(&file.map_or("written to stdout\n".into(), |f| format!("'{f}' saved\n")));
            }
            (printed, 0)
        }
    }
}

fn parse(args: &[String]) -> Option<Request> {
    let mut request = Request { quiet: false, to_stdout: false, spider: false, url: String::new() };
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        match arg.as_str() {
            "--spider" => request.spider = true,
            "-q" | "--quiet" => request.quiet = true,
            _ if arg.starts_with('-') && arg.len() > 1 => {
                let cluster = &arg[1..];
                for (at, c) in cluster.char_indices() {
                    match c {
                        'q' => request.quiet = true,
                        'O' | 'T' | 'o' | 'P' | 'U' | 'Y' => {
                            let rest = &cluster[at + 1..];
                            let value = if rest.is_empty() {
                                args.get(i).inspect(|_| i += 1)?.clone()
                            } else {
                                rest.to_string()
                            };
                            if c == 'O' {
                                request.to_stdout = value == "-";
                            }
                            break;
                        }
                        _ => {}
                    }
                }
            }
            _ if request.url.is_empty() => request.url = arg.clone(),
            _ => {}
        }
    }
    (!request.url.is_empty()).then_some(request)
}

/// `http://host[:port][/path]` → (host, port, path).
fn split_url(url: &str) -> Option<(String, i32, String)> {
    let rest = url.strip_prefix("http://").or_else(|| (!url.contains("://")).then_some(url))?;
    let (authority, path) = match rest.find(['/', '?']) {
        Some(at) => (&rest[..at], rest[at..].to_string()),
        None => (rest, "/".to_string()),
    };
    let path = if path.starts_with('?') { format!("/{path}") } else { path };
    let (host, port) = match authority.rsplit_once(':') {
        Some((host, port)) => (host, port.parse().ok()?),
        None => (authority, 80),
    };
    (!host.is_empty()).then(|| (host.to_string(), port, path))
}

/// Where a connection goes: the address wget shows, and the pod IP and port behind it
/// (`None`: nothing behind it, refused).
struct Target {
    shown_ip: String,
    backend: Option<(String, i32)>,
}

fn resolve(sim: &mut Sim, from: &Pod, host: &str, port: i32) -> Result<Target, String> {
    if host == "localhost" || host == "127.0.0.1" {
        let ip = from.status.pod_ip.clone().unwrap_or_default();
        return Ok(Target { shown_ip: "127.0.0.1".into(), backend: Some((ip, port)) });
    }
    if host.parse::<std::net::Ipv4Addr>().is_ok() {
        let service = sim.store().list::<Service>(None).find(|s| s.spec.cluster_ip.as_deref() == Some(host)).cloned();
        return Ok(match service {
            Some(service) => route(sim, &service, port),
            None => Target { shown_ip: host.to_string(), backend: Some((host.to_string(), port)) },
        });
    }
    let service =
        service_named(sim, &from.metadata.namespace, host).ok_or_else(|| format!("wget: bad address '{host}'\n"))?;
    Ok(route(sim, &service, port))
}

/// Cluster DNS: `svc` in the pod's namespace, `svc.ns`, `svc.ns.svc`, `svc.ns.svc.cluster.local`.
fn service_named(sim: &Sim, namespace: &str, host: &str) -> Option<Service> {
    let host = host.trim_end_matches('.').trim_end_matches(".cluster.local").trim_end_matches(".svc");
    let (name, namespace) = host.split_once('.').unwrap_or((host, namespace));
    let service = sim.store().try_get::<Service>(namespace, name)?;
    service.spec.cluster_ip.as_deref().filter(|ip| *ip != "None")?;
    Some(service.clone())
}

/// kube-proxy: the Service port's ready endpoints, one picked at random.
fn route(sim: &mut Sim, service: &Service, port: i32) -> Target {
    let shown_ip = service.spec.cluster_ip.clone().unwrap_or_default();
    let Some(service_port) = service.spec.ports.iter().find(|p| p.port == port) else {
        return Target { shown_ip, backend: None };
    };
    let backends = endpoints(sim, service, service_port);
    if backends.is_empty() {
        return Target { shown_ip, backend: None };
    }
    let pick = sim.store_mut().random_below(Purpose::ServiceRouting, backends.len() as u64) as usize;
    Target { shown_ip, backend: backends.into_iter().nth(pick) }
}

/// The ready (IP, port) pairs behind a Service port: its EndpointSlices when they exist, else
/// the ready pods its selector matches (what the EndpointSlice controller would list).
fn endpoints(sim: &Sim, service: &Service, service_port: &ServicePort) -> Vec<(String, i32)> {
    let namespace = &service.metadata.namespace;
    let port_name = service_port.name.as_deref().unwrap_or("");
    let slices: Vec<&EndpointSlice> = sim
        .store()
        .list::<EndpointSlice>(Some(namespace))
        .filter(|s| s.metadata.labels.get("kubernetes.io/service-name") == Some(service.metadata.name.as_str()))
        .collect();
    let mut backends = Vec::new();
    for slice in &slices {
        let port = slice.ports.iter().find(|p| p.name.as_deref().unwrap_or("") == port_name).and_then(|p| p.port);
        let Some(port) = port else { continue };
        for endpoint in slice.endpoints.iter().filter(|e| e.conditions.ready != Some(false)) {
            backends.extend(endpoint.addresses.iter().map(|a| (a.clone(), port)));
        }
    }
    if !slices.is_empty() || service.spec.selector.is_empty() {
        return backends;
    }
    let selector = Selector::from_set(&service.spec.selector);
    let pods = sim.store().list::<Pod>(Some(namespace)).filter(|p| selector.matches(&p.metadata.labels));
    for pod in pods.filter(|p| p.is_ready() && p.metadata.deletion_timestamp.is_none()) {
        let (Some(ip), Some(port)) = (pod.status.pod_ip.clone(), target_port(pod, service_port)) else { continue };
        backends.push((ip, port));
    }
    backends
}

/// `targetPort`: a number, a named container port, or the Service port itself.
fn target_port(pod: &Pod, service_port: &ServicePort) -> Option<i32> {
    match &service_port.target_port {
        None => Some(service_port.port),
        Some(IntOrString::Int(port)) => Some(*port),
        Some(IntOrString::String(name)) => {
            let ports = pod.spec.containers.iter().flat_map(|c| c.ports.iter());
            ports.clone().find(|p| p.name.as_deref() == Some(name.as_str())).map(|p| p.container_port)
        }
    }
}

enum Answer {
    Http(u16, String),
    Refused,
    Unreachable,
    /// The request made the container exceed its memory limit: OOM-killed mid-request.
    Killed,
}

/// The pod at `ip` answers `GET path` on `port` from whichever container listens there.
fn answer(sim: &mut Sim, ip: &str, port: i32, path: &str) -> Answer {
    let pod = sim.store().list::<Pod>(None).find(|p| p.status.pod_ip.as_deref() == Some(ip)).cloned();
    let Some(pod) = pod else { return Answer::Unreachable };
    let (namespace, name) = (pod.metadata.namespace.clone(), pod.metadata.name.clone());
    let Some(node) = sim.pod_node_server(&pod) else { return Answer::Unreachable };
    let now = sim.now();
    let mut response = None;
    for spec in pod.spec.containers.iter() {
        let Some(process) = node.running_container(&pod, &spec.name) else { continue };
        if let Ok(http) = process.image.workload.respond(spec, path, port, &name, now.since(process.started_at)) {
            response = Some((spec.name.clone(), http));
            break;
        }
    }
    let Some((container, http)) = response else { return Answer::Refused };
    if http.hog_mib > 0 && sim.add_memory(&namespace, &name, &container, http.hog_mib).unwrap_or(false) {
        return Answer::Killed;
    }
    Answer::Http(http.status, http.body)
}

/// The file busybox saves to without `-O`: the path's last segment, else `index.html`.
fn file_name(path: &str) -> String {
    let path = path.split('?').next().unwrap_or("");
    let last = path.rsplit('/').next().unwrap_or("");
    if last.is_empty() { "index.html".into() } else { last.to_string() }
}

fn reason_phrase(status: u16) -> &'static str {
    match status {
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_and_flags_parse_as_busybox_reads_them() {
        assert_eq!(split_url("http://hello"), Some(("hello".into(), 80, "/".into())));
        assert_eq!(split_url("10.244.1.2:8080/hog?mb=100"), Some(("10.244.1.2".into(), 8080, "/hog?mb=100".into())));
        assert_eq!(split_url("ftp://x"), None);
        let words = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        let request = parse(&words("-qO- http://hello")).unwrap();
        assert!(request.quiet && request.to_stdout && request.url == "http://hello");
        let request = parse(&words("-q -O - -T 2 hello")).unwrap();
        assert!(request.quiet && request.to_stdout && request.url == "hello");
        assert!(parse(&words("-q")).is_none());
    }
}
