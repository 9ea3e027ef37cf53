//! A node cut off from the control plane (`lab node partition`): the machine and its
//! containers run on, but its kubelet's requests no longer reach the API server. Its Lease is
//! not renewed, so the node lifecycle controller marks it `Unknown` after the grace period and
//! its pods are evicted once their `unreachable` toleration runs out; the kubelet never hears
//! of it, so they stay `Terminating` while their containers still serve. When the link is back
//! the kubelet posts Ready and syncs every pod it knows, finishing those deletions.

use super::{Key, Kubelet, post_ready};
use crate::api::{Node, Pod};
use crate::store::Store;

impl Kubelet {
    pub fn partition(&mut self, store: &mut Store, node: &str) {
        self.partitioned.insert(node.to_string());
        store.stop_heartbeat(node);
    }

    pub fn heal(&mut self, store: &mut Store, node: &str) {
        if !self.partitioned.remove(node) {
            return;
        }
        if let Some(object) = store.try_get_shared::<Node>("", node) {
            store.start_heartbeat(&object);
        }
        let caller = store.act_as(self.node_runtime(node).user.clone());
        post_ready(store, node);
        store.act_as(caller);
        let known: Vec<Key> = self.pods.iter().filter(|(_, rt)| rt.node == node).map(|(k, _)| k.clone()).collect();
        self.queue.extend(known);
        self.queue.extend(
            store
                .list::<Pod>(None)
                .filter(|p| p.node_name() == Some(node))
                .map(|p| (p.metadata.namespace.clone(), p.metadata.name.clone())),
        );
        self.sync(store);
    }

    pub fn is_partitioned(&self, node: &str) -> bool {
        self.partitioned.contains(node)
    }

    /// Whether a pod's sync waits for the link: it runs (or is bound) on a cut-off node.
    pub(super) fn cut_off(&self, key: &Key, node: Option<&str>) -> bool {
        !self.partitioned.is_empty()
            && (self.pods.get(key).is_some_and(|rt| self.partitioned.contains(&rt.node))
                || node.is_some_and(|node| self.partitioned.contains(node)))
    }
}
