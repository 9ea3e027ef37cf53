//! The traffic panel's data: the generator's last minute of counts (successes by version and
//! failures per second), and each Service with the endpoints behind it from its EndpointSlices
//! (ready, serving while terminating, not ready), as the panel draws Service → slice → pod.

use crate::api::{EndpointSlice, Service};
use crate::controllers::endpoint_slice::SERVICE_NAME_LABEL;
use crate::sim::Sim;

/// Seconds of counts the panel plots.
pub const SHOWN_SECONDS: usize = 60;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrafficView {
    /// `svc/hello at 100 requests/s`, while a generator runs; the last run's otherwise.
    pub target: Option<String>,
    pub running: bool,
    /// Every version that answered in the shown seconds, in first-seen order (bar colours).
    pub versions: Vec<String>,
    pub seconds: Vec<SecondBar>,
    pub total_ok: u32,
    pub total_failed: u32,
    pub services: Vec<ServiceLinks>,
}

/// One second's bar: successes per version (in `versions` order) and failures.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SecondBar {
    /// Seconds since the run started.
    pub at: u64,
    pub ok: Vec<u32>,
    pub failed: u32,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ServiceLinks {
    pub name: String,
    pub namespace: String,
    pub cluster_ip: String,
    pub slices: Vec<SliceLinks>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SliceLinks {
    pub name: String,
    pub endpoints: Vec<EndpointLink>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EndpointLink {
    pub pod: String,
    pub ip: String,
    /// `ready`, `terminating` (still serving), `not-ready`.
    pub state: &'static str,
}

pub fn panel(sim: &Sim) -> TrafficView {
    let mut view = TrafficView { services: services(sim), ..TrafficView::default() };
    let Some(run) = sim.latest_traffic() else { return view };
    view.running = sim.traffic().is_some();
    view.target = Some(format!("svc/{} at {} requests/s", run.target.service, run.rps));
    let shown = &run.seconds[run.seconds.len().saturating_sub(SHOWN_SECONDS)..];
    for second in shown {
        for version in second.ok.keys() {
            if !view.versions.contains(version) {
                view.versions.push(version.clone());
            }
        }
    }
    view.seconds = shown
        .iter()
        .map(|second| SecondBar {
            at: second.at.since(run.started).as_millis() / 1000,
            ok: view.versions.iter().map(|v| second.ok.get(v).copied().unwrap_or(0)).collect(),
            failed: second.failed_total(),
        })
        .collect();
    let totals = run.totals();
    (view.total_ok, view.total_failed) = (totals.ok_total(), totals.failed_total());
    view
}

/// The learner's Services (not the system's), each with its slices' endpoints.
fn services(sim: &Sim) -> Vec<ServiceLinks> {
    let store = sim.store();
    let system =
        |ns: &str| ns.starts_with("kube-") || matches!(ns, "ingress-nginx" | "metallb-system" | "nginx-gateway");
    let services =
        store.list::<Service>(None).filter(|s| !system(&s.metadata.namespace) && s.metadata.name != "kubernetes");
    services
        .map(|service| {
            let (namespace, name) = (service.metadata.namespace.clone(), service.metadata.name.clone());
            let slices = store
                .list::<EndpointSlice>(Some(&namespace))
                .filter(|s| s.metadata.labels.get(SERVICE_NAME_LABEL) == Some(name.as_str()))
                .map(|slice| SliceLinks { name: slice.metadata.name.clone(), endpoints: endpoints(slice) })
                .collect();
            let cluster_ip = service.spec.cluster_ip.clone().unwrap_or_default();
            ServiceLinks { name, namespace, cluster_ip, slices }
        })
        .collect()
}

fn endpoints(slice: &EndpointSlice) -> Vec<EndpointLink> {
    slice
        .endpoints
        .iter()
        .map(|e| {
            let c = &e.conditions;
            let state = match (
                c.ready != Some(false),
                c.serving.unwrap_or(c.ready != Some(false)),
                c.terminating == Some(true),
            ) {
                (true, _, _) => "ready",
                (false, true, true) => "terminating",
                _ => "not-ready",
            };
            let pod = e.target_ref.as_ref().and_then(|r| r.name.clone()).unwrap_or_default();
            EndpointLink { pod, ip: e.addresses.first().cloned().unwrap_or_default(), state }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kubectl::fixture::{lab, run};

    #[test]
    fn the_panel_shows_counts_by_version_and_the_services_endpoints() {
        let mut sim = lab("kubectl apply -f hello.yaml\nkubectl apply -f hello-service.yaml\nsleep 15s\n");
        assert_eq!(panel(&sim).target, None);
        let links = &panel(&sim).services[0];
        assert_eq!((links.name.as_str(), links.slices[0].endpoints.len()), ("hello", 3));
        assert!(links.slices[0].endpoints.iter().all(|e| e.state == "ready" && e.pod.starts_with("hello-")));
        run(&mut sim, "lab traffic start svc/hello --rps 10");
        run(&mut sim, "sleep 2s");
        let view = panel(&sim);
        assert_eq!(view.target.as_deref(), Some("svc/hello at 10 requests/s"));
        assert!(view.running);
        assert_eq!(view.versions, ["v1"]);
        assert_eq!(
            view.seconds.iter().map(|s| (s.at, s.ok.clone(), s.failed)).collect::<Vec<_>>(),
            [(0, vec![10], 0), (1, vec![10], 0), (2, vec![10], 0)]
        );
        run(&mut sim, "kubectl delete pod -l app=hello --wait=false");
        let states: Vec<&str> = panel(&sim).services[0].slices[0].endpoints.iter().map(|e| e.state).collect();
        assert!(states.contains(&"terminating"), "{states:?}");
    }
}
