//! The Service links the kubelet puts in every container's environment
//! (`HELLO_SERVICE_HOST`, `HELLO_PORT_80_TCP_ADDR`…): mirrors pkg/kubelet/envvars and
//! kubelet_pods.go `getServiceEnvVarMap`.

use crate::api::{Pod, Service};
use crate::sim::time::SimTime;
use crate::store::Store;
use std::collections::BTreeMap;

/// The Service links of `enableServiceLinks` for `pod`: its namespace's Services, and the
/// `kubernetes` Service wherever the pod runs, as they were at `at` (created by then).
pub fn service_env(store: &Store, pod: &Pod, at: SimTime) -> BTreeMap<String, String> {
    let mut links = BTreeMap::new();
    if pod.spec.enable_service_links == Some(false) {
        return links;
    }
    let services = store
        .list::<Service>(Some(&pod.metadata.namespace))
        .chain(store.try_get::<Service>("default", "kubernetes").filter(|_| pod.metadata.namespace != "default"));
    for service in services.filter(|s| s.metadata.creation_timestamp.is_none_or(|t| t.0 <= at)) {
        links.extend(service_links(service));
    }
    links
}

/// One Service's variables (pkg/kubelet/envvars `FromServices`).
fn service_links(service: &Service) -> Vec<(String, String)> {
    let Some(ip) = service.spec.cluster_ip.clone().filter(|ip| ip != "None" && !ip.is_empty()) else {
        return Vec::new();
    };
    let prefix = service.metadata.name.to_ascii_uppercase().replace('-', "_");
    let mut out = vec![(format!("{prefix}_SERVICE_HOST"), ip.clone())];
    for (i, port) in service.spec.ports.iter().enumerate() {
        let protocol = port.protocol.clone().unwrap_or_else(|| "TCP".into());
        let lower = protocol.to_ascii_lowercase();
        let url = format!("{lower}://{ip}:{}", port.port);
        if i == 0 {
            out.push((format!("{prefix}_SERVICE_PORT"), port.port.to_string()));
            out.push((format!("{prefix}_PORT"), url.clone()));
        }
        if let Some(name) = &port.name {
            out.push((
                format!("{prefix}_SERVICE_PORT_{}", name.to_ascii_uppercase().replace('-', "_")),
                port.port.to_string(),
            ));
        }
        let base = format!("{prefix}_PORT_{}_{protocol}", port.port);
        out.push((base.clone(), url));
        out.push((format!("{base}_PROTO"), lower));
        out.push((format!("{base}_PORT"), port.port.to_string()));
        out.push((format!("{base}_ADDR"), ip.clone()));
    }
    out
}
