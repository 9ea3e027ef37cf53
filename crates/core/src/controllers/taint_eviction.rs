//! Taint-based eviction: pods on a node with NoExecute taints they do not tolerate are deleted
//! at once; pods that tolerate them for `tolerationSeconds` are deleted when that runs out
//! (300 s for the unreachable/not-ready tolerations admission adds). Mirrors
//! pkg/controller/tainteviction/taint_eviction.go (`processPodOnNode`, `getMinTolerationTime`).

use crate::api::affinity::Toleration;
use crate::api::meta::Time;
use crate::api::node::Taint;
use crate::api::pod::PodCondition;
use crate::api::{Kind, Node, Pod};
use crate::runtime::informer::{Changes, Informer};
use crate::runtime::wakeups::Wakeups;
use crate::scheduler::plugins::taint_toleration::tolerates;
use crate::sim::time::{Duration, SimTime};
use crate::store::event_recorder::{EventType, object_reference};
use crate::store::{DeleteOptions, Store};
use std::collections::BTreeSet;

#[derive(Clone, Debug, Default)]
pub struct TaintEvictionController {
    pub(crate) informer: Informer,
    wakeups: Wakeups<String>,
}

impl TaintEvictionController {
    pub fn sync(&mut self, store: &mut Store) {
        let mut nodes: BTreeSet<String> = self.wakeups.take_due(store.now()).into_iter().collect();
        match self.informer.poll(store) {
            Changes::Events(events) => {
                for event in events {
                    match event.kind {
                        Kind::Node => {
                            nodes.insert(event.name.clone());
                        }
                        Kind::Pod => {
                            let node = store.try_get::<Pod>(&event.namespace, &event.name).and_then(|p| p.node_name());
                            nodes.extend(node.map(str::to_string));
                        }
                        _ => {}
                    }
                }
            }
            Changes::Relist => nodes.extend(store.list::<Node>(None).map(|n| n.metadata.name.clone())),
        }
        for name in nodes {
            if let Some(at) = process_node(store, &name) {
                self.wakeups.add_at(at, name);
            }
        }
    }

    pub fn next_wake(&self) -> Option<SimTime> {
        self.wakeups.next()
    }
}

/// Evicts what is due on one node; returns the next eviction time there, if any.
fn process_node(store: &mut Store, node_name: &str) -> Option<SimTime> {
    let node = store.try_get::<Node>("", node_name)?;
    let taints: Vec<Taint> = node.spec.taints.iter().filter(|t| t.effect == "NoExecute").cloned().collect();
    if taints.is_empty() {
        return None;
    }
    let now = store.now();
    let pods: Vec<Pod> = store
        .list::<Pod>(None)
        .filter(|p| p.node_name() == Some(node_name) && p.metadata.deletion_timestamp.is_none())
        .cloned()
        .collect();
    let mut next: Option<SimTime> = None;
    for pod in pods {
        match eviction_time(&pod, &taints) {
            Some(at) if at <= now => evict(store, pod),
            Some(at) => next = Some(next.map_or(at, |n| n.min(at))),
            None => {}
        }
    }
    next
}

/// When the pod must go: now if some taint is untolerated, else the earliest
/// `timeAdded + tolerationSeconds`; `None` if it tolerates them all forever.
fn eviction_time(pod: &Pod, taints: &[Taint]) -> Option<SimTime> {
    let mut earliest: Option<SimTime> = None;
    for taint in taints {
        let added = taint.time_added.map_or(SimTime::ZERO, |t| t.0);
        let matching: Vec<&Toleration> = pod.spec.tolerations.iter().filter(|t| tolerates(t, taint)).collect();
        if matching.is_empty() {
            return Some(SimTime::ZERO);
        }
        // The shortest finite tolerationSeconds among those that match; none finite ⇒ forever.
        let seconds = matching.iter().filter_map(|t| t.toleration_seconds).min();
        if let Some(seconds) = seconds {
            let at = added.plus(Duration::from_secs(seconds.max(0) as u64));
            earliest = Some(earliest.map_or(at, |e| e.min(at)));
        }
    }
    earliest
}

fn evict(store: &mut Store, mut pod: Pod) {
    let now = Time(store.now());
    let target = PodCondition {
        type_: "DisruptionTarget".into(),
        status: "True".into(),
        last_transition_time: Some(now),
        reason: Some("DeletionByTaintManager".into()),
        message: Some("Taint manager: deleting due to NoExecute taint".into()),
        ..Default::default()
    };
    pod.status.conditions.retain(|c| c.type_ != "DisruptionTarget");
    pod.status.conditions.push(target);
    let reference = object_reference(&pod);
    let (namespace, name) = (pod.metadata.namespace.clone(), pod.metadata.name.clone());
    let _ = store.update_status(pod);
    let message = format!("Marking for deletion Pod {namespace}/{name}");
    store.record_event(reference, EventType::Normal, "TaintManagerEviction", message);
    let _ = store.delete::<Pod>(&namespace, &name, &DeleteOptions::default());
}
