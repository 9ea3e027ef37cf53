//! The HPA controller: every 15 s per HorizontalPodAutoscaler, read the target's scale and its
//! pods' metrics, propose a replica count, stabilize and limit it, and write it to the target's
//! `spec.replicas`. Mirrors pkg/controller/podautoscaler/horizontal.go (`reconcileAutoscaler`,
//! `computeReplicasForMetrics`, `setStatus`, `setCondition`).

pub mod metrics_client;
pub mod normalize;
pub mod reconcile;
pub mod replica_calculator;

use crate::api::{HorizontalPodAutoscaler, Kind};
use crate::kubelet::Kubelet;
use crate::metrics::load::LoadTable;
use crate::runtime::informer::{Changes, Informer};
use crate::sim::time::{Duration, SimTime};
use crate::store::Store;

use crate::store::watch::WatchEventType;
use normalize::History;
use std::collections::BTreeMap;

/// `--horizontal-pod-autoscaler-sync-period`: each HPA is looked at this often.
pub const SYNC_PERIOD: Duration = Duration::from_secs(15);

type Key = (String, String);

#[derive(Clone, Debug, Default)]
pub struct HorizontalController {
    pub(crate) informer: Informer,
    /// When each HPA is next due: the work queue with its fixed 15 s rate limiter (a key already
    /// waiting keeps its earlier time).
    queue: BTreeMap<Key, SimTime>,
    /// Recommendations and scale events, per HPA (`recommendations`, `scaleUpEvents`, …).
    history: BTreeMap<Key, History>,
}

impl HorizontalController {
    pub fn sync(&mut self, store: &mut Store, kubelet: &Kubelet, load: &LoadTable) {
        self.collect_changes(store);
        let now = store.now();
        let due: Vec<Key> = self.queue.iter().filter(|(_, at)| **at <= now).map(|(k, _)| k.clone()).collect();
        if due.is_empty() {
            return;
        }
        let demands = load.demands(store);
        let sources = reconcile::Sources { kubelet, demands: &demands };
        for key in due {
            self.queue.remove(&key);
            let Some(hpa) = store.try_get::<HorizontalPodAutoscaler>(&key.0, &key.1).cloned() else {
                self.history.remove(&key);
                continue;
            };
            let history = self.history.entry(key.clone()).or_default();
            reconcile::reconcile_autoscaler(store, &sources, hpa, history);
            self.queue.insert(key, now.plus(SYNC_PERIOD));
        }
    }

    pub fn next_wake(&self) -> Option<SimTime> {
        self.queue.values().min().copied()
    }

    /// The informer: an added or changed HPA is queued a sync period out (`enqueueHPA` uses
    /// `AddRateLimited`); a deleted one forgets its history.
    fn collect_changes(&mut self, store: &Store) {
        let later = store.now().plus(SYNC_PERIOD);
        match self.informer.poll(store) {
            Changes::Relist => {
                for hpa in store.list::<HorizontalPodAutoscaler>(None) {
                    let key = (hpa.metadata.namespace.clone(), hpa.metadata.name.clone());
                    self.queue.entry(key).or_insert(later);
                }
                // Deletions missed while behind: forget whatever is no longer there.
                self.queue
                    .retain(|(namespace, name), _| store.try_get::<HorizontalPodAutoscaler>(namespace, name).is_some());
                self.history
                    .retain(|(namespace, name), _| store.try_get::<HorizontalPodAutoscaler>(namespace, name).is_some());
            }
            Changes::Events(events) => {
                for event in events.filter(|e| e.kind == Kind::HorizontalPodAutoscaler) {
                    let key = (event.namespace.clone(), event.name.clone());
                    if event.type_ == WatchEventType::Deleted {
                        self.queue.remove(&key);
                        self.history.remove(&key);
                    } else {
                        self.queue.entry(key).or_insert(later);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
