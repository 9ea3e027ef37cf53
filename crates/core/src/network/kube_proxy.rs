//! kube-proxy on every node: the Service rules each node has programmed. A change to a Service
//! or its EndpointSlices reaches a node's rules only after that node's propagation delay (the
//! watch, the sync period, iptables-restore), drawn per node from the lab's seed, so for a
//! moment nodes disagree, as they do in seed 000's shutdown race. The pick among endpoints is
//! the iptables mode's: rule i of n is taken with probability 1/(n−i) (pkg/proxy/iptables
//! `writeServiceToEndpointRules`' `--probability` statistic matches).

use super::service_rules::{Backend, ServiceRules, usable};
use crate::api::{EndpointSlice, Kind, Node, Service};
use crate::controllers::endpoint_slice::SERVICE_NAME_LABEL;
use crate::runtime::informer::{Changes, Informer};
use crate::sim::random::Purpose;
use crate::sim::time::{Duration, SimTime};
use crate::store::Store;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::Arc;

type Key = (String, String);

/// A Service's rules over time, oldest first: since when each held (`None`: deleted).
type Versions = VecDeque<(SimTime, Option<Arc<ServiceRules>>)>;

/// The default range each node's delay is drawn from.
pub const DEFAULT_DELAY: (Duration, Duration) = (Duration(500), Duration(2_000));

/// ClientIP affinity: (node, service, port, client IP) → (backend, last used).
type Affinity = BTreeMap<(String, Key, i32, String), (Backend, SimTime)>;

#[derive(Clone, Debug)]
pub struct KubeProxy {
    pub(crate) informer: Informer,
    delay_range: (Duration, Duration),
    delays: BTreeMap<String, Duration>,
    /// Every Service's rules over time, oldest first (`None`: the Service is gone).
    history: BTreeMap<Key, Versions>,
    affinity: Affinity,
}

impl Default for KubeProxy {
    fn default() -> Self {
        KubeProxy {
            informer: Informer::default(),
            delay_range: DEFAULT_DELAY,
            delays: BTreeMap::new(),
            history: BTreeMap::new(),
            affinity: BTreeMap::new(),
        }
    }
}

impl KubeProxy {
    /// Records what changed since the last pass, at the store's time.
    pub fn sync(&mut self, store: &mut Store) {
        let mut dirty: BTreeSet<Key> = BTreeSet::new();
        let mut new_nodes = Vec::new();
        match self.informer.poll(store) {
            Changes::Events(events) => {
                for event in events {
                    match event.kind {
                        Kind::Service => {
                            dirty.insert((event.namespace.clone(), event.name.clone()));
                        }
                        Kind::EndpointSlice => {
                            let service = store
                                .try_get::<EndpointSlice>(&event.namespace, &event.name)
                                .and_then(|s| s.metadata.labels.get(SERVICE_NAME_LABEL).map(str::to_string));
                            match service {
                                Some(service) => drop(dirty.insert((event.namespace.clone(), service))),
                                // A deleted slice: its Service is one of the namespace's.
                                None => {
                                    dirty.extend(self.history.keys().filter(|(ns, _)| *ns == event.namespace).cloned())
                                }
                            }
                        }
                        Kind::Node => new_nodes.push(event.name.clone()),
                        _ => {}
                    }
                }
            }
            Changes::Relist => {
                dirty.extend(
                    store.list::<Service>(None).map(|s| (s.metadata.namespace.clone(), s.metadata.name.clone())),
                );
                dirty.extend(self.history.keys().cloned());
                new_nodes.extend(store.list::<Node>(None).map(|n| n.metadata.name.clone()));
            }
        }
        for node in new_nodes {
            self.draw_delay(store, &node);
        }
        let now = store.now();
        for key in dirty {
            let rules = store.try_get::<Service>(&key.0, &key.1).map(|s| Arc::new(ServiceRules::build(store, s)));
            let versions = self.history.entry(key).or_default();
            if versions.back().map(|(_, r)| r) != Some(&rules) {
                versions.push_back((now, rules));
            }
        }
        self.forget_old(now);
    }

    fn draw_delay(&mut self, store: &mut Store, node: &str) {
        if self.delays.contains_key(node) || store.try_get::<Node>("", node).is_none() {
            return;
        }
        let (low, high) = self.delay_range;
        let delay = low.0 + store.random_below(Purpose::ProxyDelay, high.0.saturating_sub(low.0) + 1);
        self.delays.insert(node.to_string(), Duration(delay));
    }

    /// Drops versions no node can still be looking at, and Services gone everywhere.
    fn forget_old(&mut self, now: SimTime) {
        let horizon = SimTime(now.0.saturating_sub(self.delay_range.1.0));
        for versions in self.history.values_mut() {
            while versions.len() > 1 && versions[1].0 <= horizon {
                versions.pop_front();
            }
        }
        self.history
            .retain(|_, versions| !(versions.len() == 1 && versions[0].1.is_none() && versions[0].0 <= horizon));
    }

    /// Sets the range each node's delay is drawn from (a lab's setting); nodes draw again.
    pub fn set_delay_range(&mut self, low: Duration, high: Duration) {
        self.delay_range = (low, high.max(low));
        self.delays.clear();
        self.informer = Informer::default();
    }

    pub fn delay_range(&self) -> (Duration, Duration) {
        self.delay_range
    }

    /// How far behind the API server `node`'s rules are.
    pub fn delay(&self, node: &str) -> Duration {
        self.delays.get(node).copied().unwrap_or(self.delay_range.1)
    }

    /// Every Service's rules as `node` has them programmed at `now`.
    pub fn rules_on(&self, node: &str, now: SimTime) -> impl Iterator<Item = &Arc<ServiceRules>> + '_ {
        let seen = SimTime(now.0.saturating_sub(self.delay(node).0));
        self.history.values().filter_map(move |versions| {
            versions.iter().rev().find(|(since, _)| *since <= seen).and_then(|(_, rules)| rules.as_ref())
        })
    }

    /// The Service rule matching a destination on `node`: a ClusterIP or external IP and its
    /// port, or (`node_ip` true) a NodePort on the node's own address.
    pub fn lookup(
        &self,
        node: &str,
        now: SimTime,
        ip: &str,
        port: i32,
        node_ip: bool,
    ) -> Option<(Arc<ServiceRules>, i32)> {
        self.rules_on(node, now).find_map(|rules| {
            let by_ip = rules.cluster_ip.as_deref() == Some(ip) || rules.external_ips.iter().any(|e| e == ip);
            let matched = if by_ip {
                rules.port(port)
            } else if node_ip {
                rules.node_port(port)
            } else {
                None
            };
            matched.map(|p| (rules.clone(), p.port))
        })
    }

    /// The endpoint a new connection from `client_ip` gets: ClientIP affinity first, then the
    /// iptables pick among the usable endpoints. `local` keeps to `node`'s own endpoints.
    pub fn pick(
        &mut self,
        store: &mut Store,
        node: &str,
        rules: &ServiceRules,
        port: i32,
        client_ip: &str,
        local: bool,
    ) -> Option<Backend> {
        let now = store.now();
        let port_rules = rules.port(port)?;
        let candidates = usable(&port_rules.backends, local.then_some(node));
        let key = (node.to_string(), (rules.namespace.clone(), rules.name.clone()), port, client_ip.to_string());
        if let Some(timeout) = rules.affinity_seconds
            && let Some((backend, used)) = self.affinity.get(&key)
            && now.since(*used) < Duration::from_secs(timeout)
            && candidates.contains(&backend)
        {
            let backend = backend.clone();
            self.affinity.insert(key, (backend.clone(), now));
            return Some(backend);
        }
        let chosen =
            candidates.get(iptables_pick(candidates.len(), |n| store.random_below(Purpose::ServiceRouting, n))?)?;
        let backend = (*chosen).clone();
        if rules.affinity_seconds.is_some() {
            self.affinity.insert(key, (backend.clone(), now));
        }
        Some(backend)
    }
}

/// The iptables mode's chain of `-m statistic --mode random --probability 1/(n−i)` rules: the
/// index of the rule a packet takes, or `None` when there is no endpoint (the REJECT rule).
/// `below(k)` draws uniformly from `0..k`.
pub fn iptables_pick(n: usize, mut below: impl FnMut(u64) -> u64) -> Option<usize> {
    (0..n).find(|&i| i + 1 == n || below((n - i) as u64) == 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::rng::Rng;

    #[test]
    fn each_rule_takes_one_over_the_rules_left() {
        // With a draw that always says "not this one" the last rule catches the packet, and a
        // draw of 0 stops at the first: rule i is reached with probability (n−i)/n and taken
        // with 1/(n−i), so each of n endpoints gets 1/n.
        assert_eq!(iptables_pick(4, |k| k - 1), Some(3));
        assert_eq!(iptables_pick(4, |_| 0), Some(0));
        assert_eq!(iptables_pick(0, |_| 0), None);
        let mut asked = Vec::new();
        iptables_pick(4, |k| {
            asked.push(k);
            1
        });
        assert_eq!(asked, vec![4, 3, 2], "rule i draws from n−i");
    }

    #[test]
    fn ten_thousand_connections_spread_within_one_and_a_half_points_of_a_quarter() {
        let mut rng = Rng::new(7);
        let mut counts = [0u32; 4];
        for _ in 0..10_000 {
            counts[iptables_pick(4, |k| rng.below(k)).unwrap()] += 1;
        }
        for count in counts {
            let share = f64::from(count) / 100.0;
            assert!((share - 25.0).abs() <= 1.5, "{counts:?}");
        }
    }
}
