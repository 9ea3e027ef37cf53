//! The DaemonSet controller: a pod on every node that qualifies, none elsewhere, replaced node
//! by node when the template changes. Mirrors pkg/controller/daemon (daemon_controller.go's
//! `syncDaemonSet`, `manage`, `podsShouldBeOnNode`, `syncNodes`, `updateDaemonSetStatus`).
//!
//! Pods are pinned to their node by node affinity and bound by the scheduler. Each template is
//! kept as a ControllerRevision (`history.rs`); rolling updates are `update.rs`.

mod history;
pub mod placement;
mod status;
mod update;

use crate::api::meta::OwnerReference;
use crate::api::{DaemonSet, Kind, Node, ObjectMeta, Pod};
use crate::controllers::active_pods;
use crate::runtime::informer::{Changes, Informer};
use crate::runtime::wakeups::Wakeups;
use crate::runtime::work_queue::{QueueWorker, WorkQueue};
use crate::sim::time::{Duration, SimTime};
use crate::store::event_recorder::{EventType, object_reference};
use crate::store::{DeleteOptions, Store};
use placement::{node_should_run, pin_to_node, pod_template, target_node};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The name its Events carry (`v1.EventSource{Component: "daemonset-controller"}`).
pub const COMPONENT: &str = "daemonset-controller";
/// At most this many creations or deletions per sync (the controller's `burstReplicas`).
const BURST_REPLICAS: usize = 250;
/// A failed pod on a node is replaced after 1s, then 2s, 4s … at most 15 minutes
/// (`failedPodsBackoff`).
const FAILED_POD_BACKOFF_MS: (u64, u64) = (1_000, 15 * 60 * 1_000);

type Key = (String, String);

/// The pods a DaemonSet owns, by the node each is on or pinned to (`getNodesToDaemonPods`).
type NodePods = BTreeMap<String, Vec<Arc<Pod>>>;

#[derive(Clone, Debug, Default)]
pub struct DaemonSetsController {
    pub(crate) informer: Informer,
    queue: WorkQueue<Key>,
    wakeups: Wakeups<Key>,
    /// Per DaemonSet and node: the back-off after a failed pod, and when it was last renewed.
    failed_pods_backoff: BTreeMap<(Key, String), (u64, SimTime)>,
}

impl QueueWorker for DaemonSetsController {
    type Key = Key;

    fn parts(&mut self) -> (&mut WorkQueue<Key>, &mut Wakeups<Key>) {
        (&mut self.queue, &mut self.wakeups)
    }

    /// DaemonSets that changed, owners of pods and revisions that changed, and every DaemonSet
    /// when a node changed (its labels or taints may change where pods belong).
    fn collect_changes(&mut self, store: &Store) {
        let events = match self.informer.poll(store) {
            Changes::Events(events) => events,
            Changes::Relist => {
                self.queue.extend(store.list::<DaemonSet>(None).map(key_of));
                return;
            }
        };
        let mut all = false;
        for event in events {
            match (&event.kind, &event.controller) {
                (Kind::DaemonSet, _) => self.queue.add((event.namespace.clone(), event.name.clone())),
                (Kind::Pod | Kind::ControllerRevision, Some((Kind::DaemonSet, owner))) => {
                    self.queue.add((event.namespace.clone(), owner.clone()));
                }
                (Kind::Node, _) => all = true,
                _ => {}
            }
        }
        if all {
            self.queue.extend(store.list::<DaemonSet>(None).map(key_of));
        }
    }

    fn sync_key(&mut self, store: &mut Store, (namespace, name): Key) {
        self.sync_daemon_set(store, &namespace, &name);
    }
}

impl DaemonSetsController {
    pub fn next_wake(&self) -> Option<SimTime> {
        self.wakeups.next()
    }

    /// `syncDaemonSet`: the current revision, the pods each node should have, the rolling
    /// update, old revisions cleaned up, then the status.
    fn sync_daemon_set(&mut self, store: &mut Store, namespace: &str, name: &str) {
        let Some(ds) = store.try_get::<DaemonSet>(namespace, name).cloned() else { return };
        if ds.metadata.is_being_deleted() {
            return;
        }
        let nodes: Vec<Node> = store.list::<Node>(None).cloned().collect();
        let Some((hash, old)) = history::construct_history(store, &ds) else { return };
        self.manage(store, &ds, &nodes, &hash);
        if ds.spec.update_strategy.type_.as_deref() == Some(crate::api::daemon_set::ROLLING_UPDATE) {
            let (deletions, creations) = update::rolling_update(store, &ds, &nodes, &hash);
            sync_nodes(store, &ds, &deletions, &creations, &hash);
        }
        history::cleanup_history(store, &ds, old);
        let status = status::calculate(store, &ds, &nodes, &hash);
        let key = key_of(&ds);
        let now = store.now();
        let min_ready = ds.spec.min_ready_seconds.unwrap_or(0);
        for pod in store.owned_shared::<Pod>(ds.metadata.uid) {
            if let Some(at) = active_pods::becomes_available_at(&pod, min_ready, now) {
                self.wakeups.add_at(at, key.clone());
            }
        }
        if status != ds.status {
            let mut updated = ds;
            updated.status = status;
            let _ = store.update_status(updated);
        }
    }

    /// `manage`: pods made for the nodes that lack one, and deleted where they may not stay.
    fn manage(&mut self, store: &mut Store, ds: &DaemonSet, nodes: &[Node], hash: &str) {
        let node_pods = nodes_to_daemon_pods(store, ds);
        let mut needing = Vec::new();
        let mut deletions = Vec::new();
        for node in nodes {
            let pods = node_pods.get(&node.metadata.name);
            let (create, delete) = self.pods_should_be_on_node(store, (ds, hash), node, pods);
            needing.extend(create);
            deletions.extend(delete);
        }
        // Pods pinned to a node that no longer exists (`getUnscheduledPodsWithoutNode`).
        for (node, pods) in &node_pods {
            if !nodes.iter().any(|n| &n.metadata.name == node) {
                let unscheduled = pods.iter().filter(|p| p.node_name().is_none());
                deletions.extend(unscheduled.map(|p| p.metadata.name.clone()));
            }
        }
        sync_nodes(store, ds, &deletions, &needing, hash);
    }

    /// `podsShouldBeOnNode`: whether the node needs a pod, and which of its pods must go.
    fn pods_should_be_on_node(
        &mut self,
        store: &mut Store,
        (ds, hash): (&DaemonSet, &str),
        node: &Node,
        pods: Option<&Vec<Arc<Pod>>>,
    ) -> (Option<String>, Vec<String>) {
        let verdict = node_should_run(node, ds);
        let node_name = &node.metadata.name;
        let mut deletions = Vec::new();
        match pods {
            None if verdict.should_run => return (Some(node_name.clone()), deletions),
            Some(pods) if verdict.should_continue_running => {
                let mut running: Vec<&Arc<Pod>> = Vec::new();
                for pod in pods.iter().filter(|p| !p.metadata.is_being_deleted()) {
                    match pod.phase() {
                        "Failed" => {
                            if self.failed_pod_may_go(store, ds, node_name) {
                                let message = format!(
                                    "Found failed daemon pod {}/{} on node {node_name}, will try to kill it",
                                    pod.metadata.namespace, pod.metadata.name
                                );
                                store.record_event_from(
                                    COMPONENT,
                                    object_reference(ds),
                                    EventType::Warning,
                                    "FailedDaemonPod",
                                    message,
                                );
                                deletions.push(pod.metadata.name.clone());
                            }
                        }
                        "Succeeded" => deletions.push(pod.metadata.name.clone()),
                        _ => running.push(pod),
                    }
                }
                deletions.extend(update::surplus_pods(ds, running, hash));
            }
            Some(pods) if !verdict.should_continue_running => {
                let live = pods.iter().filter(|p| !p.metadata.is_being_deleted());
                deletions.extend(live.map(|p| p.metadata.name.clone()));
            }
            _ => {}
        }
        (None, deletions)
    }

    /// The failed-pod back-off: whether a failed pod on this node may be deleted now; if not,
    /// the DaemonSet is woken when it may.
    fn failed_pod_may_go(&mut self, store: &Store, ds: &DaemonSet, node: &str) -> bool {
        let key = key_of(ds);
        let now = store.now();
        let entry = (key.clone(), node.to_string());
        let (initial, max) = FAILED_POD_BACKOFF_MS;
        if let Some(&(backoff, updated)) = self.failed_pods_backoff.get(&entry)
            && now.as_millis() < updated.as_millis() + backoff
        {
            self.wakeups.add_at(updated.plus(Duration::from_millis(backoff)), key);
            return false;
        }
        let next = match self.failed_pods_backoff.get(&entry) {
            Some(&(backoff, updated)) if now.as_millis() <= updated.as_millis() + 2 * max => (backoff * 2).min(max),
            _ => initial,
        };
        self.failed_pods_backoff.insert(entry, (next, now));
        true
    }
}

fn key_of(ds: &DaemonSet) -> Key {
    (ds.metadata.namespace.clone(), ds.metadata.name.clone())
}

/// `getNodesToDaemonPods`: the DaemonSet's pods by node, leaving out finished pods already
/// being deleted.
fn nodes_to_daemon_pods(store: &Store, ds: &DaemonSet) -> NodePods {
    let mut by_node = NodePods::new();
    for pod in store.owned_shared::<Pod>(ds.metadata.uid) {
        if pod.metadata.controller_ref().is_none_or(|r| r.uid != ds.metadata.uid) {
            continue;
        }
        if matches!(pod.phase(), "Succeeded" | "Failed") && pod.metadata.is_being_deleted() {
            continue;
        }
        if let Some(node) = target_node(&pod) {
            by_node.entry(node.to_string()).or_default().push(pod.clone());
        }
    }
    by_node
}

/// `syncNodes`: deletions, then pods for the nodes that need one in slow-start batches (1, 2,
/// 4, …), at most a burst of each per sync; a failing batch stops the creations.
fn sync_nodes(store: &mut Store, ds: &DaemonSet, deletions: &[String], nodes: &[String], hash: &str) {
    let generation = crate::store::apps_validation::template_generation(ds);
    let template = pod_template(ds, generation, hash);
    let nodes = &nodes[..nodes.len().min(BURST_REPLICAS)];
    let mut batch = 1.min(nodes.len());
    let mut position = 0;
    'batches: while batch > 0 {
        for node in &nodes[position..position + batch] {
            if let Err(message) = create_pod(store, ds, &template, node) {
                let message = format!("Error creating: {message}");
                store.record_event_from(COMPONENT, object_reference(ds), EventType::Warning, "FailedCreate", message);
                break 'batches;
            }
        }
        position += batch;
        batch = (2 * batch).min(nodes.len() - position);
    }
    for name in deletions.iter().take(BURST_REPLICAS) {
        let deleted = store.delete::<Pod>(&ds.metadata.namespace, name, &DeleteOptions::default());
        if deleted.is_ok() {
            let message = format!("Deleted pod: {name}");
            store.record_event_from(COMPONENT, object_reference(ds), EventType::Normal, "SuccessfulDelete", message);
        }
    }
}

/// `CreatePods` with the template pinned to `node` (`GetPodFromTemplate`).
fn create_pod(
    store: &mut Store,
    ds: &DaemonSet,
    template: &crate::api::pod::PodTemplateSpec,
    node: &str,
) -> Result<(), String> {
    let mut spec = template.spec.clone();
    pin_to_node(&mut spec, node);
    let metadata = ObjectMeta {
        generate_name: format!("{}-", ds.metadata.name),
        namespace: ds.metadata.namespace.clone(),
        labels: template.metadata.labels.clone(),
        annotations: template.metadata.annotations.clone(),
        finalizers: template.metadata.finalizers.clone(),
        owner_references: vec![controller_ref(ds)],
        ..Default::default()
    };
    let pod = store.create(Pod { metadata, spec, ..Default::default() }).map_err(|e| e.message())?;
    let message = format!("Created pod: {}", pod.metadata.name);
    store.record_event_from(COMPONENT, object_reference(ds), EventType::Normal, "SuccessfulCreate", message);
    Ok(())
}

/// The ownerReference a DaemonSet puts on its pods and revisions (`metav1.NewControllerRef`).
pub fn controller_ref(ds: &DaemonSet) -> OwnerReference {
    OwnerReference {
        api_version: "apps/v1".to_string(),
        kind: "DaemonSet".to_string(),
        name: ds.metadata.name.clone(),
        uid: ds.metadata.uid,
        controller: Some(true),
        block_owner_deletion: Some(true),
    }
}

#[cfg(test)]
mod tests;
