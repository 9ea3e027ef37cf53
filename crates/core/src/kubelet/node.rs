//! One machine as its kubelet sees it: power, the images it holds, pulls in flight, and the
//! pod IPs it hands out from its podCIDR (host-local IPAM: 10.244.<n>.2 onward).

use crate::sim::time::SimTime;
use crate::workload::ImageInfo;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeRuntime {
    pub name: String,
    /// Which /24 of 10.244.0.0/16 this node's pods get.
    pub subnet: u32,
    next_host: u32,
    images: BTreeSet<String>,
    pulls: BTreeMap<String, SimTime>,
    /// When the machine lost power; its kubelet does nothing until it is back.
    pub powered_off_at: Option<SimTime>,
}

impl NodeRuntime {
    pub fn new(name: &str, subnet: u32) -> Self {
        NodeRuntime {
            name: name.to_string(),
            subnet,
            next_host: 2,
            images: BTreeSet::new(),
            pulls: BTreeMap::new(),
            powered_off_at: None,
        }
    }

    pub fn allocate_ip(&mut self) -> String {
        let host = self.next_host;
        self.next_host = if self.next_host >= 254 { 2 } else { self.next_host + 1 };
        format!("10.244.{}.{host}", self.subnet % 256)
    }

    pub fn has_image(&self, reference: &str) -> bool {
        self.images.contains(reference)
    }

    /// Starts (or joins) a pull; returns when the image will be on the machine.
    pub fn pull(&mut self, info: &ImageInfo, now: SimTime) -> SimTime {
        let done = *self.pulls.entry(info.reference.clone()).or_insert(now.plus(info.pull_duration));
        self.images.insert(info.reference.clone());
        done
    }

    /// Images present (pulled, or whose pull has finished by `now`), for `node.status.images`.
    pub fn images(&self, now: SimTime) -> impl Iterator<Item = &str> {
        self.images.iter().filter(move |i| self.pulls.get(*i).is_none_or(|done| *done <= now)).map(String::as_str)
    }
}
