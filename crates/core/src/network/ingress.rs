//! An ingress controller's pods (ingress-nginx, from its add-on): requests reaching them on
//! port 80 or 443 are routed by the Ingresses of the classes that name it, straight to the
//! backend Service's ready endpoints in turn (its `round_robin`), with nginx's own 404 when
//! nothing matches and 503 when a backend has no endpoints. Its status loop is
//! `ingress_status.rs`.

use super::connection::{self, Answer};
use super::ingress_rules;
use super::ingress_status::{NAMESPACE, ingresses_of};
use super::service_rules::{ServiceRules, usable};
use crate::api::Service;
use crate::sim::Sim;

/// Hops a request may take through proxies before nginx gives up (a backend that is the
/// controller itself).
const MAX_HOPS: u32 = 4;

fn page(status: u16, title: &str) -> String {
    format!(
        "<html>\r\n<head><title>{status} {title}</title></head>\r\n<body>\r\n<center><h1>{status} {title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"
    )
}

fn nginx_answer(status: u16, title: &str) -> Answer {
    let pod = (NAMESPACE.to_string(), "ingress-nginx-controller".to_string());
    Answer::Http { status, body: page(status, title), latency: crate::sim::time::Duration::ZERO, pod }
}

/// Answers a request that reached the controller for `host` and `path`.
pub fn serve(sim: &mut Sim, controller: &str, host: &str, path: &str, _https: bool, hops: u32) -> Answer {
    if hops >= MAX_HOPS {
        return nginx_answer(508, "Loop Detected");
    }
    let matched = ingress_rules::route(ingresses_of(sim.store(), controller).into_iter(), host, path);
    let Some(matched) = matched else { return nginx_answer(404, "Not Found") };
    let Some(service_backend) = matched.backend.service.clone() else { return nginx_answer(404, "Not Found") };
    let Some(service) = sim.store().try_get::<Service>(&matched.namespace, &service_backend.name) else {
        return nginx_answer(503, "Service Temporarily Unavailable");
    };
    let rules = ServiceRules::build(sim.store(), service);
    let port = service.spec.ports.iter().find(|p| {
        service_backend.port.number.is_some_and(|n| n == p.port)
            || service_backend.port.name.as_deref().is_some_and(|n| Some(n) == p.name.as_deref())
    });
    let Some(port_rules) = port.and_then(|p| rules.port(p.port)) else {
        return nginx_answer(503, "Service Temporarily Unavailable");
    };
    let endpoints = usable(&port_rules.backends, None);
    if endpoints.is_empty() {
        return nginx_answer(503, "Service Temporarily Unavailable");
    }
    let key = (matched.namespace.clone(), service_backend.name.clone(), port_rules.port);
    let turn = sim.ingress_controller_mut().next_turn(key, endpoints.len());
    let endpoint = endpoints[turn].clone();
    match connection::request_host(sim, &endpoint.ip, endpoint.port, path, Some(host), hops + 1) {
        Answer::Refused | Answer::Unreachable | Answer::Killed => nginx_answer(502, "Bad Gateway"),
        answer => answer,
    }
}
