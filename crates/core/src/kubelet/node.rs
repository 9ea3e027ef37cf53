//! One machine as its kubelet sees it: power, the images it holds, pulls in flight, and the
//! pod IPs it hands out from its podCIDR (host-local IPAM: 10.244.<n>.2 onward).

use crate::sim::time::{Duration, SimTime};
use crate::store::UserInfo;
use crate::workload::ImageInfo;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeRuntime {
    pub name: String,
    /// Which /24 of 10.244.0.0/16 this node's pods get.
    pub subnet: u32,
    next_host: u32,
    images: BTreeSet<String>,
    /// Each image's pull, by when it finishes (the image is present from then on).
    pulls: BTreeMap<String, SimTime>,
    /// When the last queued pull finishes: pulls run one at a time (`serializeImagePulls`,
    /// true by default), each starting when the one before it is done.
    pulling_until: SimTime,
    /// When the machine lost power; its kubelet does nothing until it is back.
    pub powered_off_at: Option<SimTime>,
    /// The user this node's kubelet writes as (`system:node:<name>`).
    pub user: Arc<UserInfo>,
}

impl NodeRuntime {
    pub fn new(name: &str, subnet: u32) -> Self {
        NodeRuntime {
            name: name.to_string(),
            user: UserInfo::node(name),
            subnet,
            next_host: 2,
            images: BTreeSet::new(),
            pulls: BTreeMap::new(),
            pulling_until: SimTime::ZERO,
            powered_off_at: None,
        }
    }

    pub fn allocate_ip(&mut self) -> String {
        let host = self.next_host;
        self.next_host = if self.next_host >= 254 { 2 } else { self.next_host + 1 };
        format!("10.244.{}.{host}", self.subnet % 256)
    }

    /// Whether the image is on the machine now (its pull, if any, has finished).
    pub fn has_image(&self, reference: &str, now: SimTime) -> bool {
        self.images.contains(reference) && self.pulls.get(reference).is_none_or(|done| *done <= now)
    }

    /// Queues a pull behind the one in progress; returns when the image will be on the machine
    /// and how long the pull itself takes. A request for an image already being pulled waits
    /// for that pull, then finds the image there (a pull of no time).
    pub fn pull(&mut self, info: &ImageInfo, now: SimTime) -> (SimTime, Duration) {
        if let Some(done) = self.pulls.get(&info.reference).filter(|done| **done > now) {
            return (*done, Duration::ZERO);
        }
        let done = self.pulling_until.max(now).plus(info.pull_duration);
        self.pulling_until = done;
        self.pulls.insert(info.reference.clone(), done);
        self.images.insert(info.reference.clone());
        (done, info.pull_duration)
    }

    /// Images present (pulled, or whose pull has finished by `now`), for `node.status.images`.
    pub fn images(&self, now: SimTime) -> impl Iterator<Item = &str> {
        self.images.iter().filter(move |i| self.pulls.get(*i).is_none_or(|done| *done <= now)).map(String::as_str)
    }
}
