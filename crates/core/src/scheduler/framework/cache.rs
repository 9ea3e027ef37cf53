//! The scheduler cache: per node, what its assigned pods request, how many there are, their
//! images and keys, kept up to date one watch event at a time (never by rescanning all pods).
//! Mirrors pkg/scheduler/backend/cache (cache.go) and NodeInfo's AddPod/RemovePod.

use crate::api::{Node, Pod};
use crate::scheduler::framework::node_fit::NodeFit;
use crate::scheduler::framework::types::NodeNames;
use crate::scheduler::framework::types::{NodeInfo, PodKey, PodRequests, normalized_image_name};
use crate::scheduler::framework::types::{has_any_affinity, has_required_anti_affinity};
use crate::store::Store;
use std::collections::BTreeMap;
use std::sync::Arc;

/// What the cache remembers of an assigned pod, to undo its accounting later.
#[derive(Clone, Debug)]
pub struct PodRecord {
    pub node: Arc<str>,
    pub requests: PodRequests,
    pub priority: i32,
    pub terminating: bool,
    resource_version: u64,
    /// The pod's label group (see `label_groups.rs`); counted only while not terminating.
    label_group: usize,
    images: Vec<u32>,
    affinity: bool,
    required_anti_affinity: bool,
}

/// How the set of assigned pods changed for one pod (upstream's cluster events).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PodChange {
    Unchanged,
    Added,
    Updated,
    /// Gone, finished, or moved off a node: its resources are free again.
    Removed,
}

#[derive(Clone, Debug, Default)]
pub struct Cache {
    nodes: Vec<NodeInfo>,
    /// Each node's `NodeFit`, by the same slot as `nodes`.
    fits: Vec<NodeFit>,
    by_name: BTreeMap<Arc<str>, usize>,
    /// Slots in node-name order; rebuilt when the node set changes.
    order: Vec<usize>,
    /// Node names in name order, for decisions to share.
    names: NodeNames,
    pods: BTreeMap<PodKey, PodRecord>,
    /// Image name → id; by id, how many nodes have it (ImageLocality's spread).
    image_ids: BTreeMap<String, u32>,
    image_nodes: Vec<u32>,
    pods_with_affinity: u32,
    pods_with_required_anti_affinity: u32,
    /// Assigned pods whose node the cache does not know (yet).
    orphans: usize,
    /// Pods by exact label set, per node: topology spreading's counts.
    label_groups: crate::scheduler::framework::label_groups::LabelGroups,
}

/// A pod the cache accounts for: bound to a node and not finished.
pub fn is_assigned_and_active(pod: &Pod) -> bool {
    pod.node_name().is_some() && !matches!(pod.phase(), "Succeeded" | "Failed")
}

impl Cache {
    /// Rebuilds everything from the store (an informer's relist).
    pub fn relist(&mut self, store: &Store) {
        *self = Cache::default();
        for node in store.list::<Node>(None) {
            let info = NodeInfo::new(node);
            self.by_name.insert(info.name.clone(), self.nodes.len());
            self.fits.push(NodeFit::of(&info));
            self.nodes.push(info);
        }
        self.rebuild_order();
        for pod in store.list::<Pod>(None).filter(|p| is_assigned_and_active(p)) {
            self.add_pod(pod);
        }
    }

    pub fn label_groups(&self) -> &crate::scheduler::framework::label_groups::LabelGroups {
        &self.label_groups
    }

    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The `i`-th node in name order.
    pub fn node_at(&self, i: usize) -> &NodeInfo {
        &self.nodes[self.order[i]]
    }

    /// Every node's name, in name order (`node_at`'s order).
    pub fn node_names(&self) -> &NodeNames {
        &self.names
    }

    /// The `i`-th node's `NodeFit`.
    pub fn fit_at(&self, i: usize) -> &NodeFit {
        &self.fits[self.order[i]]
    }

    pub fn node_and_fit(&self, name: &str) -> Option<(&NodeInfo, &NodeFit)> {
        self.by_name.get(name).map(|&slot| (&self.nodes[slot], &self.fits[slot]))
    }

    pub fn nodes(&self) -> impl Iterator<Item = &NodeInfo> {
        self.order.iter().map(|&slot| &self.nodes[slot])
    }

    pub fn node(&self, name: &str) -> Option<&NodeInfo> {
        self.by_name.get(name).map(|&slot| &self.nodes[slot])
    }

    pub fn pod(&self, key: &PodKey) -> Option<&PodRecord> {
        self.pods.get(key)
    }

    pub fn pods_with_affinity(&self) -> u32 {
        self.pods_with_affinity
    }

    pub fn pods_with_required_anti_affinity(&self) -> u32 {
        self.pods_with_required_anti_affinity
    }

    /// The id of an image (normalised name) some pod has used.
    pub fn image_id(&self, image: &str) -> Option<u32> {
        self.image_ids.get(image).copied()
    }

    /// How many nodes have the image.
    pub fn image_spread(&self, id: u32) -> u32 {
        self.image_nodes.get(id as usize).copied().unwrap_or(0)
    }

    fn intern_image(&mut self, image: String) -> u32 {
        let next = self.image_nodes.len() as u32;
        let id = *self.image_ids.entry(image).or_insert(next);
        if id == next {
            self.image_nodes.push(0);
        }
        id
    }

    fn rebuild_order(&mut self) {
        self.order = self.by_name.values().copied().collect();
        self.names = self.by_name.keys().cloned().collect();
    }

    /// Adds or refreshes a node; true when something the filters or scores read changed.
    pub fn upsert_node(&mut self, node: &Node) -> bool {
        let fresh = NodeInfo::new(node);
        if let Some(&slot) = self.by_name.get(node.metadata.name.as_str()) {
            let info = &mut self.nodes[slot];
            let changed = info.labels != fresh.labels
                || info.taints != fresh.taints
                || info.unschedulable != fresh.unschedulable
                || info.allocatable != fresh.allocatable;
            info.labels = fresh.labels;
            info.taints = fresh.taints;
            info.unschedulable = fresh.unschedulable;
            info.allocatable = fresh.allocatable;
            self.fits[slot] = NodeFit::of(info);
            return changed;
        }
        let name = fresh.name.clone();
        self.by_name.insert(name.clone(), self.nodes.len());
        self.fits.push(NodeFit::of(&fresh));
        self.nodes.push(fresh);
        self.rebuild_order();
        if self.orphans > 0 {
            self.adopt_orphans(&name);
        }
        true
    }

    /// Pods recorded before their node appeared are accounted to it now.
    fn adopt_orphans(&mut self, name: &Arc<str>) {
        let keys: Vec<PodKey> = self.pods.iter().filter(|(_, r)| r.node == *name).map(|(k, _)| k.clone()).collect();
        for key in keys {
            if let Some(record) = self.pods.get(&key).cloned() {
                self.orphans = self.orphans.saturating_sub(1);
                self.account(&key, &record, true);
            }
        }
    }

    pub fn remove_node(&mut self, name: &str) -> bool {
        let Some(slot) = self.by_name.remove(name) else { return false };
        let removed = self.nodes.swap_remove(slot);
        self.fits.swap_remove(slot);
        if slot < self.nodes.len() {
            let moved = self.nodes[slot].name.clone();
            self.by_name.insert(moved, slot);
        }
        for image in removed.images.ids() {
            self.drop_image_node(image);
        }
        // Its pods wait, unaccounted, for a node of that name to come back.
        for key in &removed.pods {
            if let Some(record) = self.pods.get(key).filter(|r| !r.terminating) {
                self.label_groups.count(record.label_group, &record.node, -1);
            }
        }
        self.pods_with_affinity = self.pods_with_affinity.saturating_sub(removed.pods_with_affinity);
        self.pods_with_required_anti_affinity =
            self.pods_with_required_anti_affinity.saturating_sub(removed.pods_with_required_anti_affinity);
        self.orphans += removed.pods.len();
        self.rebuild_order();
        true
    }

    /// Brings one pod's accounting in line with the store; says what changed.
    pub fn observe_pod(&mut self, store: &Store, namespace: &str, name: &str) -> PodChange {
        let key = (namespace.to_string(), name.to_string());
        let current = store.try_get::<Pod>(namespace, name).filter(|p| is_assigned_and_active(p));
        match (current, self.pods.contains_key(&key)) {
            (None, false) => PodChange::Unchanged,
            (None, true) => {
                self.remove_pod(&key);
                PodChange::Removed
            }
            (Some(pod), false) => {
                self.add_pod(pod);
                PodChange::Added
            }
            (Some(pod), true) => self.refresh_pod(&key, pod),
        }
    }

    fn refresh_pod(&mut self, key: &PodKey, pod: &Pod) -> PodChange {
        let Some(record) = self.pods.get(key) else { return PodChange::Unchanged };
        if record.resource_version == pod.metadata.resource_version.0 {
            return PodChange::Unchanged;
        }
        let moved = pod.node_name() != Some(&*record.node);
        self.remove_pod(key);
        self.add_pod(pod);
        if moved { PodChange::Removed } else { PodChange::Updated }
    }

    /// Accounts a pod that was just bound (upstream's AssumePod, confirmed at once here).
    pub fn add_pod(&mut self, pod: &Pod) {
        let Some(node_name) = pod.node_name() else { return };
        let key = (pod.metadata.namespace.clone(), pod.metadata.name.clone());
        let node: Arc<str> = match self.by_name.get_key_value(node_name) {
            Some((name, _)) => name.clone(),
            None => Arc::from(node_name),
        };
        let images = pod
            .spec
            .init_containers
            .iter()
            .chain(pod.spec.containers.iter())
            .filter_map(|c| c.image.as_deref())
            .map(|image| self.intern_image(normalized_image_name(image)))
            .collect();
        let label_group = self.label_groups.intern(&pod.metadata.namespace, &pod.metadata.labels);
        let record = PodRecord {
            label_group,
            node,
            requests: PodRequests::of(pod),
            priority: pod.spec.priority.unwrap_or(0),
            terminating: pod.metadata.deletion_timestamp.is_some(),
            resource_version: pod.metadata.resource_version.0,
            images,
            affinity: has_any_affinity(pod),
            required_anti_affinity: has_required_anti_affinity(pod),
        };
        if self.by_name.contains_key(&*record.node) {
            self.account(&key, &record, true);
        } else {
            self.orphans += 1;
        }
        if let Some(old) = self.pods.insert(key.clone(), record) {
            // A replaced record was already accounted; undo it (not expected: callers remove first).
            self.account(&key, &old, false);
        }
    }

    /// Forgets a pod the scheduler assumed on a node (one rejected while waiting at Permit).
    pub fn forget_assumed(&mut self, key: &PodKey) {
        self.remove_pod(key);
    }

    fn remove_pod(&mut self, key: &PodKey) {
        let Some(record) = self.pods.remove(key) else { return };
        if self.by_name.contains_key(&*record.node) {
            self.account(key, &record, false);
        } else {
            self.orphans = self.orphans.saturating_sub(1);
        }
    }

    /// Adds (or subtracts) one pod's share to its node and the cluster-wide counters.
    fn account(&mut self, key: &PodKey, record: &PodRecord, add: bool) {
        let Some(&slot) = self.by_name.get(&*record.node) else { return };
        let sign = if add { 1 } else { -1 };
        if !record.terminating {
            self.label_groups.count(record.label_group, &record.node, sign);
        }
        let node = &mut self.nodes[slot];
        let requests = &record.requests;
        if add {
            node.requested.add(&requests.requests);
            node.pods.insert(key.clone());
        } else {
            node.requested.sub(&requests.requests);
            node.pods.remove(key);
        }
        node.non_zero_requested.milli_cpu += sign * requests.non_zero_milli_cpu;
        node.non_zero_requested.memory += sign * requests.non_zero_memory;
        let affinity = u32::from(record.affinity);
        let anti = u32::from(record.required_anti_affinity);
        if add {
            node.pods_with_affinity += affinity;
            node.pods_with_required_anti_affinity += anti;
            self.pods_with_affinity += affinity;
            self.pods_with_required_anti_affinity += anti;
        } else {
            node.pods_with_affinity = node.pods_with_affinity.saturating_sub(affinity);
            node.pods_with_required_anti_affinity = node.pods_with_required_anti_affinity.saturating_sub(anti);
            self.pods_with_affinity = self.pods_with_affinity.saturating_sub(affinity);
            self.pods_with_required_anti_affinity = self.pods_with_required_anti_affinity.saturating_sub(anti);
        }
        for &image in &record.images {
            self.count_image(slot, image, add);
        }
        self.fits[slot] = NodeFit::of(&self.nodes[slot]);
    }

    fn count_image(&mut self, slot: usize, image: u32, add: bool) {
        let images = &mut self.nodes[slot].images;
        let changed = if add { images.add(image) } else { images.remove(image) };
        match (changed, add) {
            (true, true) => {
                if let Some(nodes) = self.image_nodes.get_mut(image as usize) {
                    *nodes += 1;
                }
            }
            (true, false) => self.drop_image_node(image),
            (false, _) => {}
        }
    }

    fn drop_image_node(&mut self, image: u32) {
        if let Some(nodes) = self.image_nodes.get_mut(image as usize) {
            *nodes = nodes.saturating_sub(1);
        }
    }
}
