//! The `Events:` section every describer ends with: the Events about one object, oldest first,
//! with `4s (x3 over 20s)` ages for repeats. Mirrors `DescribeEvents` and `searchEvents` in
//! staging/src/k8s.io/kubectl/pkg/describe/describe.go and `SortableEvents` in
//! staging/src/k8s.io/kubectl/pkg/util/event/sorted_event_list.go.

use super::{Describer, LEVEL_0, LEVEL_1, PrefixWriter, since};
use crate::api::meta::Time;
use crate::api::{Event, Resource};
use crate::sim::time::SimTime;

/// Which Events belong to an object: the field selector `searchEvents` builds.
pub struct EventQuery<'a> {
    /// `None` leaves the kind out (pods: kubectl clears it so mirror pods match).
    pub kind: Option<&'a str>,
    pub namespace: &'a str,
    pub name: &'a str,
    pub uid: String,
}

impl<'a> EventQuery<'a> {
    /// The query for a stored object, by kind, namespace, name and uid.
    pub fn for_object<T: Resource>(object: &'a T) -> EventQuery<'a> {
        let meta = object.metadata();
        EventQuery {
            kind: Some(T::KIND.info().kind_name),
            namespace: &meta.namespace,
            name: &meta.name,
            uid: meta.uid.to_string(),
        }
    }

    fn matches(&self, event: &Event) -> bool {
        let involved = &event.involved_object;
        involved.name.as_deref().unwrap_or("") == self.name
            && involved.namespace.as_deref().unwrap_or("") == self.namespace
            && self.kind.is_none_or(|kind| involved.kind.as_deref().unwrap_or("") == kind)
            && involved.uid.unwrap_or_default().to_string() == self.uid
    }
}

/// The Events matching a query, in the order the API lists them; all namespaces for
/// cluster-scoped objects, as kubectl lists them.
pub fn search(describer: &Describer<'_>, query: &EventQuery<'_>) -> Vec<Event> {
    let namespace = (!query.namespace.is_empty()).then_some(query.namespace);
    describer.store.list::<Event>(namespace).filter(|e| query.matches(e)).cloned().collect()
}

/// `DescribeEvents`, when events are shown at all.
pub fn describe(w: &mut PrefixWriter, describer: &Describer<'_>, events: Vec<Event>) {
    if !describer.show_events {
        return;
    }
    write_events(w, events, describer.now);
}

fn write_events(w: &mut PrefixWriter, mut events: Vec<Event>, now: SimTime) {
    if events.is_empty() {
        w.write(LEVEL_0, "Events:\t<none>\n");
        return;
    }
    // Go's unstable sort.Sort, on times a client sees to the second (metav1.Time's JSON):
    // Events of the same second stay where real kubectl leaves them.
    let second = |e: &Event| sort_time(e).map(|t| t.0.0 / 1000);
    crate::kubectl::go_sort::sort(&mut events, |a, b| second(a) < second(b));
    w.write(LEVEL_0, "Events:\n  Type\tReason\tAge\tFrom\tMessage\n");
    w.write(LEVEL_1, "----\t------\t----\t----\t-------\n");
    for event in &events {
        let source = event.source.component.clone().filter(|c| !c.is_empty());
        let source = source.or_else(|| event.reporting_component.clone()).unwrap_or_default();
        // kubectl 1.36 names the part of the object the event is about (`spec.containers{web}`).
        let message = event.message.as_deref().unwrap_or("").trim();
        let message = match event.involved_object.field_path.as_deref().filter(|p| !p.is_empty()) {
            Some(path) => format!("{path}: {message}"),
            None => message.to_string(),
        };
        let line = format!(
            "{}\t{}\t{}\t{}\t{}\n",
            event.type_.as_deref().unwrap_or(""),
            event.reason.as_deref().unwrap_or(""),
            interval(event, now),
            source,
            message,
        );
        w.write(LEVEL_1, &line);
    }
}

/// `eventTime` in sorted_event_list.go: lastTimestamp, else eventTime.
fn sort_time(event: &Event) -> Option<Time> {
    event.last_timestamp.or(event.event_time)
}

/// The Age cell: `20s`, or `1s (x11 over 20s)` for an Event seen more than once.
pub fn interval(event: &Event, now: SimTime) -> String {
    let first = since(event.event_time.or(event.first_timestamp), now);
    let count = event.count.unwrap_or(0);
    if count > 1 { format!("{} (x{count} over {first})", since(event.last_timestamp, now)) } else { first }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::event::EventSource;

    fn event(reason: &str, first_s: u64, last_s: u64, count: i32) -> Event {
        Event {
            reason: Some(reason.into()),
            type_: Some("Warning".into()),
            message: Some(format!("{reason} happened\n")),
            source: EventSource { component: Some("kubelet".into()), host: Some("node-1".into()) },
            first_timestamp: Some(Time(SimTime(first_s * 1000))),
            last_timestamp: Some(Time(SimTime(last_s * 1000))),
            count: Some(count),
            ..Default::default()
        }
    }

    #[test]
    fn events_table_sorts_by_last_seen_and_counts_repeats() {
        let mut w = PrefixWriter::default();
        let events = vec![event("Unhealthy", 10, 29, 11), event("Started", 10, 10, 1)];
        write_events(&mut w, events, SimTime(30_000));
        assert_eq!(
            w.finish(),
            "Events:\n  Type     Reason     Age                From     Message\n  ----     ------     ----               ----     -------\n  Warning  Started    20s                kubelet  Started happened\n  Warning  Unhealthy  1s (x11 over 20s)  kubelet  Unhealthy happened\n"
        );
    }

    #[test]
    fn no_events_is_none() {
        let mut w = PrefixWriter::default();
        write_events(&mut w, Vec::new(), SimTime(0));
        assert_eq!(w.finish(), "Events:  <none>\n");
    }
}
