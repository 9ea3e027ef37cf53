//! Whether `metrics.k8s.io` is served: the aggregator's APIService `v1beta1.metrics.k8s.io` is
//! registered while metrics-server's Service exists, and available while that Service has a
//! ready endpoint (kube-aggregator's status/available_controller.go, `MissingEndpoints`). The
//! lab stores no APIService objects; the add-on's Service stands for its registration.

use crate::api::endpoint_slice::SERVICE_NAME_LABEL;
use crate::api::{EndpointSlice, Node, Service};
use crate::store::Store;

/// Where metrics-server's Service lives (its add-on's manifest).
const NAMESPACE: &str = "kube-system";
const SERVICE: &str = "metrics-server";

/// Why a request for resource metrics fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unavailable {
    /// No APIService for the group: the API server answers 404.
    NotRegistered,
    /// Registered, but no ready metrics-server pod behind it: the aggregator answers 503.
    NoReadyEndpoint,
}

impl Unavailable {
    /// The HTTP status the API server answers a metrics request with.
    pub fn code(self) -> u16 {
        match self {
            Unavailable::NotRegistered => 404,
            Unavailable::NoReadyEndpoint => 503,
        }
    }

    /// client-go's text for that answer (`errors.NewGenericServerResponse`), as callers such as
    /// the HPA's metrics client print it, naming the request.
    pub fn client_error(self, request: &str) -> String {
        let text = match self {
            Unavailable::NotRegistered => "the server could not find the requested resource",
            Unavailable::NoReadyEndpoint => "the server is currently unable to handle the request",
        };
        format!("{text} ({request})")
    }
}

/// Whether resource metrics can be read now. A lab without a control plane (benchmarks, tests
/// of one mechanism) has no kube-system for metrics-server to run in: its kubelets' numbers are
/// served as they are.
pub fn resource_metrics_api(store: &Store) -> Result<(), Unavailable> {
    if store.get::<Node>("", crate::kubeadm::CONTROL_PLANE_NODE).is_err() {
        return Ok(());
    }
    if store.get::<Service>(NAMESPACE, SERVICE).is_err() {
        return Err(Unavailable::NotRegistered);
    }
    let mut slices = store
        .list::<EndpointSlice>(Some(NAMESPACE))
        .filter(|s| s.metadata.labels.get(SERVICE_NAME_LABEL) == Some(SERVICE));
    let ready = slices.any(|s| s.endpoints.iter().any(|e| e.conditions.ready == Some(true)));
    if ready { Ok(()) } else { Err(Unavailable::NoReadyEndpoint) }
}
