//! `kubectl describe service`: type, IPs, each port with its target and the ready endpoints
//! behind it (from EndpointSlices), session affinity. Mirrors `describeService` and
//! `formatEndpointSlices` in staging/src/k8s.io/kubectl/pkg/describe/describe.go.

use super::events::{self, EventQuery};
use super::{Describer, LEVEL_0, PrefixWriter, annotations_multiline, labels_multiline};
use crate::api::intstr::IntOrString;
use crate::api::{EndpointSlice, Service};

const SERVICE_NAME_LABEL: &str = "kubernetes.io/service-name";

pub fn describe(describer: &Describer<'_>, svc: &Service) -> String {
    let mut w = PrefixWriter::default();
    let (meta, spec) = (&svc.metadata, &svc.spec);
    w.write(LEVEL_0, &format!("Name:\t{}\n", meta.name));
    w.write(LEVEL_0, &format!("Namespace:\t{}\n", meta.namespace));
    labels_multiline(&mut w, "", "Labels", &meta.labels);
    annotations_multiline(&mut w, "Annotations", &meta.annotations);
    let selector = if spec.selector.is_empty() { "<none>".to_string() } else { spec.selector.to_selector_string() };
    w.write(LEVEL_0, &format!("Selector:\t{selector}\n"));
    w.write(LEVEL_0, &format!("Type:\t{}\n", spec.type_.as_deref().unwrap_or("")));
    if let Some(policy) = &spec.ip_family_policy {
        w.write(LEVEL_0, &format!("IP Family Policy:\t{policy}\n"));
    }
    w.write(LEVEL_0, &format!("IP Families:\t{}\n", or_none(&spec.ip_families.join(","))));
    w.write(LEVEL_0, &format!("IP:\t{}\n", spec.cluster_ip.as_deref().unwrap_or("")));
    w.write(LEVEL_0, &format!("IPs:\t{}\n", or_none(&spec.cluster_ips.join(","))));
    addresses(&mut w, svc);
    let slices: Vec<&EndpointSlice> = describer
        .store
        .list::<EndpointSlice>(Some(&meta.namespace))
        .filter(|s| s.metadata.labels.get(SERVICE_NAME_LABEL) == Some(meta.name.as_str()))
        .collect();
    ports(&mut w, svc, &slices);
    w.write(LEVEL_0, &format!("Session Affinity:\t{}\n", spec.session_affinity.as_deref().unwrap_or("")));
    if let Some(policy) = spec.external_traffic_policy.as_deref().filter(|p| !p.is_empty()) {
        w.write(LEVEL_0, &format!("External Traffic Policy:\t{policy}\n"));
    }
    if let Some(policy) = &spec.internal_traffic_policy {
        w.write(LEVEL_0, &format!("Internal Traffic Policy:\t{policy}\n"));
    }
    events::describe(&mut w, describer, events::search(describer, &EventQuery::for_object(svc)));
    w.finish()
}

fn or_none(text: &str) -> &str {
    if text.is_empty() { "<none>" } else { text }
}

fn addresses(w: &mut PrefixWriter, svc: &Service) {
    let spec = &svc.spec;
    if !spec.external_ips.is_empty() {
        w.write(LEVEL_0, &format!("External IPs:\t{}\n", spec.external_ips.join(",")));
    }
    if let Some(ip) = spec.load_balancer_ip.as_deref().filter(|ip| !ip.is_empty()) {
        w.write(LEVEL_0, &format!("Desired LoadBalancer IP:\t{ip}\n"));
    }
    if let Some(name) = spec.external_name.as_deref().filter(|n| !n.is_empty()) {
        w.write(LEVEL_0, &format!("External Name:\t{name}\n"));
    }
    let ingress = &svc.status.load_balancer.ingress;
    if !ingress.is_empty() {
        let list: Vec<&str> = ingress.iter().map(|i| i.ip.as_deref().or(i.hostname.as_deref()).unwrap_or("")).collect();
        w.write(LEVEL_0, &format!("LoadBalancer Ingress:\t{}\n", list.join(", ")));
    }
}

fn ports(w: &mut PrefixWriter, svc: &Service, slices: &[&EndpointSlice]) {
    for port in &svc.spec.ports {
        let port_name = port.name.as_deref().unwrap_or("");
        let name = if port_name.is_empty() { "<unset>" } else { port_name };
        let protocol = port.protocol.as_deref().unwrap_or("");
        w.write(LEVEL_0, &format!("Port:\t{name}\t{}/{protocol}\n", port.port));
        let target = match &port.target_port {
            Some(IntOrString::Int(n)) => n.to_string(),
            Some(IntOrString::String(s)) => s.clone(),
            None => "0".to_string(),
        };
        w.write(LEVEL_0, &format!("TargetPort:\t{target}/{protocol}\n"));
        if let Some(node_port) = port.node_port.filter(|p| *p != 0) {
            w.write(LEVEL_0, &format!("NodePort:\t{name}\t{node_port}/{protocol}\n"));
        }
        w.write(LEVEL_0, &format!("Endpoints:\t{}\n", format_endpoint_slices(slices, port_name)));
    }
}

/// `formatEndpointSlices` for one port name: up to three ready `ip:port`, then `+ N more...`.
pub fn format_endpoint_slices(slices: &[&EndpointSlice], port_name: &str) -> String {
    if slices.is_empty() {
        return "<none>".into();
    }
    const MAX: usize = 3;
    let mut list: Vec<String> = Vec::new();
    let mut count = 0;
    let mut more = false;
    for slice in slices {
        let ready_addresses =
            slice.endpoints.iter().filter(|e| e.conditions.ready.unwrap_or(true)).filter_map(|e| e.addresses.first());
        if slice.ports.is_empty() {
            for address in ready_addresses {
                more |= list.len() == MAX;
                if !more {
                    list.push(address.clone());
                }
                count += 1;
            }
            continue;
        }
        for port in slice.ports.iter().filter(|p| p.name.as_deref().unwrap_or("") == port_name) {
            for address in ready_addresses.clone() {
                more |= list.len() == MAX;
                if !more {
                    let number = port.port.unwrap_or(0);
                    let host = if address.contains(':') { format!("[{address}]") } else { address.clone() };
                    list.push(format!("{host}:{number}"));
                }
                count += 1;
            }
        }
    }
    let text = list.join(",");
    if more { format!("{text} + {} more...", count - MAX) } else { text }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoints_show_three_ready_addresses_then_a_count() {
        let yaml = "metadata: {name: hello-abc}\naddressType: IPv4\nports: [{name: '', port: 8080, protocol: TCP}]\nendpoints:\n- {addresses: [10.244.1.2], conditions: {ready: true}}\n- {addresses: [10.244.1.3], conditions: {ready: false}}\n- {addresses: [10.244.2.2], conditions: {ready: true}}\n- {addresses: [10.244.2.3]}\n- {addresses: [10.244.3.2], conditions: {ready: true}}\n";
        let slice: EndpointSlice = serde_yaml::from_str(yaml).unwrap();
        assert_eq!(
            format_endpoint_slices(&[&slice], ""),
            "10.244.1.2:8080,10.244.2.2:8080,10.244.2.3:8080 + 1 more..."
        );
        assert_eq!(format_endpoint_slices(&[], ""), "<none>");
        assert_eq!(format_endpoint_slices(&[&slice], "http"), "");
    }
}
