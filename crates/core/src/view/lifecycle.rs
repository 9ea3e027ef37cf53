//! The lifecycle chart's history: every pod as a lane over virtual time, its STATUS column as
//! bars, its Ready condition as intervals and its Events as ticks. It keeps its own history
//! through an informer because the watch log is bounded and forgets; `Sim` records at the end
//! of every instant (just before its clock moves), so a bar starts when `kubectl get pods -w`
//! would first have printed that state.

use crate::api::event::Event;
use crate::api::labels::Selector;
use crate::api::meta::Uid;
use crate::api::string_map::StringMap;
use crate::api::{Deployment, Kind, Pod};
use crate::kubectl::printers::pod_status;
use crate::runtime::informer::{Changes, Informer};
use crate::sim::time::SimTime;
use crate::store::Store;
use crate::store::watch::WatchEventType;
use std::collections::BTreeMap;

/// Lanes kept; past it the oldest deleted pod's lane makes room, and a lab whose live pods fill
/// every lane (a big sandbox) charts the first ones.
pub const MAX_LANES: usize = 256;
/// Bars, Ready intervals and ticks kept per lane, each; the oldest go first.
pub const MAX_MARKS: usize = 64;

/// One stretch of time in one state; `to` is `None` while it lasts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    pub from: SimTime,
    /// The resourceVersion of the write it began with: what came first within one virtual
    /// instant (a rollout's new pod turning Ready, then the old one told to stop).
    pub seq: u64,
    pub to: Option<SimTime>,
    /// The STATUS column (`Pending`, `ContainerCreating`, `Running`, `CrashLoopBackOff`,
    /// `Terminating`…); empty for a Ready interval.
    pub state: String,
}

/// An Event recorded for the pod.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tick {
    pub at: SimTime,
    pub reason: String,
    pub message: String,
    pub warning: bool,
}

/// One pod's life.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lane {
    uid: Uid,
    pub namespace: String,
    pub name: String,
    labels: StringMap,
    /// The controller that owns it (`ReplicaSet/hello-7bcb9764bd`), if any.
    pub owner: Option<String>,
    /// Its first container's image.
    pub image: String,
    pub node: Option<String>,
    pub created: SimTime,
    /// When it left the store.
    pub gone: Option<SimTime>,
    pub states: Vec<Span>,
    pub ready: Vec<Span>,
    pub ticks: Vec<Tick>,
}

/// What a chart draws: the lanes a selector picks, ordered by owner and then by birth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LifecycleChart {
    pub start: SimTime,
    pub now: SimTime,
    pub lanes: Vec<Lane>,
}

/// A moment: the virtual time, and the write's place in the store's order.
#[derive(Clone, Copy)]
struct Instant {
    time: SimTime,
    seq: u64,
}

#[derive(Clone, Debug, Default)]
pub struct LifecycleHistory {
    informer: Informer,
    lanes: Vec<Lane>,
    /// Lanes of pods still in the store, by uid.
    live: BTreeMap<Uid, usize>,
}

impl LifecycleHistory {
    /// Catches up with the store's writes since the last call; the time is the store's now.
    /// A big lab writes hundreds of thousands of pods: a write to a pod with no lane, when no
    /// lane can be opened, costs one lookup and nothing is copied.
    pub fn record(&mut self, store: &Store) {
        let now = store.now();
        let events = match self.informer.poll(store) {
            Changes::Events(events) => events,
            Changes::Relist => return self.relist(store, Instant { time: now, seq: store.resource_version() }),
        };
        // A pod written several times in the instant is seen once, as its last write left it.
        let mut last_write: BTreeMap<Uid, u64> = BTreeMap::new();
        let pods = events.clone().filter(|e| e.kind == Kind::Pod && is_learners(&e.namespace));
        for write in pods.filter(|e| self.may_chart(e.uid)) {
            last_write.insert(write.uid, write.resource_version);
        }
        for write in events {
            let at = Instant { time: now, seq: write.resource_version };
            let deleted = write.type_ == WatchEventType::Deleted;
            match (write.kind, deleted) {
                (Kind::Pod, true) => self.end(write.uid, at),
                (Kind::Pod, false) if last_write.get(&write.uid) == Some(&write.resource_version) => {
                    let pod =
                        store.try_get::<Pod>(&write.namespace, &write.name).filter(|p| p.metadata.uid == write.uid);
                    if let Some(pod) = pod {
                        self.observe(pod, at);
                    }
                }
                (Kind::Event, false) => {
                    if let Some(event) = store.try_get::<Event>(&write.namespace, &write.name) {
                        self.tick(event, now);
                    }
                }
                _ => {}
            }
        }
    }

    /// Whether a pod has a lane, or could be given one.
    fn may_chart(&self, uid: Uid) -> bool {
        self.live.contains_key(&uid) || self.lanes.len() < MAX_LANES || self.live.len() < self.lanes.len()
    }

    /// The log no longer reaches back: every pod is looked at again, and lanes whose pod is
    /// gone end now.
    fn relist(&mut self, store: &Store, now: Instant) {
        let gone: Vec<Uid> = self
            .live
            .keys()
            .filter(|uid| {
                let lane = &self.lanes[self.live[uid]];
                store.try_get::<Pod>(&lane.namespace, &lane.name).is_none_or(|p| p.metadata.uid != **uid)
            })
            .copied()
            .collect();
        for uid in gone {
            self.end(uid, now);
        }
        for pod in store.list::<Pod>(None).filter(|p| is_learners(&p.metadata.namespace)) {
            self.observe(pod, now);
        }
    }

    fn observe(&mut self, pod: &Pod, now: Instant) {
        let Some(index) = self.lane_for(pod, now.time) else { return };
        let lane = &mut self.lanes[index];
        lane.node = pod.node_name().map(str::to_string);
        lane.image = pod.spec.containers.first().and_then(|c| c.image.clone()).unwrap_or_default();
        let state = pod_status(pod);
        if lane.states.last().is_none_or(|s| s.state != state) {
            close(&mut lane.states, now.time);
            push(&mut lane.states, Span { from: now.time, seq: now.seq, to: None, state });
        }
        let open = lane.ready.last().is_some_and(|r| r.to.is_none());
        match (pod.is_ready(), open) {
            (true, false) => {
                push(&mut lane.ready, Span { from: now.time, seq: now.seq, to: None, state: String::new() })
            }
            (false, true) => close(&mut lane.ready, now.time),
            _ => {}
        }
    }

    /// The pod's lane, opened (making room if it must) the first time the pod is seen.
    fn lane_for(&mut self, pod: &Pod, now: SimTime) -> Option<usize> {
        let uid = pod.metadata.uid;
        if let Some(&index) = self.live.get(&uid) {
            return Some(index);
        }
        if self.lanes.len() >= MAX_LANES {
            let oldest_gone = self.lanes.iter().position(|l| l.gone.is_some())?;
            self.lanes.remove(oldest_gone);
            self.live.values_mut().filter(|i| **i > oldest_gone).for_each(|i| *i -= 1);
        }
        let owner = pod.metadata.controller_ref().map(|r| format!("{}/{}", r.kind, r.name));
        self.lanes.push(Lane {
            uid,
            namespace: pod.metadata.namespace.clone(),
            name: pod.metadata.name.clone(),
            labels: pod.metadata.labels.clone(),
            owner,
            image: String::new(),
            node: None,
            created: now,
            gone: None,
            states: Vec::new(),
            ready: Vec::new(),
            ticks: Vec::new(),
        });
        self.live.insert(uid, self.lanes.len() - 1);
        Some(self.lanes.len() - 1)
    }

    fn end(&mut self, uid: Uid, now: Instant) {
        let Some(index) = self.live.remove(&uid) else { return };
        let lane = &mut self.lanes[index];
        close(&mut lane.states, now.time);
        close(&mut lane.ready, now.time);
        lane.gone = Some(now.time);
    }

    fn tick(&mut self, event: &Event, now: SimTime) {
        let involved = &event.involved_object;
        let Some(&index) =
            involved.uid.filter(|_| involved.kind.as_deref() == Some("Pod")).and_then(|u| self.live.get(&u))
        else {
            return;
        };
        let tick = Tick {
            at: now,
            reason: event.reason.clone().unwrap_or_default(),
            message: event.message.clone().unwrap_or_default(),
            warning: event.type_.as_deref() == Some("Warning"),
        };
        push(&mut self.lanes[index].ticks, tick);
    }

    /// The chart for the pods `selector` (`kubectl -l` syntax) picks in `namespace`, as of now:
    /// the history, caught up with what the current instant has written so far.
    pub fn chart(&self, store: &Store, selector: &str, namespace: &str) -> Result<LifecycleChart, String> {
        let selector = Selector::parse(selector).map_err(|e| format!("selector \"{selector}\": {e}"))?;
        let picks = |lane: &Lane| lane.namespace == namespace && selector.matches(&lane.labels);
        let mut current = LifecycleHistory { informer: self.informer.clone(), ..LifecycleHistory::default() };
        for lane in self.lanes.iter().filter(|l| picks(l)) {
            if lane.gone.is_none() {
                current.live.insert(lane.uid, current.lanes.len());
            }
            current.lanes.push(lane.clone());
        }
        current.record(store);
        let mut lanes: Vec<Lane> = current.lanes.into_iter().filter(|l| picks(l)).collect();
        lanes.sort_by(|a, b| (&a.owner, a.created, &a.name).cmp(&(&b.owner, b.created, &b.name)));
        let start = lanes.iter().map(|l| l.created).min().unwrap_or(store.now());
        Ok(LifecycleChart { start, now: store.now(), lanes })
    }
}

/// A Deployment the lab can chart, with the selector its pods carry (`app=hello`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chartable {
    pub namespace: String,
    pub name: String,
    pub selector: String,
}

/// Every Deployment whose pods a chart can pick by labels (matchLabels; expressions are left
/// out of the chooser), by namespace and name.
pub fn chartable(store: &Store) -> Vec<Chartable> {
    store
        .list::<Deployment>(None)
        .filter(|d| is_learners(&d.metadata.namespace))
        .filter_map(|d| {
            let selector = d.spec.selector.as_ref()?.match_labels.to_selector_string();
            (!selector.is_empty()).then(|| Chartable {
                namespace: d.metadata.namespace.clone(),
                name: d.metadata.name.clone(),
                selector,
            })
        })
        .collect()
}

/// Whether a namespace holds the learner's workloads: the control plane's own (`kube-system`:
/// CoreDNS, kube-proxy, the static pods) get no lanes, so they never take a learner's.
fn is_learners(namespace: &str) -> bool {
    !namespace.starts_with("kube-")
}

fn close(spans: &mut [Span], now: SimTime) {
    if let Some(open) = spans.last_mut().filter(|s| s.to.is_none()) {
        open.to = Some(now);
    }
}

fn push<T>(marks: &mut Vec<T>, mark: T) {
    if marks.len() >= MAX_MARKS {
        marks.remove(0);
    }
    marks.push(mark);
}

#[cfg(test)]
#[path = "lifecycle_tests.rs"]
mod tests;
