//! Pods that passed Reserve and wait at Permit (a gang not yet whole): each holds its node in
//! the cache until every Permit plugin allows it, or is rejected when its wait runs out.
//! Mirrors pkg/scheduler/framework/runtime/waiting_pods_map.go.

use super::types::PodKey;
use crate::sim::time::{Duration, SimTime};
use std::collections::BTreeMap;

/// One waiting pod.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WaitingPod {
    pub node: String,
    /// The Permit plugin that made it wait, how long it may wait, and until when.
    pub plugin: &'static str,
    pub wait: Duration,
    pub deadline: SimTime,
    /// Its gang (the pod-group label), if it has one.
    pub group: Option<String>,
}

#[derive(Clone, Debug, Default)]
pub struct WaitingPods {
    pods: BTreeMap<PodKey, WaitingPod>,
}

impl WaitingPods {
    pub fn insert(&mut self, key: PodKey, pod: WaitingPod) {
        self.pods.insert(key, pod);
    }

    pub fn remove(&mut self, key: &PodKey) -> Option<WaitingPod> {
        self.pods.remove(key)
    }

    pub fn contains(&self, key: &PodKey) -> bool {
        self.pods.contains_key(key)
    }

    pub fn get(&self, key: &PodKey) -> Option<&WaitingPod> {
        self.pods.get(key)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&PodKey, &WaitingPod)> {
        self.pods.iter()
    }

    pub fn is_empty(&self) -> bool {
        self.pods.is_empty()
    }

    /// Waiting members of the gang `group` in `namespace`.
    pub fn in_group<'a>(&'a self, namespace: &'a str, group: &'a str) -> impl Iterator<Item = &'a PodKey> + 'a {
        self.pods.iter().filter(move |(k, w)| k.0 == namespace && w.group.as_deref() == Some(group)).map(|(k, _)| k)
    }

    /// When the first wait runs out.
    pub fn next_deadline(&self) -> Option<SimTime> {
        self.pods.values().map(|w| w.deadline).min()
    }

    /// The pods whose wait has run out by `now`, in key order.
    pub fn expired(&self, now: SimTime) -> Vec<PodKey> {
        self.pods.iter().filter(|(_, w)| w.deadline <= now).map(|(k, _)| k.clone()).collect()
    }
}
