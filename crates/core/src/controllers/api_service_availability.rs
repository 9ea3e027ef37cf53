//! The aggregator's remote availability controller (kube-aggregator's
//! pkg/controllers/status/remote): an APIService served by a Service is Available once that
//! Service exists, listens on the registered port and has a ready endpoint behind it; otherwise
//! its `Available` condition says which of those failed, with upstream's reason and message.
//! The API server answers the group with 503 until then (`metrics/api_service.rs`).

use crate::api::api_service::{ApiServiceCondition, ServiceReference};
use crate::api::endpoint_slice::SERVICE_NAME_LABEL;
use crate::api::meta::Time;
use crate::api::{ApiService, EndpointSlice, Service};
use crate::store::Store;

/// Sets each proxied APIService's `Available` condition where it changed.
pub fn sync(store: &mut Store) {
    let due: Vec<ApiService> = store
        .list::<ApiService>(None)
        .filter_map(|service| {
            let reference = service.spec.service.as_ref()?;
            let (status, reason, message) = check(store, reference);
            let current = service.available();
            let same = current.is_some_and(|c| {
                c.status == status && c.reason.as_deref() == Some(reason) && c.message.as_deref() == Some(&message)
            });
            (!same).then(|| with_condition(service, status, reason, message, store))
        })
        .collect();
    for service in due {
        let _ = store.update_status(service);
    }
}

/// The controller's `sync`: (status, reason, message) for the Service behind an APIService.
fn check(store: &Store, reference: &ServiceReference) -> (&'static str, &'static str, String) {
    let (namespace, name) = (&reference.namespace, &reference.name);
    let Some(service) = store.try_get::<Service>(namespace, name) else {
        return ("False", "ServiceNotFound", format!("service/{name} in {namespace:?} is not present"));
    };
    // Only a ClusterIP Service's port and endpoints can be checked (an ExternalName one is not).
    if service.spec.type_.as_deref().unwrap_or("ClusterIP") != "ClusterIP" {
        return ("True", "Passed", "all checks passed".into());
    }
    let port = reference.port.unwrap_or(443);
    let Some(service_port) = service.spec.ports.iter().find(|p| p.port == port) else {
        return (
            "False",
            "ServicePortError",
            format!("service/{name} in {namespace:?} is not listening on port {port}"),
        );
    };
    let port_name = service_port.name.clone().unwrap_or_default();
    let slices: Vec<&EndpointSlice> = store
        .list::<EndpointSlice>(Some(namespace))
        .filter(|s| s.metadata.labels.get(SERVICE_NAME_LABEL) == Some(name.as_str()))
        .collect();
    if slices.is_empty() {
        return (
            "False",
            "EndpointsNotFound",
            format!("cannot find endpointslices for service/{name} in {namespace:?}"),
        );
    }
    if !slices.iter().any(|slice| has_available_endpoint(slice, &port_name)) {
        let message = format!(
            "endpointslices for service/{name} in {namespace:?} have no addresses with port name {port_name:?}"
        );
        return ("False", "MissingEndpoints", message);
    }
    ("True", "Passed", "all checks passed".into())
}

/// `hasAvailableEndpoint`: a slice with an endpoint not marked unready, and the port by name.
fn has_available_endpoint(slice: &EndpointSlice, port_name: &str) -> bool {
    slice.endpoints.iter().any(|e| e.conditions.ready != Some(false))
        && slice.ports.iter().any(|p| p.name.as_deref().unwrap_or_default() == port_name && p.port.is_some())
}

/// `SetAPIServiceCondition`: the transition time moves only when the status does.
pub(super) fn with_condition(
    service: &ApiService,
    status: &str,
    reason: &str,
    message: String,
    store: &Store,
) -> ApiService {
    let mut service = service.clone();
    let moved = service.available().is_none_or(|c| c.status != status);
    let time = match service.available() {
        Some(c) if !moved => c.last_transition_time,
        _ => Some(Time(store.now())),
    };
    service.status.conditions.retain(|c| c.type_ != "Available");
    service.status.conditions.push(ApiServiceCondition {
        type_: "Available".into(),
        status: status.into(),
        last_transition_time: time,
        reason: Some(reason.into()),
        message: Some(message),
    });
    service
}
