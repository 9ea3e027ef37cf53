//! What kube-proxy programs for one Service: its addresses and, per port, the endpoints traffic
//! may go to. Built from the Service and its EndpointSlices as pkg/proxy's service and
//! endpoints change trackers build `ServicePort` and `Endpoint` (ready, serving, terminating,
//! the node each is on).

use crate::api::{EndpointSlice, Service};
use crate::controllers::endpoint_slice::SERVICE_NAME_LABEL;
use crate::store::Store;

/// One endpoint behind a Service port.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Backend {
    pub ip: String,
    pub port: i32,
    pub node: Option<String>,
    pub ready: bool,
    pub serving: bool,
    pub terminating: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortRules {
    pub name: String,
    pub port: i32,
    pub node_port: Option<i32>,
    pub backends: Vec<Backend>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServiceRules {
    pub namespace: String,
    pub name: String,
    /// `None` for headless and ExternalName Services, which kube-proxy leaves alone.
    pub cluster_ip: Option<String>,
    /// `status.loadBalancer.ingress[].ip` and `spec.externalIPs`.
    pub external_ips: Vec<String>,
    pub ports: Vec<PortRules>,
    /// `sessionAffinity: ClientIP`: its timeout in seconds.
    pub affinity_seconds: Option<u64>,
    pub internal_local: bool,
    pub external_local: bool,
}

impl ServiceRules {
    /// The rules for `service` from the slices the EndpointSlice controller (or a person)
    /// wrote for it.
    pub fn build(store: &Store, service: &Service) -> ServiceRules {
        let spec = &service.spec;
        let proxied = spec.type_.as_deref() != Some("ExternalName");
        let cluster_ip = spec.cluster_ip.clone().filter(|ip| proxied && ip != "None" && !ip.is_empty());
        let slices: Vec<&EndpointSlice> = store
            .list::<EndpointSlice>(Some(&service.metadata.namespace))
            .filter(|s| s.metadata.labels.get(SERVICE_NAME_LABEL) == Some(service.metadata.name.as_str()))
            .collect();
        let ports = spec.ports.iter().map(|port| port_rules(port, &slices)).collect();
        let mut external_ips = spec.external_ips.clone();
        external_ips.extend(service.status.load_balancer.ingress.iter().filter_map(|i| i.ip.clone()));
        let affinity_seconds = (spec.session_affinity.as_deref() == Some("ClientIP")).then_some(10_800);
        ServiceRules {
            namespace: service.metadata.namespace.clone(),
            name: service.metadata.name.clone(),
            cluster_ip,
            external_ips,
            ports,
            affinity_seconds,
            internal_local: spec.internal_traffic_policy.as_deref() == Some("Local"),
            external_local: spec.external_traffic_policy.as_deref() == Some("Local"),
        }
    }

    pub fn port(&self, port: i32) -> Option<&PortRules> {
        self.ports.iter().find(|p| p.port == port)
    }

    pub fn node_port(&self, node_port: i32) -> Option<&PortRules> {
        self.ports.iter().find(|p| p.node_port == Some(node_port))
    }
}

fn port_rules(port: &crate::api::service::ServicePort, slices: &[&EndpointSlice]) -> PortRules {
    let name = port.name.clone().unwrap_or_default();
    let mut backends = Vec::new();
    for slice in slices {
        let target = slice.ports.iter().find(|p| p.name.as_deref().unwrap_or("") == name).and_then(|p| p.port);
        let Some(target) = target else { continue };
        for endpoint in &slice.endpoints {
            let conditions = &endpoint.conditions;
            // Unset conditions read as upstream's API docs say: ready and serving unless said
            // otherwise, not terminating.
            let ready = conditions.ready != Some(false);
            let serving = conditions.serving.unwrap_or(ready);
            let terminating = conditions.terminating == Some(true);
            for ip in &endpoint.addresses {
                let node = endpoint.node_name.clone();
                backends.push(Backend { ip: ip.clone(), port: target, node, ready, serving, terminating });
            }
        }
    }
    PortRules { name, port: port.port, node_port: port.node_port, backends }
}

/// The endpoints kube-proxy sends new connections to (`CategorizeEndpoints`): the ready ones,
/// or, when none is ready, those still serving while they terminate. `local_to` keeps only a
/// node's own (a `Local` traffic policy).
pub fn usable<'a>(backends: &'a [Backend], local_to: Option<&str>) -> Vec<&'a Backend> {
    let on_node = |b: &&Backend| local_to.is_none_or(|node| b.node.as_deref() == Some(node));
    let ready: Vec<&Backend> = backends.iter().filter(|b| b.ready).filter(on_node).collect();
    if !ready.is_empty() {
        return ready;
    }
    backends.iter().filter(|b| b.serving && b.terminating).filter(on_node).collect()
}
