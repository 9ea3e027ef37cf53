//! Node heartbeats as Leases (`kube-node-lease/<node>`): the kubelet's NodeLeaseController
//! renews its node's Lease every 10 s (a quarter of the 40 s lease duration), and the node
//! lifecycle controller reads the renewals to tell a silent node.
//!
//! A renewal is not written every 10 s: a quiet 5,000-node hour would be 1.8 million writes
//! and would wrap the watch log. The store keeps when each node's kubelet began renewing and
//! when it stopped, and a Lease's `renewTime` is derived from that when it is read (`get`,
//! `list`, `describe`), so it shows what upstream's would: the last 10 s tick.

use super::Store;
use crate::api::meta::{MicroTime, OwnerReference};
use crate::api::{Lease, Node, ObjectMeta};
use crate::sim::time::{Duration, SimTime};

pub const NODE_LEASE_NAMESPACE: &str = "kube-node-lease";
/// `nodeLeaseDurationSeconds` (kubelet default).
pub const LEASE_DURATION_SECONDS: i32 = 40;
/// The kubelet renews at a quarter of the duration (`renewIntervalFraction` 0.25).
pub const RENEW_INTERVAL: Duration = Duration::from_secs(10);

/// One kubelet's renewals: every `RENEW_INTERVAL` from `since`, until it stopped (if it did).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Heartbeat {
    pub since: SimTime,
    pub stopped_at: Option<SimTime>,
}

impl Heartbeat {
    /// The last renewal at or before `now` (and before the kubelet stopped).
    pub fn renewed_at(&self, now: SimTime) -> SimTime {
        let until = self.stopped_at.map_or(now, |stopped| stopped.min(now));
        let period = RENEW_INTERVAL.as_millis();
        let ticks = until.as_millis().saturating_sub(self.since.as_millis()) / period;
        SimTime(self.since.as_millis() + ticks * period)
    }
}

/// The Lease a kubelet creates for its node: held by the node, owned by the Node object (so it
/// goes when the node does).
pub fn lease_for(node: &Node, now: SimTime) -> Lease {
    let mut lease =
        Lease { metadata: ObjectMeta::named(NODE_LEASE_NAMESPACE, &node.metadata.name), ..Default::default() };
    lease.metadata.owner_references = vec![OwnerReference {
        api_version: "v1".into(),
        kind: "Node".into(),
        name: node.metadata.name.clone(),
        uid: node.metadata.uid,
        controller: None,
        block_owner_deletion: None,
    }];
    lease.spec.holder_identity = Some(node.metadata.name.clone());
    lease.spec.lease_duration_seconds = Some(LEASE_DURATION_SECONDS);
    lease.spec.renew_time = Some(MicroTime(now));
    lease
}

impl Store {
    /// The node's kubelet starts renewing (its machine booted): creates the Lease if missing.
    pub fn start_heartbeat(&mut self, node: &Node) {
        let now = self.now();
        let name = node.metadata.name.clone();
        self.heartbeats.insert(name.clone(), Heartbeat { since: now, stopped_at: None });
        self.heartbeats_changed += 1;
        if self.try_get::<Lease>(NODE_LEASE_NAMESPACE, &name).is_none() {
            let _ = self.create(lease_for(node, now));
        }
    }

    /// The node's kubelet goes silent: its Lease is renewed no more.
    pub fn stop_heartbeat(&mut self, node: &str) {
        let now = self.now();
        if let Some(heartbeat) = self.heartbeats.get_mut(node).filter(|h| h.stopped_at.is_none()) {
            heartbeat.stopped_at = Some(now);
            self.heartbeats_changed += 1;
        }
    }

    pub fn forget_heartbeat(&mut self, node: &str) {
        if self.heartbeats.remove(node).is_some() {
            self.heartbeats_changed += 1;
        }
    }

    /// How many times a kubelet started or stopped renewing: unchanged, nothing to look at.
    pub fn heartbeats_changed(&self) -> u64 {
        self.heartbeats_changed
    }

    /// Every node whose kubelet renews (or renewed) a Lease, with its renewals.
    pub fn heartbeats(&self) -> impl Iterator<Item = (&String, &Heartbeat)> {
        self.heartbeats.iter()
    }

    /// The renewals of a simulated machine's kubelet (none for an external machine's).
    pub fn heartbeat(&self, node: &str) -> Option<&Heartbeat> {
        self.heartbeats.get(node)
    }

    /// When the node's Lease was last renewed, as its `renewTime` reads now.
    pub fn lease_renewed_at(&self, node: &str) -> Option<SimTime> {
        self.heartbeats.get(node).map(|h| h.renewed_at(self.now()))
    }
}

/// A node Lease as read now: `renewTime` from its kubelet's renewals.
pub fn derive_renew_time(lease: &mut Lease, store: &Store) {
    if lease.metadata.namespace == NODE_LEASE_NAMESPACE
        && let Some(renewed) = store.lease_renewed_at(&lease.metadata.name)
    {
        lease.spec.renew_time = Some(MicroTime(renewed));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renewals_fall_on_ten_second_ticks_and_stop_with_the_kubelet() {
        let beat = Heartbeat { since: SimTime(3_000), stopped_at: None };
        assert_eq!(beat.renewed_at(SimTime(3_000)), SimTime(3_000));
        assert_eq!(beat.renewed_at(SimTime(12_999)), SimTime(3_000));
        assert_eq!(beat.renewed_at(SimTime(13_000)), SimTime(13_000));
        let stopped = Heartbeat { stopped_at: Some(SimTime(40_000)), ..beat };
        assert_eq!(stopped.renewed_at(SimTime(100_000)), SimTime(33_000));
    }
}
