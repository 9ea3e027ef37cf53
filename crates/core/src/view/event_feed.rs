//! The newest Kubernetes Events, as `kubectl get events` names them (LAST SEEN, TYPE, REASON,
//! OBJECT, MESSAGE), read from the tail of the watch log so a big cluster's feed stays cheap.

use crate::api::Kind;
use crate::api::event::Event;
use crate::kubectl::age::age;
use crate::sim::Sim;
use crate::store::Store;
use std::collections::BTreeSet;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventLine {
    pub last_seen: String,
    pub warning: bool,
    pub reason: String,
    pub object: String,
    pub message: String,
}

/// The `limit` most recent events, newest last (the order `kubectl get events` sorts by).
pub fn recent(sim: &Sim, limit: usize) -> Vec<EventLine> {
    let store = sim.store();
    // Events written at the same virtual instant keep the order they were written in.
    let key = |e: &&Event| (e.last_timestamp.map(|t| t.0), e.metadata.resource_version.0);
    let mut events = newest_in_watch_log(store, limit).unwrap_or_else(|| store.list::<Event>(None).collect());
    // Only the newest `limit` are sorted: a big cluster holds hundreds of thousands of events
    // and this runs on every redraw.
    if events.len() > limit {
        let older = events.len() - limit;
        events.select_nth_unstable_by_key(older, key);
        events.drain(..older);
    }
    events.sort_by_key(key);
    events.iter().map(|event| line(event, store)).collect()
}

/// The `limit` Events written last, read from the tail of the watch log: on a big cluster a few
/// dozen entries instead of hundreds of thousands of Events. `None` (list them all) when the
/// log does not reach back far enough, or an Event's lastTimestamp is not when it was written
/// (one applied by hand), so the write order may not be the time order.
fn newest_in_watch_log(store: &Store, limit: usize) -> Option<Vec<&Event>> {
    let mut seen = BTreeSet::new();
    let mut events = Vec::new();
    for entry in store.watch_log().entries().rev().filter(|e| e.kind == Kind::Event) {
        if events.len() == limit {
            break;
        }
        if !seen.insert((entry.namespace.as_str(), entry.name.as_str())) {
            continue;
        }
        let Some(event) = store.try_get::<Event>(&entry.namespace, &entry.name) else { continue };
        if event.last_timestamp.map(|t| t.0) != Some(entry.time)
            && event.metadata.resource_version.0 == entry.resource_version
        {
            return None;
        }
        events.push(event);
    }
    (events.len() == limit).then_some(events)
}

fn line(event: &Event, store: &Store) -> EventLine {
    let object = &event.involved_object;
    let kind = object.kind.as_deref().unwrap_or_default().to_lowercase();
    let mut message = event.message.clone().unwrap_or_default();
    if let Some(count) = event.count.filter(|count| *count > 1) {
        message.push_str(&format!(" (x{count})"));
    }
    EventLine {
        last_seen: age(event.last_timestamp.map(|t| t.0), store.now()),
        warning: event.type_.as_deref() == Some("Warning"),
        reason: event.reason.clone().unwrap_or_default(),
        object: format!("{kind}/{}", object.name.as_deref().unwrap_or_default()),
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kubectl::fixture::lab;

    #[test]
    fn the_newest_events_come_last_with_kubectls_reasons() {
        let sim = lab(
            "kubectl create deployment web --image=hello:v1 --replicas=2\nsleep 1m\nkubectl scale deployment web --replicas=1\nsleep 1s\n",
        );
        let lines = recent(&sim, 3);
        assert_eq!(lines.len(), 3);
        let last = lines.last().unwrap();
        assert!(lines.iter().any(|l| l.reason == "Killing"), "{lines:?}");
        assert!(!last.warning);
        assert!(last.object.starts_with("pod/") || last.object.starts_with("replicaset/"), "{last:?}");
    }

    #[test]
    fn the_newest_few_are_the_tail_of_all_of_them_in_order() {
        let sim = lab(
            "kubectl create deployment web --image=hello:v1 --replicas=5\nsleep 1m\nkubectl scale deployment web --replicas=2\nsleep 5s\n",
        );
        let all = recent(&sim, usize::MAX);
        assert!(all.len() > 20, "{}", all.len());
        let few = recent(&sim, 7);
        assert_eq!(few, all[all.len() - 7..]);
    }
}
