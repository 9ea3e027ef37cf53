//! The EndpointSlice controller: for every Service with a selector, the addresses of its pods,
//! each marked ready, serving and terminating as upstream marks them. Mirrors
//! pkg/controller/endpointslice and staging/src/k8s.io/endpointslice (`podToEndpoint`,
//! `ShouldPodBeInEndpoints`, 100 endpoints per slice, the managed-by and service-name labels).

use crate::api::endpoint_slice::{Endpoint, EndpointConditions, EndpointPort, ObjectReference};
use crate::api::intstr::IntOrString;
use crate::api::meta::OwnerReference;
use crate::api::{EndpointSlice, Kind, Node, ObjectMeta, Pod, Service};
use crate::runtime::informer::{Changes, Informer};
use crate::store::{DeleteOptions, Store};
use std::collections::BTreeSet;

pub use crate::api::endpoint_slice::SERVICE_NAME_LABEL;
pub const MANAGED_BY_LABEL: &str = "endpointslice.kubernetes.io/managed-by";
const MANAGED_BY: &str = "endpointslice-controller.k8s.io";
/// `--max-endpoints-per-slice` default.
const MAX_ENDPOINTS_PER_SLICE: usize = 100;

type Key = (String, String);

#[derive(Clone, Debug, Default)]
pub struct EndpointSliceController {
    pub(crate) informer: Informer,
}

impl EndpointSliceController {
    pub fn sync(&mut self, store: &mut Store) {
        let mut dirty: BTreeSet<Key> = BTreeSet::new();
        match self.informer.poll(store) {
            Changes::Events(events) => {
                for event in events {
                    match event.kind {
                        Kind::Service => {
                            dirty.insert((event.namespace.clone(), event.name.clone()));
                        }
                        Kind::Pod => dirty.extend(services_for_pod(store, &event.namespace, &event.name)),
                        _ => {}
                    }
                }
            }
            Changes::Relist => {
                let services = store.list::<Service>(None);
                dirty.extend(services.map(|s| (s.metadata.namespace.clone(), s.metadata.name.clone())));
            }
        }
        for (namespace, name) in dirty {
            sync_service(store, &namespace, &name);
        }
    }
}

/// Services in the pod's namespace whose selector matches it (all of them if the pod is gone).
fn services_for_pod(store: &Store, namespace: &str, pod_name: &str) -> Vec<Key> {
    let pod = store.try_get::<Pod>(namespace, pod_name);
    store
        .list::<Service>(Some(namespace))
        .filter(|svc| !svc.spec.selector.is_empty())
        .filter(|svc| pod.is_none_or(|p| p.metadata.labels.contains_all(&svc.spec.selector)))
        .map(|svc| (svc.metadata.namespace.clone(), svc.metadata.name.clone()))
        .collect()
}

fn sync_service(store: &mut Store, namespace: &str, name: &str) {
    let existing: Vec<EndpointSlice> = store
        .list::<EndpointSlice>(Some(namespace))
        .filter(|s| s.metadata.labels.get(SERVICE_NAME_LABEL) == Some(name))
        .filter(|s| s.metadata.labels.get(MANAGED_BY_LABEL) == Some(MANAGED_BY))
        .cloned()
        .collect();
    let Some(service) = store.try_get::<Service>(namespace, name).cloned() else {
        // The garbage collector removes slices of a deleted Service through their owner reference.
        return;
    };
    if service.spec.selector.is_empty() || service.metadata.deletion_timestamp.is_some() {
        return;
    }
    let desired = desired_slices(store, &service);
    let mut existing = existing.into_iter();
    for (endpoints, ports) in desired {
        match existing.next() {
            Some(mut slice) => {
                if slice.endpoints != endpoints || slice.ports != ports {
                    slice.endpoints = endpoints;
                    slice.ports = ports;
                    let _ = store.update(slice);
                }
            }
            None => {
                let _ = store.create(new_slice(&service, endpoints, ports));
            }
        }
    }
    for extra in existing {
        let _ = store.delete::<EndpointSlice>(namespace, &extra.metadata.name, &DeleteOptions::default());
    }
}

/// The slices a Service should have: its pods' endpoints, 100 to a slice (at least one slice).
fn desired_slices(store: &Store, service: &Service) -> Vec<(Vec<Endpoint>, Vec<EndpointPort>)> {
    let pods: Vec<&Pod> = store
        .list::<Pod>(Some(&service.metadata.namespace))
        .filter(|p| p.metadata.labels.contains_all(&service.spec.selector))
        .filter(|p| should_be_in_endpoints(p))
        .collect();
    let ports = pods.first().map_or_else(|| endpoint_ports(service, None), |p| endpoint_ports(service, Some(p)));
    let publish_not_ready = service.spec.publish_not_ready_addresses == Some(true);
    let endpoints: Vec<Endpoint> = pods.iter().map(|p| pod_to_endpoint(store, service, p, publish_not_ready)).collect();
    if endpoints.is_empty() {
        return vec![(Vec::new(), ports)];
    }
    endpoints.chunks(MAX_ENDPOINTS_PER_SLICE).map(|chunk| (chunk.to_vec(), ports.clone())).collect()
}

/// `ShouldPodBeInEndpoints`: not finished, and has an IP (terminating pods stay, marked so).
fn should_be_in_endpoints(pod: &Pod) -> bool {
    !matches!(pod.phase(), "Succeeded" | "Failed") && pod.status.pod_ip.as_deref().is_some_and(|ip| !ip.is_empty())
}

/// `podToEndpoint`'s conditions: serving = Ready; terminating = being deleted; ready =
/// serving and not terminating (or always, for a Service publishing not-ready addresses).
pub fn endpoint_conditions(pod: &Pod, publish_not_ready: bool) -> EndpointConditions {
    let serving = pod.is_ready();
    let terminating = pod.metadata.deletion_timestamp.is_some();
    EndpointConditions {
        ready: Some(publish_not_ready || (serving && !terminating)),
        serving: Some(serving),
        terminating: Some(terminating),
    }
}

fn pod_to_endpoint(store: &Store, service: &Service, pod: &Pod, publish_not_ready: bool) -> Endpoint {
    let zone = pod
        .node_name()
        .and_then(|n| store.try_get::<Node>("", n))
        .and_then(|n| n.metadata.labels.get("topology.kubernetes.io/zone").map(str::to_string));
    Endpoint {
        addresses: vec![pod.status.pod_ip.clone().unwrap_or_default()],
        conditions: endpoint_conditions(pod, publish_not_ready),
        node_name: pod.node_name().map(str::to_string),
        zone,
        hostname: endpoint_hostname(service, pod),
        target_ref: Some(ObjectReference {
            kind: Some("Pod".to_string()),
            namespace: Some(pod.metadata.namespace.clone()),
            name: Some(pod.metadata.name.clone()),
            uid: Some(pod.metadata.uid),
            ..Default::default()
        }),
    }
}

/// A pod whose subdomain is the Service's name is published under its hostname, so
/// `web-0.web.default.svc.cluster.local` resolves (upstream's endpointslice util,
/// `podToEndpoint`).
fn endpoint_hostname(service: &Service, pod: &Pod) -> Option<String> {
    let hostname = pod.spec.hostname.as_deref().filter(|h| !h.is_empty())?;
    let same = pod.spec.subdomain.as_deref() == Some(service.metadata.name.as_str())
        && pod.metadata.namespace == service.metadata.namespace;
    same.then(|| hostname.to_string())
}

/// The slice's ports: each Service port's target, a named port resolved through the pod.
fn endpoint_ports(service: &Service, pod: Option<&Pod>) -> Vec<EndpointPort> {
    service
        .spec
        .ports
        .iter()
        .map(|p| EndpointPort {
            name: Some(p.name.clone().unwrap_or_default()),
            protocol: Some(p.protocol.clone().unwrap_or_else(|| "TCP".to_string())),
            port: target_port(p.target_port.as_ref(), p.port, pod),
            app_protocol: p.app_protocol.clone(),
        })
        .collect()
}

fn target_port(target: Option<&IntOrString>, port: i32, pod: Option<&Pod>) -> Option<i32> {
    match target {
        None => Some(port),
        Some(IntOrString::Int(n)) => Some(*n),
        Some(IntOrString::String(name)) => pod?
            .spec
            .containers
            .iter()
            .flat_map(|c| c.ports.iter())
            .find(|p| p.name.as_deref() == Some(name.as_str()))
            .map(|p| p.container_port),
    }
}

fn new_slice(service: &Service, endpoints: Vec<Endpoint>, ports: Vec<EndpointPort>) -> EndpointSlice {
    let mut metadata = ObjectMeta {
        generate_name: format!("{}-", service.metadata.name),
        namespace: service.metadata.namespace.clone(),
        ..Default::default()
    };
    metadata.labels.insert(SERVICE_NAME_LABEL, service.metadata.name.clone());
    metadata.labels.insert(MANAGED_BY_LABEL, MANAGED_BY);
    metadata.owner_references.push(OwnerReference {
        api_version: "v1".to_string(),
        kind: "Service".to_string(),
        name: service.metadata.name.clone(),
        uid: service.metadata.uid,
        controller: Some(true),
        block_owner_deletion: Some(true),
    });
    EndpointSlice { metadata, address_type: "IPv4".to_string(), endpoints, ports }
}
