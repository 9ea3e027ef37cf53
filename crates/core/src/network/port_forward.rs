//! `kubectl port-forward`'s far end: the container runtime dials `localhost:PORT` in the pod's
//! network namespace and relays the connection's bytes; here the connection carries HTTP/1.x,
//! which the pod's workload answers. Errors are worded as the kubelet's handler
//! (pkg/kubelet/cri/streaming/portforward/httpstream.go) wraps containerd's
//! (internal/cri/server/sandbox_portforward_linux.go) and writes them to the error stream.

use super::connection::{self, Answer};
use super::http1::{self, Request};
use crate::api::{Kind, Object, Pod};
use crate::error::ApiError;
use crate::sim::Sim;
use crate::store::UserInfo;

/// The pod a forward reaches, as the connection names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forward {
    pub namespace: String,
    pub pod: String,
    pub uid: crate::api::meta::Uid,
}

/// What one request on a forwarded connection got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exchange {
    /// The response's bytes.
    pub response: Vec<u8>,
    /// Whether the server closes the connection after it.
    pub close: bool,
}

/// The pod `…/pods/<name>/portforward` reaches, checked before the connection is upgraded
/// (the API server's `PortForwardLocation`: `create` on `pods/portforward`, a pod on a node).
pub fn target(sim: &Sim, user: &UserInfo, (namespace, name): (&str, &str)) -> Result<Forward, ApiError> {
    sim.store().authorize_as(user, ("create", Kind::Pod), namespace, name, "portforward")?;
    let Object::Pod(pod) = sim.store().get_object(Kind::Pod, namespace, name)? else {
        return Err(ApiError::not_found("pods", name));
    };
    if pod.node_name().is_none() {
        return Err(ApiError::BadRequest { message: format!("pod {name} does not have a host assigned") });
    }
    Ok(Forward { namespace: namespace.to_string(), pod: name.to_string(), uid: pod.metadata.uid })
}

/// Opens a forwarded connection to `port`: `Ok` when something in the pod listens there, else
/// the message the kubelet writes to the error stream.
pub fn open(sim: &Sim, forward: &Forward, port: u16) -> Result<(), String> {
    let pod = current(sim, forward, port)?;
    if listening(sim, &pod, port) { Ok(()) } else { Err(refused(forward, port)) }
}

/// One request on an open forwarded connection: the workload's answer, or the error the
/// kubelet reports when the connection broke (the pod went, its server stopped or was killed).
pub fn exchange(sim: &mut Sim, forward: &Forward, port: u16, request: &Request) -> Result<Exchange, String> {
    let pod = current(sim, forward, port)?;
    let ip = pod.status.pod_ip.clone().unwrap_or_default();
    let headers = request.headers.clone();
    let answer = connection::request_headers(sim, &ip, i32::from(port), &request.target, &headers, 0);
    // What the request did (memory a handler allocated) reaches the cluster.
    sim.settle();
    match answer {
        Answer::Http { status, body, .. } => {
            let close = !request.keep_alive();
            let head_only = request.method == "HEAD";
            let response = http1::response(status, &body, &http1::date(sim.now()), (head_only, close));
            Ok(Exchange { response, close })
        }
        Answer::Refused | Answer::Unreachable | Answer::Killed => Err(reset(forward, port)),
    }
}

/// The pod the forward was opened to, while it still exists.
fn current(sim: &Sim, forward: &Forward, port: u16) -> Result<Pod, String> {
    let pod = sim.store().get::<Pod>(&forward.namespace, &forward.pod).ok().filter(|p| p.metadata.uid == forward.uid);
    let sandbox = sandbox_id(forward);
    let gone = || wrap(forward, port, &format!("failed to find sandbox {sandbox:?} in store: not found"));
    pod.cloned().ok_or_else(gone)
}

/// Whether a running container of the pod accepts connections on `port` now.
fn listening(sim: &Sim, pod: &Pod, port: u16) -> bool {
    let Some(node) = sim.pod_node_server(pod) else { return false };
    let now = sim.now();
    pod.spec.containers.iter().any(|spec| {
        let Some(process) = node.running_container(pod, &spec.name) else { return false };
        let workload = &process.image.workload;
        let behaviour = &workload.behaviour;
        let proxy = behaviour.ingress_controller.is_some() || behaviour.gateway_controller.is_some();
        (proxy && (port == 80 || port == 443))
            || workload.listening(spec, i32::from(port), now.since(process.started_at))
    })
}

/// Nothing listens on the port (containerd dials IPv4, then IPv6).
fn refused(forward: &Forward, port: u16) -> String {
    let (sandbox, netns) = (sandbox_id(forward), netns(forward));
    wrap(
        forward,
        port,
        &format!(
            "failed to execute portforward in network namespace {netns:?}: failed to connect to localhost:{port} inside namespace {sandbox:?}, IPv4: dial tcp4 127.0.0.1:{port}: connect: connection refused IPv6 dial tcp6 [::1]:{port}: connect: connection refused "
        ),
    )
}

/// The pod's server went away mid-connection.
fn reset(forward: &Forward, port: u16) -> String {
    let netns = netns(forward);
    let local = 40000 + (forward.uid.0 % 20000) as u16;
    wrap(
        forward,
        port,
        &format!(
            "failed to execute portforward in network namespace {netns:?}: read tcp4 127.0.0.1:{local}->127.0.0.1:{port}: read: connection reset by peer"
        ),
    )
}

/// The kubelet's wrapping; containerd's streaming server passes the sandbox ID as the pod and
/// no UID.
fn wrap(forward: &Forward, port: u16, cause: &str) -> String {
    format!("error forwarding port {port} to pod {}, uid : {cause}", sandbox_id(forward))
}

/// The pod's sandbox ID (64 hex digits, as containerd's), derived from its UID.
pub fn sandbox_id(forward: &Forward) -> String {
    (0..4u64).map(|i| format!("{:016x}", mix(forward.uid.0, i))).collect()
}

/// The sandbox's network namespace, as the CNI plugins name it (`/var/run/netns/cni-<uuid>`).
fn netns(forward: &Forward) -> String {
    let h = format!("{:016x}{:016x}", mix(forward.uid.0, 4), mix(forward.uid.0, 5));
    format!("/var/run/netns/cni-{}-{}-{}-{}-{}", &h[0..8], &h[8..12], &h[12..16], &h[16..20], &h[20..32])
}

/// splitmix64 over the UID's halves and a lane number.
fn mix(uid: u128, lane: u64) -> u64 {
    let mut z = (uid as u64) ^ ((uid >> 64) as u64).rotate_left(17) ^ lane.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kubectl::fixture::{hello_lab, pod_named};

    fn forward_to(sim: &Sim, prefix: &str) -> Forward {
        let name = pod_named(sim, prefix);
        let admin = UserInfo::admin();
        target(sim, &admin, ("default", &name)).unwrap()
    }

    #[test]
    fn a_forward_gets_what_the_pod_serves_and_a_closed_port_is_refused() {
        let mut sim = hello_lab(12);
        let forward = forward_to(&sim, "hello-");
        assert_eq!(open(&sim, &forward, 8080), Ok(()));
        let http1::Read::Request(request, _) = http1::read(b"GET / HTTP/1.1\r\nHost: localhost:9000\r\n\r\n") else {
            panic!()
        };
        let exchange = exchange(&mut sim, &forward, 8080, &request).unwrap();
        let text = String::from_utf8(exchange.response).unwrap();
        assert!(text.starts_with("HTTP/1.1 200 OK\r\nDate: "), "{text}");
        assert!(text.ends_with(&format!("\r\n\r\nhello from {} (v1)\n", forward.pod)), "{text}");
        assert!(!exchange.close);
        let refused = open(&sim, &forward, 81).unwrap_err();
        let sandbox = sandbox_id(&forward);
        assert!(refused.starts_with(&format!("error forwarding port 81 to pod {sandbox}, uid : failed to execute portforward in network namespace \"/var/run/netns/cni-")), "{refused}");
        assert!(refused.ends_with(&format!("\": failed to connect to localhost:81 inside namespace \"{sandbox}\", IPv4: dial tcp4 127.0.0.1:81: connect: connection refused IPv6 dial tcp6 [::1]:81: connect: connection refused ")), "{refused}");
        let missing = target(&sim, &UserInfo::admin(), ("default", "nope")).unwrap_err();
        assert_eq!(missing.to_string(), "Error from server (NotFound): pods \"nope\" not found");
    }
}
