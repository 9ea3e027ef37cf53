//! Request load, as `lab load TARGET --rps N` sets it: each target's requests per second are
//! spread evenly over the endpoints kube-proxy would pick from (`network::service_rules::
//! usable`: the ready ones, else those serving while they terminate); and usage set directly,
//! as `lab usage TARGET --cpu Q --memory Q` sets it, for every pod the target selects. Pure
//! data: usage is computed from it when read, so nothing ticks.

use crate::api::labels::Selector;
use crate::api::{Deployment, Kind, Pod, ReplicaSet, Service};
use crate::controllers::endpoint_slice::endpoint_conditions;
use crate::metrics::demand::{PodDemands, SetUsage};
use crate::network::service_rules::{Backend, usable};
use crate::store::Store;
use std::collections::BTreeMap;

/// What a load entry points at: (namespace, kind, name).
pub type LoadTarget = (String, Kind, String);

/// Requests per second per target; a target at 0 rps is removed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadTable {
    targets: BTreeMap<LoadTarget, u64>,
    /// The traffic generator's requests to a Service, while it runs: served like the rest.
    traffic: Option<(LoadTarget, u64)>,
    /// Usage set directly, per target.
    usage: BTreeMap<LoadTarget, SetUsage>,
}

impl LoadTable {
    /// Sets a target's load; `0` stops it.
    pub fn set(&mut self, target: LoadTarget, requests_per_second: u64) {
        if requests_per_second == 0 {
            self.targets.remove(&target);
        } else {
            self.targets.insert(target, requests_per_second);
        }
    }

    /// Sets the usage of a target's pods; an empty one gives them back to the workload model.
    pub fn set_usage(&mut self, target: LoadTarget, usage: SetUsage) {
        if usage.is_empty() {
            self.usage.remove(&target);
        } else {
            self.usage.insert(target, usage);
        }
    }

    /// What every pod is asked to do: its requests per second and any usage set for it (a pod
    /// two targets select takes the later target's figures, in target order).
    pub fn demands(&self, store: &Store) -> PodDemands {
        let requests = if self.is_empty() { BTreeMap::new() } else { self.per_pod(store) };
        let mut set = BTreeMap::new();
        for ((namespace, kind, name), usage) in &self.usage {
            for pod in selected_pods(store, namespace, *kind, name) {
                set.insert((namespace.clone(), pod.metadata.name.clone()), *usage);
            }
        }
        PodDemands { requests, set }
    }

    /// The traffic generator's load (`None` when it stops).
    pub fn set_traffic(&mut self, traffic: Option<(LoadTarget, u64)>) {
        self.traffic = traffic;
    }

    pub fn is_empty(&self) -> bool {
        self.targets.is_empty() && self.traffic.is_none()
    }

    /// What one pod serves now.
    pub fn served_by(&self, store: &Store, namespace: &str, name: &str) -> u64 {
        if self.is_empty() {
            return 0;
        }
        self.per_pod(store).get(&(namespace.to_string(), name.to_string())).copied().unwrap_or(0)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&LoadTarget, &u64)> {
        self.targets.iter()
    }

    /// Requests per second each pod serves, by (namespace, name): every target's load split
    /// evenly over its ready pods in name order, the remainder one each to the first pods.
    pub fn per_pod(&self, store: &Store) -> BTreeMap<(String, String), u64> {
        let mut served = BTreeMap::new();
        let traffic = self.traffic.iter().map(|(target, rps)| (target, rps));
        for ((namespace, kind, name), rps) in self.targets.iter().chain(traffic) {
            let pods = ready_pods(store, namespace, *kind, name);
            let count = pods.len() as u64;
            for (i, pod) in pods.into_iter().enumerate() {
                let share = rps / count + u64::from((i as u64) < rps % count);
                *served.entry((namespace.clone(), pod)).or_insert(0) += share;
            }
        }
        served
    }
}

/// The pods a target's traffic reaches, in name order: those kube-proxy would send a new
/// connection to, classified as the EndpointSlice controller classifies them.
fn ready_pods(store: &Store, namespace: &str, kind: Kind, name: &str) -> Vec<String> {
    let pods: Vec<&Pod> = selected_pods(store, namespace, kind, name)
        .into_iter()
        .filter(|p| p.status.pod_ip.is_some() && !matches!(p.phase(), "Succeeded" | "Failed"))
        .collect();
    let backends: Vec<Backend> = pods
        .iter()
        .map(|pod| {
            let conditions = endpoint_conditions(pod, false);
            Backend {
                ip: pod.status.pod_ip.clone().unwrap_or_default(),
                port: 0,
                node: pod.node_name().map(str::to_string),
                ready: conditions.ready == Some(true),
                serving: conditions.serving == Some(true),
                terminating: conditions.terminating == Some(true),
            }
        })
        .collect();
    let usable_ips: Vec<&str> = usable(&backends, None).into_iter().map(|b| b.ip.as_str()).collect();
    let by_ip = |p: &&&Pod| usable_ips.contains(&p.status.pod_ip.as_deref().unwrap_or(""));
    pods.iter().filter(by_ip).map(|p| p.metadata.name.clone()).collect()
}

/// The pods a target selects (a pod target: itself), in name order.
pub fn selected_pods<'s>(store: &'s Store, namespace: &str, kind: Kind, name: &str) -> Vec<&'s Pod> {
    let Some(selector) = target_selector(store, namespace, kind, name) else { return Vec::new() };
    let pods = store.list::<Pod>(Some(namespace)).filter(|p| selector.matches(&p.metadata.labels));
    pods.filter(|p| kind != Kind::Pod || p.metadata.name == name).collect()
}

fn target_selector(store: &Store, namespace: &str, kind: Kind, name: &str) -> Option<Selector> {
    match kind {
        Kind::Deployment => store.try_get::<Deployment>(namespace, name)?.spec.selector.as_ref()?.to_selector().ok(),
        Kind::ReplicaSet => store.try_get::<ReplicaSet>(namespace, name)?.spec.selector.as_ref()?.to_selector().ok(),
        Kind::Service => {
            let labels = &store.try_get::<Service>(namespace, name)?.spec.selector;
            if labels.is_empty() {
                return None;
            }
            let text: Vec<String> = labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
            Selector::parse(&text.join(",")).ok()
        }
        Kind::Pod => store.try_get::<Pod>(namespace, name).map(|_| Selector::everything()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::api::Kind;
    use crate::kubectl::fixture::hello_lab;

    #[test]
    fn load_is_split_over_ready_pods_remainder_first() {
        let mut sim = hello_lab(10);
        sim.set_load(("default".into(), Kind::Deployment, "hello".into()), 100);
        let served = sim.load().per_pod(sim.store());
        let shares: Vec<u64> = served.values().copied().collect();
        assert_eq!(shares, vec![34, 33, 33]);
        sim.set_load(("default".into(), Kind::Deployment, "hello".into()), 0);
        assert!(sim.load().is_empty());
    }
}
