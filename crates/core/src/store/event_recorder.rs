//! Recording Events the way client-go's recorder does: a new Event the first time, and for a
//! repeat (same object, source, type, reason and message within 10 minutes) the same Event with
//! `count` raised and `lastTimestamp` moved, which kubectl prints as `(x3 over 75s)`.
//!
//! Mirrors `staging/src/k8s.io/client-go/tools/record/events_cache.go` (EventCorrelator's
//! aggregation by key) and the naming in `event.go` (`<object>.<hex unix nanos>`).

use super::Store;
use crate::api::endpoint_slice::ObjectReference;
use crate::api::event::EventSource;
use crate::api::meta::Time;
use crate::api::{Event, ObjectMeta, Resource};
use crate::sim::time::{Duration, SimTime};
use std::collections::BTreeMap;

/// A repeat older than this starts a new Event (client-go's `maxLruCacheEntries` window).
const AGGREGATION_WINDOW: Duration = Duration::from_secs(600);

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum EventType {
    Normal,
    Warning,
}

impl EventType {
    pub fn as_str(self) -> &'static str {
        match self {
            EventType::Normal => "Normal",
            EventType::Warning => "Warning",
        }
    }
}

/// Who reports: `default-scheduler`, `kubelet` (with its node), `replicaset-controller`, …
/// taken from the request's user.
#[derive(Clone, Copy, Debug)]
struct Reporter<'a> {
    component: &'a str,
    host: Option<&'a str>,
}

/// The correlation key: a hash of everything that makes two events "the same" (events_cache.go
/// `getEventKey`). A hit is confirmed against the stored Event, so a collision only costs a new Event.
pub(crate) type EventKey = u64;

fn event_key(
    involved: &ObjectReference,
    type_: EventType,
    reason: &str,
    message: &str,
    reporter: Reporter<'_>,
) -> EventKey {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut write = |bytes: &[u8]| {
        for b in bytes.iter().chain([0xff].iter()) {
            hash ^= u64::from(*b);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    };
    write(&involved.uid.unwrap_or_default().0.to_le_bytes());
    write(involved.field_path.as_deref().unwrap_or_default().as_bytes());
    write(reporter.component.as_bytes());
    write(reporter.host.unwrap_or_default().as_bytes());
    write(type_.as_str().as_bytes());
    write(reason.as_bytes());
    write(message.as_bytes());
    hash
}

/// Whether a stored Event is the one `record_event` would aggregate into.
fn same_event(
    event: &Event,
    involved: &ObjectReference,
    type_: EventType,
    reason: &str,
    message: &str,
    reporter: Reporter<'_>,
) -> bool {
    event.involved_object.uid == involved.uid
        && event.involved_object.field_path == involved.field_path
        && event.source.component.as_deref() == Some(reporter.component)
        && event.source.host.as_deref() == reporter.host
        && event.type_.as_deref() == Some(type_.as_str())
        && event.reason.as_deref() == Some(reason)
        && event.message.as_deref() == Some(message)
}

/// A reference to `object` as Events and owner links name it.
pub fn object_reference<T: Resource>(object: &T) -> ObjectReference {
    let meta = object.metadata();
    let info = T::KIND.info();
    ObjectReference {
        kind: Some(info.kind_name.to_string()),
        namespace: (!meta.namespace.is_empty()).then(|| meta.namespace.clone()),
        name: Some(meta.name.clone()),
        uid: Some(meta.uid),
        api_version: Some(info.api_version()),
        resource_version: Some(meta.resource_version.0.to_string()),
        field_path: None,
    }
}

/// The same reference narrowed to one container (`spec.containers{hello}`), as the kubelet reports.
pub fn container_reference<T: Resource>(object: &T, field_path: String) -> ObjectReference {
    ObjectReference { field_path: Some(field_path), ..object_reference(object) }
}

impl Store {
    /// Records an Event about `involved`, aggregating repeats into one Event with a count. The
    /// Event's source is the user making the request (`UserInfo::event_source`): the component
    /// whose writes these are.
    pub fn record_event(&mut self, involved: ObjectReference, type_: EventType, reason: &str, message: String) {
        let user = self.user().clone();
        let (component, host) = user.event_source();
        self.record_reported(involved, type_, reason, message, Reporter { component, host });
    }

    /// `record_event` under another component's name: a scheduler profile reports under its
    /// own `schedulerName` (each profile has its own recorder upstream).
    pub fn record_event_from(
        &mut self,
        component: &str,
        involved: ObjectReference,
        type_: EventType,
        reason: &str,
        message: String,
    ) {
        self.record_reported(involved, type_, reason, message, Reporter { component, host: None });
    }

    fn record_reported(
        &mut self,
        involved: ObjectReference,
        type_: EventType,
        reason: &str,
        message: String,
        reporter: Reporter<'_>,
    ) {
        let key = event_key(&involved, type_, reason, &message, reporter);
        let now = self.now();
        if let Some((namespace, name)) = self.event_index.get(&key).cloned()
            && self
                .try_get::<Event>(&namespace, &name)
                .is_some_and(|e| same_event(e, &involved, type_, reason, &message, reporter))
            && self.bump_event(&namespace, &name, now)
        {
            return;
        }
        let namespace = involved.namespace.clone().unwrap_or_else(|| "default".to_string());
        let name = self.free_event_name(&namespace, involved.name.as_deref().unwrap_or_default(), now);
        let event = Event {
            metadata: ObjectMeta::named(&namespace, &name),
            involved_object: involved,
            reason: Some(reason.to_string()),
            message: Some(message),
            source: EventSource {
                component: Some(reporter.component.to_string()),
                host: reporter.host.map(str::to_string),
            },
            first_timestamp: Some(Time(now)),
            last_timestamp: Some(Time(now)),
            count: Some(1),
            type_: Some(type_.as_str().to_string()),
            reporting_component: Some(reporter.component.to_string()),
            reporting_instance: reporter.host.map(str::to_string),
            ..Default::default()
        };
        if self.create(event).is_ok() {
            self.event_index.insert(key, (namespace, name));
        }
    }

    /// Raises the count of a recent, still stored Event; false when a new one is needed.
    fn bump_event(&mut self, namespace: &str, name: &str, now: SimTime) -> bool {
        let Some(existing) = self.try_get::<Event>(namespace, name) else { return false };
        let last = existing.last_timestamp.map_or(SimTime::ZERO, |t| t.0);
        if now.since(last) > AGGREGATION_WINDOW {
            return false;
        }
        let mut event = existing.clone();
        event.count = Some(event.count.unwrap_or(1) + 1);
        event.last_timestamp = Some(Time(now));
        self.update(event).is_ok()
    }

    /// `<object>.<hex nanoseconds>`; a nanosecond later when two events share a millisecond.
    fn free_event_name(&mut self, namespace: &str, object: &str, now: SimTime) -> String {
        let base = u128::from(now.unix_millis()) * 1_000_000;
        let mut nanos = self.event_names.first_candidate(namespace, object, now, base);
        loop {
            let name = format!("{object}.{nanos:x}");
            if self.try_get::<Event>(namespace, &name).is_none() {
                self.event_names.taken(namespace, object, nanos);
                return name;
            }
            nanos += 1;
        }
    }
}

/// Where `free_event_name` resumes for objects it named this millisecond, so a ReplicaSet
/// creating 500 pods at one instant probes one name per Event, not up to 500. Only a hint, kept
/// small (a big cluster names 150,000 objects in one millisecond): every candidate is still
/// checked against the table, so a forgotten object only costs probes.
#[derive(Clone, Debug, Default)]
pub(crate) struct EventNames {
    at: SimTime,
    next: BTreeMap<(String, String), u128>,
}

/// Objects remembered at most; past it the hint starts over.
const EVENT_NAME_HINTS: usize = 256;

impl EventNames {
    fn first_candidate(&mut self, namespace: &str, object: &str, now: SimTime, base: u128) -> u128 {
        if self.at != now || self.next.len() >= EVENT_NAME_HINTS {
            self.at = now;
            self.next.clear();
        }
        let key = (namespace.to_string(), object.to_string());
        self.next.get(&key).copied().unwrap_or(base).max(base)
    }

    fn taken(&mut self, namespace: &str, object: &str, nanos: u128) {
        self.next.insert((namespace.to_string(), object.to_string()), nanos + 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::ConfigMap;
    use crate::sim::time::Duration;
    use crate::store::UserInfo;

    fn subject(store: &mut Store) -> ConfigMap {
        let cm = ConfigMap { metadata: ObjectMeta::named("default", "app-config"), ..Default::default() };
        store.create(cm).unwrap()
    }

    fn events(store: &Store) -> Vec<(String, i32, String)> {
        store
            .list::<Event>(Some("default"))
            .map(|e| (e.reason.clone().unwrap(), e.count.unwrap(), e.message.clone().unwrap()))
            .collect()
    }

    #[test]
    fn repeats_are_counted_on_one_event() {
        let mut store = Store::new(1);
        let cm = subject(&mut store);
        store.act_as(UserInfo::node("node-1"));
        for _ in 0..3 {
            store.record_event(object_reference(&cm), EventType::Warning, "Unhealthy", "probe failed".into());
            store.set_now(store.now().plus(Duration::from_secs(2)));
        }
        store.record_event(object_reference(&cm), EventType::Normal, "Killing", "stopping".into());
        assert_eq!(
            events(&store),
            vec![("Unhealthy".into(), 3, "probe failed".into()), ("Killing".into(), 1, "stopping".into())]
        );
    }

    #[test]
    fn a_repeat_after_ten_minutes_is_a_new_event() {
        let mut store = Store::new(1);
        let cm = subject(&mut store);
        store.act_as(UserInfo::controller("replicaset-controller"));
        store.record_event(object_reference(&cm), EventType::Normal, "Synced", "ok".into());
        store.set_now(store.now().plus(Duration::from_secs(601)));
        store.record_event(object_reference(&cm), EventType::Normal, "Synced", "ok".into());
        assert_eq!(events(&store).len(), 2);
    }

    #[test]
    fn names_are_object_dot_hex_nanoseconds() {
        let mut store = Store::new(1);
        let cm = subject(&mut store);
        store.act_as(UserInfo::controller("replicaset-controller"));
        store.record_event(object_reference(&cm), EventType::Normal, "A", "a".into());
        store.record_event(object_reference(&cm), EventType::Normal, "B", "b".into());
        let names: Vec<String> = store.list::<Event>(Some("default")).map(|e| e.metadata.name.clone()).collect();
        assert_eq!(names, vec!["app-config.1816687ec0570000", "app-config.1816687ec0570001"]);
    }
}
