//! The Deployment controller: one ReplicaSet per pod template, moved between by the rollout
//! strategy. Mirrors pkg/controller/deployment/deployment_controller.go (`syncDeployment`):
//! adopt ReplicaSets, then pause → scale only, a scaling event → proportional scale, else
//! Recreate or RollingUpdate; status and the Progressing/Available conditions after each pass.

pub mod hash;
pub mod progress;
pub mod recreate;
pub mod replicas;
pub mod rolling;
pub mod sync;

use crate::api::{Deployment, Kind, ReplicaSet};
use crate::runtime::informer::{Changes, Informer};
use crate::runtime::wakeups::Wakeups;
use crate::runtime::work_queue::{QueueWorker, WorkQueue};
use crate::sim::time::SimTime;
use crate::store::Store;

use std::collections::BTreeSet;

type Key = (String, String);

#[derive(Clone, Debug, Default)]
pub struct DeploymentController {
    pub(crate) informer: Informer,
    /// What changed, synced in batches a turn may leave unfinished (`sync_some`).
    queue: WorkQueue<Key>,
    /// Progress deadlines to check again (`requeueStuckDeployment`).
    wakeups: Wakeups<Key>,
    /// ReplicaSets seen without a controller: the only candidates for adoption.
    orphans: BTreeSet<Key>,
}

impl QueueWorker for DeploymentController {
    type Key = Key;

    fn parts(&mut self) -> (&mut WorkQueue<Key>, &mut Wakeups<Key>) {
        (&mut self.queue, &mut self.wakeups)
    }

    /// The informer: Deployments that changed, owners of ReplicaSets that changed, and
    /// Recreate Deployments whose old pods finished going away.
    fn collect_changes(&mut self, store: &Store) {
        let events = match self.informer.poll(store) {
            Changes::Events(events) => events,
            Changes::Relist => {
                self.queue.extend(store.list::<Deployment>(None).map(key_of));
                let orphans = store.list::<ReplicaSet>(None).filter(|rs| rs.metadata.controller_ref().is_none());
                self.orphans.extend(orphans.map(|rs| (rs.metadata.namespace.clone(), rs.metadata.name.clone())));
                return;
            }
        };
        for event in events {
            match (event.kind, &event.controller) {
                (Kind::Deployment, _) => {
                    self.queue.add((event.namespace.clone(), event.name.clone()));
                }
                (Kind::ReplicaSet, Some((Kind::Deployment, owner))) => {
                    self.queue.add((event.namespace.clone(), owner.clone()));
                }
                (Kind::ReplicaSet, None) => {
                    // An orphan (or a deleted one): any Deployment here might adopt or need it.
                    if store.try_get::<ReplicaSet>(&event.namespace, &event.name).is_some() {
                        self.orphans.insert((event.namespace.clone(), event.name.clone()));
                    }
                    self.queue.extend(deployments_in(store, &event.namespace));
                }
                (Kind::Pod, Some((Kind::ReplicaSet, rs)))
                    if event.type_ == crate::store::watch::WatchEventType::Deleted =>
                {
                    if let Some(owner) = owner_of_replica_set(store, &event.namespace, rs) {
                        self.queue.add((event.namespace.clone(), owner));
                    }
                }
                _ => {}
            }
        }
    }

    fn sync_key(&mut self, store: &mut Store, (namespace, name): Key) {
        if let Some(at) = sync_deployment(store, &namespace, &name, &mut self.orphans) {
            self.wakeups.add_at(at, (namespace, name));
        }
    }
}

impl DeploymentController {
    pub fn next_wake(&self) -> Option<SimTime> {
        self.wakeups.next()
    }
}

fn key_of(d: &Deployment) -> Key {
    (d.metadata.namespace.clone(), d.metadata.name.clone())
}

fn deployments_in(store: &Store, namespace: &str) -> Vec<Key> {
    store.list::<Deployment>(Some(namespace)).map(key_of).collect()
}

fn owner_of_replica_set(store: &Store, namespace: &str, rs: &str) -> Option<String> {
    let rs = store.try_get::<ReplicaSet>(namespace, rs)?;
    let owner = rs.metadata.controller_ref().filter(|r| r.kind == "Deployment")?;
    Some(owner.name.clone())
}

/// One `syncDeployment`; returns when to look again if a progress deadline is pending.
fn sync_deployment(store: &mut Store, namespace: &str, name: &str, orphans: &mut BTreeSet<Key>) -> Option<SimTime> {
    let mut d = store.try_get::<Deployment>(namespace, name)?.clone();
    let selector_is_empty =
        d.spec.selector.as_ref().is_none_or(|s| s.match_labels.is_empty() && s.match_expressions.is_empty());
    if selector_is_empty {
        // Upstream refuses to act on an empty selector (it would select every pod).
        return None;
    }
    sync::adopt_orphans(store, &d, orphans);
    let replica_sets = sync::replica_sets_for(store, &d);
    if d.metadata.deletion_timestamp.is_some() {
        sync::sync_status_only(store, &mut d, replica_sets);
        return None;
    }
    progress::check_paused_condition(store, &mut d);
    if d.spec.paused == Some(true) || sync::is_scaling_event(&d, &replica_sets) {
        sync::sync_scale(store, &mut d, replica_sets);
        return None;
    }
    if replicas::is_rolling(&d) {
        rolling::rollout_rolling(store, &mut d, replica_sets)
    } else {
        recreate::rollout_recreate(store, &mut d, replica_sets)
    }
}

#[cfg(test)]
mod tests;
