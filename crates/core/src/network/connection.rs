//! One connection through the cluster's network: a destination address is a pod IP (the pod
//! network routes it), a ClusterIP or external IP (the client node's kube-proxy rewrites it to
//! an endpoint), or a node's address with a NodePort (that node's kube-proxy does). Then the
//! pod behind it answers an HTTP request from its workload. wget in pods, requests from
//! outside, the traffic generator and request load all go this way.

use super::service_rules::Backend;
use crate::api::{Node, Pod};
use crate::sim::Sim;
use crate::sim::time::Duration;

/// Who opens the connection.
#[derive(Clone, Copy, Debug)]
pub enum Client<'a> {
    Pod(&'a Pod),
    /// The learner's machine, outside the cluster: only node addresses and external IPs.
    Outside,
}

impl Client<'_> {
    fn ip(&self) -> String {
        match self {
            Client::Pod(pod) => pod.status.pod_ip.clone().unwrap_or_default(),
            Client::Outside => "192.168.1.10".into(),
        }
    }
}

/// Where a connection ended up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// An endpoint accepted it: the pod IP and port, and the Service it went through.
    Backend { ip: String, port: i32, service: Option<(String, String)> },
    /// REJECTed: a Service without endpoints (kube-proxy's reject rule), nothing listening.
    Refused,
    /// Dropped: no rule for the address yet, a `Local` policy without a local endpoint.
    TimedOut,
    /// No route to the host.
    Unreachable,
}

/// The node a destination is handled on, when it is a node's address.
fn node_with_ip<'s>(sim: &'s Sim, ip: &str) -> Option<&'s Node> {
    sim.store()
        .list::<Node>(None)
        .find(|n| n.status.addresses.iter().any(|a| a.type_ == "InternalIP" && a.address == ip))
}

/// Routes a connection to `ip:port` from `client`.
pub fn connect(sim: &mut Sim, client: Client<'_>, ip: &str, port: i32) -> Route {
    let client_ip = client.ip();
    if let Some(node) = node_with_ip(sim, ip).map(|n| n.metadata.name.clone()) {
        return through_proxy(sim, &node, &client_ip, ip, port, true);
    }
    let client_node = match client {
        Client::Pod(pod) => pod.node_name().map(str::to_string),
        // Traffic for an external IP arrives at the node announcing it (MetalLB's layer 2
        // mode: one node answers ARP for it); kube-proxy's rules on that node take it on.
        Client::Outside => announcing_node(sim, ip),
    };
    let Some(node) = client_node else { return Route::Unreachable };
    let now = sim.now();
    let is_service = sim.controllers().kube_proxy.lookup(&node, now, ip, port, false).is_some();
    if is_service || is_service_address(sim, ip) {
        if matches!(client, Client::Outside) && is_cluster_ip(sim, ip) {
            // ClusterIPs are routed only inside the cluster.
            return Route::TimedOut;
        }
        return through_proxy(sim, &node, &client_ip, ip, port, false);
    }
    if matches!(client, Client::Outside) {
        return Route::TimedOut;
    }
    match super::dns::pod_with_ip(sim.store(), ip) {
        Some(_) => Route::Backend { ip: ip.to_string(), port, service: None },
        None => Route::Unreachable,
    }
}

fn is_cluster_ip(sim: &Sim, ip: &str) -> bool {
    sim.store().list::<crate::api::Service>(None).any(|s| s.spec.cluster_ip.as_deref() == Some(ip))
}

/// Any Service address, programmed yet or not: the service CIDR (10.96.0.0/12) or a
/// Service's external IP.
fn is_service_address(sim: &Sim, ip: &str) -> bool {
    let in_service_cidr =
        ip.parse::<std::net::Ipv4Addr>().is_ok_and(|a| a.octets()[0] == 10 && (96..112).contains(&a.octets()[1]));
    in_service_cidr
        || sim.store().list::<crate::api::Service>(None).any(|s| {
            s.spec.external_ips.iter().any(|e| e == ip)
                || s.status.load_balancer.ingress.iter().any(|i| i.ip.as_deref() == Some(ip))
        })
}

/// The node a layer-2 load balancer announces `ip` from: the first Ready node by name, and
/// for `externalTrafficPolicy: Local` the first with a ready endpoint of the Service (MetalLB's
/// speakers announce only from those).
fn announcing_node(sim: &Sim, ip: &str) -> Option<String> {
    let store = sim.store();
    let ready = |n: &&Node| n.condition("Ready").is_some_and(|c| c.status == "True");
    let service = store.list::<crate::api::Service>(None).find(|s| {
        s.spec.external_ips.iter().any(|e| e == ip)
            || s.status.load_balancer.ingress.iter().any(|i| i.ip.as_deref() == Some(ip))
    });
    let local = service.filter(|s| s.spec.external_traffic_policy.as_deref() == Some("Local"));
    let local_nodes: Option<Vec<String>> = local.map(|s| {
        let rules = super::service_rules::ServiceRules::build(store, s);
        let backends = rules.ports.iter().flat_map(|p| super::service_rules::usable(&p.backends, None));
        backends.filter_map(|b| b.node.clone()).collect()
    });
    let announcing = store
        .list::<Node>(None)
        .filter(ready)
        .find(|n| local_nodes.as_ref().is_none_or(|nodes| nodes.contains(&n.metadata.name)));
    announcing.map(|n| n.metadata.name.clone())
}

/// `node`'s kube-proxy: the matching rule, then an endpoint by the iptables pick.
fn through_proxy(sim: &mut Sim, node: &str, client_ip: &str, ip: &str, port: i32, node_port: bool) -> Route {
    let now = sim.now();
    let (proxy, store) = sim.proxy_and_store();
    let Some((rules, service_port)) = proxy.lookup(node, now, ip, port, node_port) else {
        // Nothing programmed for it: a node's own port with nothing on it refuses, a Service
        // address the rules have not reached yet drops.
        return if node_port { Route::Refused } else { Route::TimedOut };
    };
    let external = node_port || rules.external_ips.iter().any(|e| e == ip);
    let local = if external { rules.external_local } else { rules.internal_local };
    let Some(Backend { ip, port, .. }) = proxy.pick(store, node, &rules, service_port, client_ip, local) else {
        // No endpoint at all: kube-proxy's REJECT rule; only non-local ones: dropped.
        let any = rules.port(service_port).is_some_and(|p| !super::service_rules::usable(&p.backends, None).is_empty());
        return if local && any { Route::TimedOut } else { Route::Refused };
    };
    Route::Backend { ip, port, service: Some((rules.namespace.clone(), rules.name.clone())) }
}

/// What a pod answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    Http {
        status: u16,
        body: String,
        latency: Duration,
        pod: (String, String),
    },
    Refused,
    Unreachable,
    /// The request made the container exceed its memory limit: OOM-killed mid-request.
    Killed,
}

impl Answer {
    /// Whether something accepted the connection (whatever it then answered).
    pub fn is_listening(&self) -> bool {
        matches!(self, Answer::Http { .. } | Answer::Killed)
    }
}

/// The pod at `ip` answers `GET path` on `port` from whichever container listens there.
pub fn request(sim: &mut Sim, ip: &str, port: i32, path: &str) -> Answer {
    request_host(sim, ip, port, path, None, 0)
}

/// The same with a `Host` header (what an ingress controller routes by); `hops` counts the
/// proxies the request went through already.
pub fn request_host(sim: &mut Sim, ip: &str, port: i32, path: &str, host: Option<&str>, hops: u32) -> Answer {
    let headers: Vec<(String, String)> = host.map(|h| ("Host".to_string(), h.to_string())).into_iter().collect();
    request_headers(sim, ip, port, path, &headers, hops)
}

/// The same with request headers (`Host` among them; a gateway matches on the others).
pub fn request_headers(
    sim: &mut Sim,
    ip: &str,
    port: i32,
    path: &str,
    headers: &[(String, String)],
    hops: u32,
) -> Answer {
    let host = headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("host")).map(|(_, v)| v.as_str());
    let Some(pod) = super::dns::pod_with_ip(sim.store(), ip).cloned() else { return Answer::Unreachable };
    let (namespace, name) = (pod.metadata.namespace.clone(), pod.metadata.name.clone());
    let Some(node) = sim.pod_node_server(&pod) else { return Answer::Unreachable };
    let now = sim.now();
    let mut response = None;
    for (index, spec) in pod.spec.containers.iter().enumerate() {
        let Some(process) = node.running_container(&pod, &spec.name) else { continue };
        let behaviour = &process.image.workload.behaviour;
        let (controller, gateway) = (behaviour.ingress_controller.clone(), behaviour.gateway_controller.is_some());
        if (controller.is_some() || gateway) && (port == 80 || port == 443) {
            let host = host.map_or_else(|| ip.to_string(), str::to_string);
            return match controller {
                Some(controller) => super::ingress::serve(sim, &controller, &host, path, port == 443, hops),
                None => super::gateway::serve(sim, &host, path, headers, hops),
            };
        }
        let since_start = now.since(process.started_at);
        if let Ok(mut http) =
            process.image.workload.respond_with_env(spec, path, port, &name, &process.env, since_start)
        {
            // Requests are served by the first container; under a CPU limit they queue behind
            // the load it carries (without one nothing queues, so the load is not looked up).
            let limited = index == 0 && spec.resources.limits.contains_key("cpu");
            let served = if limited { sim.load().served_by(sim.store(), &namespace, &name) } else { 0 };
            let load = crate::workload::Load::on(spec, served);
            let wait = process.image.workload.queueing_delay(since_start, load);
            http.latency = Duration(http.latency.0.saturating_add(wait.0));
            response = Some((spec.name.clone(), http));
            break;
        }
    }
    let Some((container, http)) = response else { return Answer::Refused };
    if http.hog_mib > 0 && sim.add_memory(&namespace, &name, &container, http.hog_mib).unwrap_or(false) {
        return Answer::Killed;
    }
    Answer::Http { status: http.status, body: http.body, latency: http.latency, pod: (namespace, name) }
}
