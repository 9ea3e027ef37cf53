//! The StatefulSet controller: pods with stable names (`web-0`, `web-1`, …), each with its own
//! claims from the volumeClaimTemplates, made and removed in ordinal order, and rolled from one
//! ControllerRevision to the next from the highest ordinal down. Mirrors
//! pkg/controller/statefulset (stateful_set.go, stateful_set_control.go,
//! stateful_pod_control.go, stateful_set_utils.go).

pub mod identity;
pub mod pod_control;
pub mod revisions;
pub mod sync;

use crate::api::{Kind, StatefulSet};
use crate::runtime::informer::{Changes, Informer};
use crate::runtime::wakeups::Wakeups;
use crate::runtime::work_queue::{QueueWorker, WorkQueue};
use crate::sim::time::SimTime;
use crate::store::Store;

type Key = (String, String);

#[derive(Clone, Debug, Default)]
pub struct StatefulSetController {
    pub(crate) informer: Informer,
    queue: WorkQueue<Key>,
    wakeups: Wakeups<Key>,
}

impl QueueWorker for StatefulSetController {
    type Key = Key;

    fn parts(&mut self) -> (&mut WorkQueue<Key>, &mut Wakeups<Key>) {
        (&mut self.queue, &mut self.wakeups)
    }

    /// StatefulSets that changed, and the owners of pods and revisions that changed.
    fn collect_changes(&mut self, store: &Store) {
        let events = match self.informer.poll(store) {
            Changes::Events(events) => events,
            Changes::Relist => {
                let sets = store.list::<StatefulSet>(None);
                self.queue.extend(sets.map(|s| (s.metadata.namespace.clone(), s.metadata.name.clone())));
                return;
            }
        };
        for event in events {
            match (event.kind, &event.controller) {
                (Kind::StatefulSet, _) => self.queue.add((event.namespace.clone(), event.name.clone())),
                (Kind::Pod | Kind::ControllerRevision, Some((Kind::StatefulSet, owner))) => {
                    self.queue.add((event.namespace.clone(), owner.clone()));
                }
                _ => {}
            }
        }
    }

    fn sync_key(&mut self, store: &mut Store, (namespace, name): Key) {
        if let Some(at) = sync::sync_stateful_set(store, &namespace, &name) {
            self.wakeups.add_at(at, (namespace, name));
        }
    }
}

impl StatefulSetController {
    pub fn next_wake(&self) -> Option<SimTime> {
        self.wakeups.next()
    }
}
