//! `kubectl describe ingress`: address, class, default backend, TLS, and each rule's host and
//! paths with the ready endpoints behind every backend. Mirrors `describeIngress` and
//! `describeBackendV1` in staging/src/k8s.io/kubectl/pkg/describe/describe.go.

use super::events::{self, EventQuery};
use super::service::format_endpoint_slices;
use super::{Describer, LEVEL_0, LEVEL_1, LEVEL_2, PrefixWriter, annotations_multiline, labels_multiline};
use crate::api::ingress::IngressBackend;
use crate::api::{EndpointSlice, Ingress, Service};
use crate::controllers::endpoint_slice::SERVICE_NAME_LABEL;

pub fn describe(describer: &Describer<'_>, ingress: &Ingress) -> String {
    let mut w = PrefixWriter::default();
    let (meta, spec) = (&ingress.metadata, &ingress.spec);
    w.write(LEVEL_0, &format!("Name:\t{}\n", meta.name));
    labels_multiline(&mut w, "", "Labels", &meta.labels);
    w.write(LEVEL_0, &format!("Namespace:\t{}\n", meta.namespace));
    w.write(LEVEL_0, &format!("Address:\t{}\n", ingress.addresses().join(",")));
    w.write(LEVEL_0, &format!("Ingress Class:\t{}\n", spec.ingress_class_name.as_deref().unwrap_or("<none>")));
    let default =
        spec.default_backend.as_ref().map_or("<default>".to_string(), |b| backend(describer, &meta.namespace, b));
    w.write(LEVEL_0, &format!("Default backend:\t{default}\n"));
    if !spec.tls.is_empty() {
        w.write(LEVEL_0, "TLS:\n");
        for tls in &spec.tls {
            let hosts = tls.hosts.join(",");
            match tls.secret_name.as_deref().filter(|s| !s.is_empty()) {
                Some(secret) => w.write(LEVEL_1, &format!("{secret} terminates {hosts}\n")),
                None => w.write(LEVEL_1, &format!("SNI routes {hosts}\n")),
            }
        }
    }
    w.write(LEVEL_0, "Rules:\n  Host\tPath\tBackends\n");
    w.write(LEVEL_1, "----\t----\t--------\n");
    let mut count = 0;
    for rule in &spec.rules {
        let Some(http) = &rule.http else { continue };
        count += 1;
        w.write(LEVEL_1, &format!("{}\t\n", rule.host.as_deref().filter(|h| !h.is_empty()).unwrap_or("*")));
        for path in &http.paths {
            let target = backend(describer, &meta.namespace, &path.backend);
            w.write(LEVEL_2, &format!("\t{} \t{target}\n", path.path.as_deref().unwrap_or("")));
        }
    }
    if count == 0 {
        w.write(LEVEL_1, &format!("*\t*\t{default}\n"));
    }
    annotations_multiline(&mut w, "Annotations", &meta.annotations);
    events::describe(&mut w, describer, events::search(describer, &EventQuery::for_object(ingress)));
    w.finish()
}

/// `web:80 (10.244.1.2:8080,10.244.2.2:8080)`, or the error that stopped the lookup.
fn backend(describer: &Describer<'_>, namespace: &str, backend: &IngressBackend) -> String {
    let Some(service_backend) = &backend.service else { return backend.describe() };
    let named = backend.describe();
    let Some(service) = describer.store.try_get::<Service>(namespace, &service_backend.name) else {
        return format!("{named} (<error: services \"{}\" not found>)", service_backend.name);
    };
    let port_name = service
        .spec
        .ports
        .iter()
        .find(|p| {
            service_backend.port.number.is_some_and(|n| n == p.port)
                || service_backend.port.name.as_deref().is_some_and(|n| Some(n) == p.name.as_deref())
        })
        .and_then(|p| p.name.clone())
        .unwrap_or_default();
    let slices: Vec<&EndpointSlice> = describer
        .store
        .list::<EndpointSlice>(Some(namespace))
        .filter(|s| s.metadata.labels.get(SERVICE_NAME_LABEL) == Some(service_backend.name.as_str()))
        .collect();
    format!("{named} ({})", format_endpoint_slices(&slices, &port_name))
}
