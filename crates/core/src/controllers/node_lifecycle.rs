//! The node lifecycle controller: a node whose kubelet stops posting status is marked Unknown
//! after the grace period, tainted unreachable (NoSchedule and NoExecute), and its pods marked
//! not ready; when the kubelet is back, the taints go. A node reporting memory, disk or PID
//! pressure is tainted NoSchedule for as long as it does (TaintNodesByCondition). Mirrors
//! pkg/controller/nodelifecycle/node_lifecycle_controller.go (`monitorNodeHealth`,
//! `tryUpdateNodeHealth`, `MarkPodsNotReady`, the NoSchedule/NoExecute tainting passes).

use crate::api::meta::Time;
use crate::api::node::Taint;
use crate::api::pod::PodCondition;
use crate::api::{Kind, Lease, Node, Pod};
use crate::runtime::informer::{Changes, Informer};
use crate::runtime::wakeups::Wakeups;
use crate::sim::time::{Duration, SimTime};
use crate::store::Store;
use crate::store::event_recorder::{EventType, object_reference};
use crate::store::node_lease::NODE_LEASE_NAMESPACE;
use std::collections::{BTreeMap, BTreeSet};

/// `--node-monitor-period`: how often the controller looks.
pub const NODE_MONITOR_PERIOD: Duration = Duration::from_secs(5);
pub const UNREACHABLE_TAINT: &str = "node.kubernetes.io/unreachable";
pub const NOT_READY_TAINT: &str = "node.kubernetes.io/not-ready";
const KUBELET_CONDITIONS: [&str; 4] = ["Ready", "MemoryPressure", "DiskPressure", "PIDPressure"];

#[derive(Clone, Debug, Default)]
pub struct NodeLifecycleController {
    pub(crate) informer: Informer,
    wakeups: Wakeups<String>,
    /// Nodes whose Lease stopped renewing, and its last renewal: what changed is looked at.
    known_off: BTreeMap<String, SimTime>,
    /// The store's `heartbeats_changed` when the renewals were last looked at.
    heartbeats_seen: Option<u64>,
    /// For each node whose kubelet runs outside the lab: what its Lease and Ready heartbeat
    /// last said, and when this controller saw that change (upstream's `probeTimestamp`).
    probes: BTreeMap<String, (Option<SimTime>, SimTime)>,
}

impl NodeLifecycleController {
    pub fn sync(&mut self, store: &mut Store) {
        let mut check: BTreeSet<String> = self.wakeups.take_due(store.now()).into_iter().collect();
        if self.heartbeats_seen != Some(store.heartbeats_changed()) {
            self.heartbeats_seen = Some(store.heartbeats_changed());
            self.look_at_renewals(store, &mut check);
        }
        match self.informer.poll(store) {
            // A node's own status, or its Lease (which an external machine's kubelet renews).
            Changes::Events(events) => check.extend(
                events
                    .filter(|e| e.kind == Kind::Node || (e.kind == Kind::Lease && e.namespace == NODE_LEASE_NAMESPACE))
                    .map(|e| e.name.clone()),
            ),
            Changes::Relist => check.extend(store.list::<Node>(None).map(|n| n.metadata.name.clone())),
        }
        for name in check {
            if let Some(at) = self.process(store, &name) {
                self.wakeups.add_at(at, name.clone());
            }
            no_schedule_tainting_pass(store, &name);
        }
    }

    pub fn next_wake(&self) -> Option<SimTime> {
        self.wakeups.next()
    }

    /// A Lease that stopped renewing (or started again) is what changed.
    fn look_at_renewals(&mut self, store: &Store, check: &mut BTreeSet<String>) {
        let stopped: BTreeMap<String, SimTime> = store
            .heartbeats()
            .filter_map(|(name, beat)| beat.stopped_at.map(|_| (name.clone(), beat.renewed_at(store.now()))))
            .collect();
        for (name, renewed) in &stopped {
            if self.known_off.insert(name.clone(), *renewed) != Some(*renewed) {
                check.insert(name.clone());
            }
        }
        let back: Vec<String> = self.known_off.keys().filter(|n| !stopped.contains_key(*n)).cloned().collect();
        for name in back {
            self.known_off.remove(&name);
            check.insert(name);
        }
    }

    /// `monitorNodeHealth` for one node; returns when to look again. A node whose Lease has
    /// not been renewed for the grace period goes Unknown.
    fn process(&mut self, store: &mut Store, name: &str) -> Option<SimTime> {
        let node = store.try_get::<Node>("", name)?.clone();
        let simulated_silence = self.known_off.get(name).copied();
        let mut look_again = None;
        let external = || self.observe(store, &node);
        if let Some(renewed) = simulated_silence.or_else(external) {
            let unknown_at = monitor_tick_after(renewed.plus(store.node_settings().node_monitor_grace_period));
            if store.now() >= unknown_at {
                mark_unknown(store, &node);
                return None;
            }
            look_again = Some(unknown_at);
        }
        if simulated_silence.is_none() && has_taint(&node, UNREACHABLE_TAINT) && ready(&node) {
            remove_unreachable_taints(store, &node);
        }
        look_again
    }
}

impl NodeLifecycleController {
    /// For a node whose kubelet runs outside the lab (it renews its own Lease): when this
    /// controller last saw its Lease's renewTime or its Ready heartbeat change. Upstream keeps
    /// its own clock's `probeTimestamp` rather than trusting the kubelet's timestamps, so a
    /// machine whose clock is off (or a lab whose virtual clock is not the wall clock) is
    /// judged by when it was heard from.
    fn observe(&mut self, store: &Store, node: &Node) -> Option<SimTime> {
        let said = external_probe(store, node)?;
        let name = node.metadata.name.clone();
        let now = store.now();
        let probe = self.probes.entry(name).or_insert((Some(said), now));
        if probe.0 != Some(said) {
            *probe = (Some(said), now);
        }
        Some(probe.1)
    }
}

/// For a node whose kubelet runs outside the lab: the later of its Lease's renewTime and its
/// Ready condition's heartbeat, as it wrote them. `None` for a simulated machine, whose
/// renewals the store keeps, and for a node without a Lease.
fn external_probe(store: &Store, node: &Node) -> Option<SimTime> {
    let name = node.metadata.name.as_str();
    if store.heartbeat(name).is_some() {
        return None;
    }
    // A node no kubelet ever renewed a Lease for (one `kubectl create` made) is left alone.
    let lease = store.try_get::<Lease>(NODE_LEASE_NAMESPACE, name)?.spec.renew_time.map(|t| t.0);
    let status = node.status.conditions.iter().find(|c| c.type_ == "Ready").and_then(|c| c.last_heartbeat_time);
    lease.max(status.map(|t| t.0))
}

/// The controller looks every 5 s: the first look strictly after the grace period ends.
fn monitor_tick_after(t: SimTime) -> SimTime {
    let period = NODE_MONITOR_PERIOD.as_millis();
    SimTime((t.as_millis() / period + 1) * period)
}

fn ready(node: &Node) -> bool {
    node.status.conditions.iter().any(|c| c.type_ == "Ready" && c.status == "True")
}

fn is_unknown(node: &Node) -> bool {
    node.status.conditions.iter().any(|c| c.type_ == "Ready" && c.status == "Unknown")
        && has_taint(node, UNREACHABLE_TAINT)
}

fn has_taint(node: &Node, key: &str) -> bool {
    node.spec.taints.iter().any(|t| t.key == key)
}

/// `tryUpdateNodeHealth` for a silent kubelet, then the tainting passes and `MarkPodsNotReady`.
fn mark_unknown(store: &mut Store, node: &Node) {
    if is_unknown(node) {
        return;
    }
    let now = Time(store.now());
    let mut updated = node.clone();
    let was_ready = ready(node);
    for condition in updated.status.conditions.iter_mut().filter(|c| KUBELET_CONDITIONS.contains(&c.type_.as_str())) {
        if condition.status != "Unknown" {
            condition.last_transition_time = Some(now);
        }
        condition.status = "Unknown".to_string();
        condition.reason = Some("NodeStatusUnknown".to_string());
        condition.message = Some("Kubelet stopped posting node status.".to_string());
    }
    let Ok(stored) = store.update_status(updated) else { return };
    if was_ready {
        let message = format!("Node {} status is now: NodeNotReady", node.metadata.name);
        store.record_event(object_reference(&*stored), EventType::Normal, "NodeNotReady", message);
    }
    let mut tainted = Node::clone(&stored);
    for effect in ["NoSchedule", "NoExecute"] {
        if !tainted.spec.taints.iter().any(|t| t.key == UNREACHABLE_TAINT && t.effect == effect) {
            let time_added = (effect == "NoExecute").then_some(now);
            tainted.spec.taints.push(Taint {
                key: UNREACHABLE_TAINT.to_string(),
                value: None,
                effect: effect.to_string(),
                time_added,
            });
        }
    }
    let _ = store.update(tainted);
    mark_pods_not_ready(store, &node.metadata.name);
}

/// `MarkPodsNotReady`: the pods' Ready condition goes False, with a warning on each pod.
fn mark_pods_not_ready(store: &mut Store, node_name: &str) {
    let now = Time(store.now());
    let pods: Vec<Pod> = store.list::<Pod>(None).filter(|p| p.node_name() == Some(node_name)).cloned().collect();
    for mut pod in pods {
        let Some(ready) = pod.status.conditions.iter_mut().find(|c| c.type_ == "Ready") else { continue };
        if ready.status == "False" {
            continue;
        }
        *ready = PodCondition {
            type_: "Ready".into(),
            status: "False".into(),
            last_transition_time: Some(now),
            ..Default::default()
        };
        if let Ok(stored) = store.update_status(pod) {
            store.record_event(
                object_reference(&*stored),
                EventType::Warning,
                "NodeNotReady",
                "Node is not ready".into(),
            );
        }
    }
}

/// The conditions whose status taints a node NoSchedule, and the taint
/// (`nodeConditionToTaintKeyStatusMap`; Ready and NetworkUnavailable are handled elsewhere or
/// not reported here).
const CONDITION_TAINTS: [(&str, &str); 3] = [
    ("MemoryPressure", "node.kubernetes.io/memory-pressure"),
    ("DiskPressure", "node.kubernetes.io/disk-pressure"),
    ("PIDPressure", "node.kubernetes.io/pid-pressure"),
];

/// `doNoScheduleTaintingPass` for the pressure conditions: each True one's taint is added
/// (with the time it was), each other's removed.
fn no_schedule_tainting_pass(store: &mut Store, name: &str) {
    let Some(node) = store.try_get::<Node>("", name) else { return };
    let pressed = |condition: &str| node.status.conditions.iter().any(|c| c.type_ == condition && c.status == "True");
    let tainted = |key: &str| node.spec.taints.iter().any(|t| t.key == key && t.effect == "NoSchedule");
    let wanted: Vec<&str> = CONDITION_TAINTS.iter().filter(|(c, _)| pressed(c)).map(|(_, key)| *key).collect();
    let stale = |key: &str| CONDITION_TAINTS.iter().any(|(_, k)| *k == key) && !wanted.contains(&key);
    let missing: Vec<&str> = wanted.iter().copied().filter(|key| !tainted(key)).collect();
    if missing.is_empty() && !node.spec.taints.iter().any(|t| t.effect == "NoSchedule" && stale(&t.key)) {
        return;
    }
    let mut updated = node.clone();
    updated.spec.taints.retain(|t| t.effect != "NoSchedule" || !stale(&t.key));
    let now = Time(store.now());
    for key in missing {
        let taint = Taint { key: key.to_string(), value: None, effect: "NoSchedule".into(), time_added: Some(now) };
        updated.spec.taints.push(taint);
    }
    let _ = store.update(updated);
}

fn remove_unreachable_taints(store: &mut Store, node: &Node) {
    let mut updated = node.clone();
    updated.spec.taints.retain(|t| t.key != UNREACHABLE_TAINT && t.key != NOT_READY_TAINT);
    let _ = store.update(updated);
}
