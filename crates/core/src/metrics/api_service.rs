//! Whether `metrics.k8s.io` is served: the aggregator proxies it while the APIService
//! `v1beta1.metrics.k8s.io` (metrics-server's manifest creates it) exists, and answers 503 while
//! that APIService is not Available (`controllers/api_service_availability.rs` says why, as
//! kube-aggregator's remote availability controller does: `MissingEndpoints` and the rest).

use crate::api::{ApiService, Node};
use crate::store::Store;

/// The registration metrics-server's manifest creates.
pub const API_SERVICE: &str = "v1beta1.metrics.k8s.io";

/// Why a request for resource metrics fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unavailable {
    /// No APIService for the group: the API server answers 404.
    NotRegistered,
    /// Registered, but not Available (no ready metrics-server pod behind it): the aggregator
    /// answers 503.
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

    /// The Status reason and message of that answer (`errors.NewGenericServerResponse`).
    pub fn reason_and_message(self) -> (&'static str, &'static str) {
        match self {
            Unavailable::NotRegistered => ("NotFound", "the server could not find the requested resource"),
            Unavailable::NoReadyEndpoint => {
                ("ServiceUnavailable", "the server is currently unable to handle the request")
            }
        }
    }

    /// client-go's text for that answer, as callers such as the HPA's metrics client print it,
    /// naming the request.
    pub fn client_error(self, request: &str) -> String {
        format!("{} ({request})", self.reason_and_message().1)
    }
}

/// Whether resource metrics can be read now. A lab without a control plane (benchmarks, tests
/// of one mechanism) has no kube-system for metrics-server to run in: its kubelets' numbers are
/// served as they are.
pub fn resource_metrics_api(store: &Store) -> Result<(), Unavailable> {
    if store.get::<Node>("", crate::kubeadm::CONTROL_PLANE_NODE).is_err() {
        return Ok(());
    }
    match store.try_get::<ApiService>("", API_SERVICE) {
        None => Err(Unavailable::NotRegistered),
        Some(service) if service.is_available() => Ok(()),
        Some(_) => Err(Unavailable::NoReadyEndpoint),
    }
}

#[cfg(test)]
mod tests {
    use super::{Unavailable, resource_metrics_api};
    use crate::cluster::ClusterSpec;
    use crate::kubectl::fixture::run;
    use crate::sim::Sim;

    /// A new lab answers; without the add-on the group is not registered (404); with the add-on
    /// but no ready pod behind its Service, the aggregator cannot answer (503).
    #[test]
    fn the_metrics_api_answers_while_metrics_server_has_a_ready_pod() {
        let mut sim = Sim::new(1, &ClusterSpec::default());
        assert_eq!(resource_metrics_api(sim.store()), Ok(()));
        run(&mut sim, "lab addon remove metrics-server");
        assert_eq!(resource_metrics_api(sim.store()), Err(Unavailable::NotRegistered));
        run(&mut sim, "lab addon install metrics-server");
        run(&mut sim, "kubectl scale deployment metrics-server -n kube-system --replicas=0");
        run(&mut sim, "sleep 30s");
        assert_eq!(resource_metrics_api(sim.store()), Err(Unavailable::NoReadyEndpoint));
        assert_eq!(
            Unavailable::NoReadyEndpoint.client_error("get pods.metrics.k8s.io"),
            "the server is currently unable to handle the request (get pods.metrics.k8s.io)"
        );
        run(&mut sim, "kubectl scale deployment metrics-server -n kube-system --replicas=1");
        run(&mut sim, "sleep 30s");
        assert_eq!(resource_metrics_api(sim.store()), Ok(()));
    }

    /// Benchmarks and tests of one mechanism run no control plane, and read metrics regardless.
    #[test]
    fn a_lab_without_a_control_plane_serves_metrics_as_they_are() {
        let sim = Sim::new(1, &ClusterSpec::default_workers());
        assert_eq!(resource_metrics_api(sim.store()), Ok(()));
    }
}
