//! The TTL-after-finished controller: deletes a finished Job (and, through the garbage
//! collector, its pods) `ttlSecondsAfterFinished` after it finished. Mirrors
//! pkg/controller/ttlafterfinished/ttlafterfinished_controller.go (`processTTL`, `timeLeft`,
//! `jobFinishTime`), which deletes in the foreground and records no event.

use crate::api::{Job, Kind};
use crate::runtime::informer::{Changes, Informer};
use crate::runtime::wakeups::Wakeups;
use crate::sim::time::{Duration, SimTime};
use crate::store::{DeleteOptions, PropagationPolicy, Store};
use std::collections::BTreeSet;

type Key = (String, String);

#[derive(Clone, Debug, Default)]
pub struct TtlAfterFinishedController {
    pub(crate) informer: Informer,
    wakeups: Wakeups<Key>,
}

impl TtlAfterFinishedController {
    pub fn next_wake(&self) -> Option<SimTime> {
        self.wakeups.next()
    }

    pub fn sync(&mut self, store: &mut Store) {
        let mut due: BTreeSet<Key> = self.wakeups.take_due(store.now()).into_iter().collect();
        match self.informer.poll(store) {
            Changes::Relist => {
                due.extend(store.list::<Job>(None).map(|j| (j.metadata.namespace.clone(), j.metadata.name.clone())))
            }
            Changes::Events(events) => {
                due.extend(events.filter(|e| e.kind == Kind::Job).map(|e| (e.namespace.clone(), e.name.clone())))
            }
        }
        for (namespace, name) in due {
            self.process(store, &namespace, &name);
        }
    }

    /// Deletes the Job if its time is up, or asks to be woken when it will be.
    fn process(&mut self, store: &mut Store, namespace: &str, name: &str) {
        let Some(job) = store.try_get::<Job>(namespace, name) else { return };
        let Some(expire_at) = expire_at(job) else { return };
        if job.metadata.deletion_timestamp.is_some() {
            return;
        }
        if store.now() < expire_at {
            self.wakeups.add_at(expire_at, (namespace.to_string(), name.to_string()));
            return;
        }
        let options = DeleteOptions { propagation_policy: PropagationPolicy::Foreground, ..Default::default() };
        let _ = store.delete::<Job>(namespace, name, &options);
    }
}

/// When a finished Job with a TTL expires: its Complete or Failed condition's transition time
/// (whole seconds, as stored) plus the TTL.
fn expire_at(job: &Job) -> Option<SimTime> {
    let ttl = job.spec.ttl_seconds_after_finished?;
    let finished = job.status.finished()?.last_transition_time?.0;
    let finished = SimTime(finished.as_millis() / 1000 * 1000);
    Some(finished.plus(Duration::from_secs(ttl.max(0) as u64)))
}
