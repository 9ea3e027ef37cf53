//! Cluster DNS as CoreDNS's `kubernetes` plugin answers it: `<svc>.<ns>.svc.cluster.local` is
//! the ClusterIP (a headless Service: its ready endpoints' IPs, or all of them with
//! `publishNotReadyAddresses`; ExternalName: a CNAME), `<hostname>.<svc>.<ns>.svc…` an
//! endpoint with a hostname, `a-b-c-d.<ns>.pod.cluster.local` a pod IP. Names are tried along
//! the pod's search path first when they have fewer than `ndots` dots, as its resolver does.

use super::service_rules::{ServiceRules, usable};
use crate::api::{EndpointSlice, Pod, Service};
use crate::controllers::endpoint_slice::SERVICE_NAME_LABEL;
use crate::store::Store;

pub const CLUSTER_DOMAIN: &str = "cluster.local";
/// The `kube-dns` Service's ClusterIP (kubeadm's: the tenth address of 10.96.0.0/12).
pub const DNS_SERVICE_IP: &str = "10.96.0.10";
const NDOTS: usize = 5;

/// What the server answered for one name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The name (fully qualified) and its addresses.
    Addresses(String, Vec<String>),
    /// An ExternalName Service: the name and its canonical name.
    Alias(String, String),
    NotFound,
    /// No server answered: `kube-dns` has no usable endpoint (every CoreDNS pod is gone or
    /// unready), so the query times out.
    NoServer,
}

/// The names a pod's resolver tries for `name`, in order (`search` with `ndots:5`).
pub fn candidates(namespace: &str, name: &str) -> Vec<String> {
    if let Some(absolute) = name.strip_suffix('.') {
        return vec![absolute.to_string()];
    }
    let search = search_path(namespace);
    let expanded = search.iter().map(|domain| format!("{name}.{domain}"));
    if name.matches('.').count() >= NDOTS {
        std::iter::once(name.to_string()).chain(expanded).collect()
    } else {
        expanded.chain(std::iter::once(name.to_string())).collect()
    }
}

pub fn search_path(namespace: &str) -> [String; 3] {
    [format!("{namespace}.svc.{CLUSTER_DOMAIN}"), format!("svc.{CLUSTER_DOMAIN}"), CLUSTER_DOMAIN.to_string()]
}

/// `/etc/resolv.conf` in a pod with `dnsPolicy: ClusterFirst` (the default), as the kubelet
/// writes it.
pub fn resolv_conf(namespace: &str) -> String {
    format!("search {}\nnameserver {DNS_SERVICE_IP}\noptions ndots:5\n", search_path(namespace).join(" "))
}

/// Whether a pod's queries reach CoreDNS: the `kube-dns` Service has a usable endpoint (a
/// ready CoreDNS pod, or one still serving while it terminates), as kube-proxy routes to it.
/// A lab without the Service (no control plane) answers as though its DNS ran outside it.
pub fn server_reachable(store: &Store) -> bool {
    let Some(service) = store.try_get::<Service>("kube-system", "kube-dns") else { return true };
    let rules = ServiceRules::build(store, service);
    rules.port(53).is_some_and(|port| !usable(&port.backends, None).is_empty())
}

/// Resolves `name` as a pod in `namespace` does: the first candidate with an answer.
pub fn resolve(store: &Store, namespace: &str, name: &str) -> Answer {
    if !server_reachable(store) {
        return Answer::NoServer;
    }
    let name = name.to_ascii_lowercase();
    for candidate in candidates(namespace, &name) {
        let answer = lookup(store, &candidate);
        if answer != Answer::NotFound {
            return answer;
        }
    }
    Answer::NotFound
}

/// One fully qualified name, as CoreDNS answers it (nothing outside the cluster resolves:
/// the lab has no upstream resolver).
pub fn lookup(store: &Store, fqdn: &str) -> Answer {
    let Some(local) = fqdn.strip_suffix(&format!(".{CLUSTER_DOMAIN}")) else { return Answer::NotFound };
    let labels: Vec<&str> = local.split('.').collect();
    match labels.as_slice() {
        [service, namespace, "svc"] => service_answer(store, fqdn, namespace, service),
        [host, service, namespace, "svc"] => endpoint_answer(store, fqdn, namespace, service, host),
        [dashed, namespace, "pod"] => pod_answer(store, fqdn, namespace, dashed),
        _ => Answer::NotFound,
    }
}

fn service_answer(store: &Store, fqdn: &str, namespace: &str, name: &str) -> Answer {
    let Some(service) = store.try_get::<Service>(namespace, name) else { return Answer::NotFound };
    if service.spec.type_.as_deref() == Some("ExternalName") {
        let target = service.spec.external_name.clone().unwrap_or_default();
        return Answer::Alias(fqdn.to_string(), target);
    }
    match service.spec.cluster_ip.as_deref() {
        Some("None") | None => {
            let ips: Vec<String> = endpoints(store, service).into_iter().map(|(ip, _)| ip).collect();
            if ips.is_empty() { Answer::NotFound } else { Answer::Addresses(fqdn.to_string(), ips) }
        }
        Some(ip) => Answer::Addresses(fqdn.to_string(), vec![ip.to_string()]),
    }
}

fn endpoint_answer(store: &Store, fqdn: &str, namespace: &str, service: &str, host: &str) -> Answer {
    let Some(service) = store.try_get::<Service>(namespace, service) else { return Answer::NotFound };
    let ips: Vec<String> =
        endpoints(store, service).into_iter().filter(|(_, h)| h.as_deref() == Some(host)).map(|(ip, _)| ip).collect();
    if ips.is_empty() { Answer::NotFound } else { Answer::Addresses(fqdn.to_string(), ips) }
}

/// `10-244-1-5.default.pod.cluster.local`: CoreDNS answers with the dashed IP itself
/// (`pods insecure`, kubeadm's Corefile) when the namespace exists.
fn pod_answer(store: &Store, fqdn: &str, namespace: &str, dashed: &str) -> Answer {
    let ip = dashed.replace('-', ".");
    let namespace_exists = store.try_get::<crate::api::Namespace>("", namespace).is_some();
    if ip.parse::<std::net::Ipv4Addr>().is_err() || !namespace_exists {
        return Answer::NotFound;
    }
    Answer::Addresses(fqdn.to_string(), vec![ip])
}

/// A headless Service's published addresses (and each one's hostname): ready endpoints, or
/// every one when the Service publishes not-ready addresses (its slices then mark them ready).
fn endpoints(store: &Store, service: &Service) -> Vec<(String, Option<String>)> {
    let slices = store
        .list::<EndpointSlice>(Some(&service.metadata.namespace))
        .filter(|s| s.metadata.labels.get(SERVICE_NAME_LABEL) == Some(service.metadata.name.as_str()));
    let mut out = Vec::new();
    for slice in slices {
        for endpoint in slice.endpoints.iter().filter(|e| e.conditions.ready != Some(false)) {
            out.extend(endpoint.addresses.iter().map(|ip| (ip.clone(), endpoint.hostname.clone())));
        }
    }
    out
}

/// The reverse of a pod IP: the pod that has it, for `nslookup 10.244.1.5`.
pub fn pod_with_ip<'s>(store: &'s Store, ip: &str) -> Option<&'s Pod> {
    store.list::<Pod>(None).find(|p| p.status.pod_ip.as_deref() == Some(ip))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_names_walk_the_search_path_first() {
        assert_eq!(
            candidates("default", "hello"),
            ["hello.default.svc.cluster.local", "hello.svc.cluster.local", "hello.cluster.local", "hello"]
        );
        // ndots:5's surprise: an external name with fewer than five dots is tried inside the
        // cluster three times before it is asked for as written.
        assert_eq!(candidates("shop", "api.example.com")[0], "api.example.com.shop.svc.cluster.local");
        assert_eq!(candidates("shop", "api.example.com.")[..], ["api.example.com"]);
        assert_eq!(
            resolv_conf("default"),
            "search default.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n"
        );
    }
}
