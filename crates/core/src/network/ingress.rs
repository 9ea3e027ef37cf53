//! An ingress controller (ingress-nginx, from its add-on): requests reaching its pods on port
//! 80 or 443 are routed by the Ingresses of the classes that name it, straight to the backend
//! Service's ready endpoints in turn (its `round_robin`), with nginx's own 404 when nothing
//! matches and 503 when a backend has no endpoints. Its status loop writes each Ingress's
//! ADDRESS (the controller Service's load-balancer IPs, `--publish-service`) while a
//! controller pod is ready, and clears it when none is (`--update-status-on-shutdown`).

use super::connection::{self, Answer};
use super::ingress_rules;
use super::service_rules::{ServiceRules, usable};
use crate::api::service::LoadBalancerIngress;
use crate::api::{Ingress, IngressClass, Kind, Pod, Service};
use crate::runtime::informer::{Changes, Informer};
use crate::sim::Sim;
use crate::store::Store;
use crate::store::event_recorder::EventType;
use crate::store::event_recorder::object_reference;
use std::collections::{BTreeMap, BTreeSet};

/// ingress-nginx's controller name, namespace and Service, as its deploy manifest names them.
pub const CONTROLLER: &str = "k8s.io/ingress-nginx";
pub const NAMESPACE: &str = "ingress-nginx";
pub const SERVICE: &str = "ingress-nginx-controller";

/// Hops a request may take through proxies before nginx gives up (a backend that is the
/// controller itself).
const MAX_HOPS: u32 = 4;

#[derive(Clone, Debug, Default)]
pub struct IngressController {
    pub(crate) informer: Informer,
    /// The next endpoint of each backend (namespace, Service, port), for round robin.
    turns: BTreeMap<(String, String, i32), usize>,
}

fn page(status: u16, title: &str) -> String {
    format!(
        "<html>\r\n<head><title>{status} {title}</title></head>\r\n<body>\r\n<center><h1>{status} {title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"
    )
}

fn nginx_answer(status: u16, title: &str) -> Answer {
    let pod = (NAMESPACE.to_string(), "ingress-nginx-controller".to_string());
    Answer::Http { status, body: page(status, title), latency: crate::sim::time::Duration::ZERO, pod }
}

/// The Ingresses `controller` carries out: those whose class names it.
fn ingresses_of<'s>(store: &'s Store, controller: &str) -> Vec<&'s Ingress> {
    let classes: BTreeSet<&str> = store
        .list::<IngressClass>(None)
        .filter(|c| c.spec.controller.as_deref() == Some(controller))
        .map(|c| c.metadata.name.as_str())
        .collect();
    store
        .list::<Ingress>(None)
        .filter(|i| i.spec.ingress_class_name.as_deref().is_some_and(|c| classes.contains(c)))
        .collect()
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

impl IngressController {
    fn next_turn(&mut self, key: (String, String, i32), count: usize) -> usize {
        let turn = self.turns.entry(key).or_insert(0);
        let index = *turn % count;
        *turn = turn.wrapping_add(1);
        index
    }

    /// Writes the ADDRESS of ingress-nginx's Ingresses and a `Sync` event for each changed one.
    pub fn sync(&mut self, store: &mut Store) {
        let mut changed: BTreeSet<(String, String)> = BTreeSet::new();
        let mut everything = false;
        match self.informer.poll(store) {
            Changes::Events(events) => {
                for event in events {
                    match event.kind {
                        Kind::Ingress => drop(changed.insert((event.namespace.clone(), event.name.clone()))),
                        Kind::Pod | Kind::Service | Kind::IngressClass => {
                            everything |= event.namespace == NAMESPACE || event.kind == Kind::IngressClass
                        }
                        _ => {}
                    }
                }
            }
            Changes::Relist => everything = true,
        }
        if changed.is_empty() && !everything {
            return;
        }
        let addresses = published_addresses(store);
        let ours: Vec<Ingress> = ingresses_of(store, CONTROLLER).into_iter().cloned().collect();
        for mut ingress in ours {
            let key = (ingress.metadata.namespace.clone(), ingress.metadata.name.clone());
            if changed.contains(&key) && addresses.is_some() {
                store.record_event_from(
                    "nginx-ingress-controller",
                    object_reference(&ingress),
                    EventType::Normal,
                    "Sync",
                    "Scheduled for sync".into(),
                );
            }
            let wanted = addresses.clone().unwrap_or_default();
            if ingress.status.load_balancer.ingress != wanted {
                ingress.status.load_balancer.ingress = wanted;
                let _ = store.update_status(ingress);
            }
        }
    }
}

/// The controller Service's load-balancer IPs while a controller pod is ready (`None`: the
/// controller is not running); none yet while the Service's load balancer is pending.
fn published_addresses(store: &Store) -> Option<Vec<LoadBalancerIngress>> {
    let running = store
        .list::<Pod>(Some(NAMESPACE))
        .any(|p| p.metadata.labels.get("app.kubernetes.io/component") == Some("controller") && p.is_ready());
    if !running {
        return None;
    }
    let service = store.try_get::<Service>(NAMESPACE, SERVICE)?;
    let ips = service.status.load_balancer.ingress.iter().filter(|i| i.ip.is_some());
    Some(ips.map(|i| LoadBalancerIngress { ip: i.ip.clone(), hostname: None }).collect())
}
