//! A watch over HTTP: the events after a resourceVersion, one JSON line each
//! (`{"type":"ADDED","object":{…}}`), as kube-apiserver's watch handler streams them
//! (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/watch.go). A watch started without a
//! resourceVersion (or at "0") first gets the current objects as ADDED events; one that asks
//! for `sendInitialEvents` gets them and then the bookmark that ends them (client-go's
//! WatchList); one that is too far behind gets `410 Gone` as an ERROR event.

use super::WatchRequest;
use super::table::{self, IncludeObject};
use crate::api::{Kind, Object};
use crate::apiserver::response::Status;
use crate::error::ApiError;
use crate::sim::time::SimTime;
use crate::store::kinds::matches_fields;
use crate::store::watch::WatchEvent;
use crate::store::{FieldSelector, Store};
use serde_json::{Value, json};

/// The object as a write left it; for a write from before the stream kept states, the object
/// as it is now (`None` once it is gone).
fn state_after(store: &Store, event: &WatchEvent) -> Option<Object> {
    match store.snapshots().at(event.resource_version) {
        Some(object) => Some(object.clone()),
        None => store.get_object(event.kind, &event.namespace, &event.name).ok(),
    }
}

/// Event lines already encoded, by resourceVersion, shared by every watch of a lab: a
/// rollout's events are turned into JSON once, not once per watcher, as kube-apiserver's watch
/// cache shares its encodings. Bounded: past `MOST_ENCODED` lines it starts again.
#[derive(Default)]
pub struct EncodedEvents {
    lines: std::collections::HashMap<u64, String>,
}

const MOST_ENCODED: usize = 16_384;

impl EncodedEvents {
    fn line(&mut self, resource_version: u64, encode: impl FnOnce() -> String) -> String {
        if self.lines.len() >= MOST_ENCODED && !self.lines.contains_key(&resource_version) {
            self.lines.clear();
        }
        self.lines.entry(resource_version).or_insert_with(encode).clone()
    }
}

/// An open stream: what it watches and how far it has read.
#[derive(Clone, Debug)]
pub struct WatchCursor {
    pub request: WatchRequest,
    /// The current objects are still to be sent as ADDED events.
    initial_pending: bool,
    /// Ends the initial events with the `k8s.io/initial-events-end` bookmark.
    initial_bookmark: bool,
    fields: FieldSelector,
    labels: crate::api::labels::Selector,
}

impl WatchCursor {
    pub fn new(request: WatchRequest) -> Result<WatchCursor, ApiError> {
        let options = request.query.options(request.kind)?;
        let rv = request.query.get("resourceVersion").unwrap_or("");
        let initial_bookmark = request.query.flag("sendInitialEvents");
        let mut fields = options.field_selector;
        if !request.name.is_empty() {
            let by_name = format!("metadata.name={}", request.name);
            fields = FieldSelector::parse(&by_name, request.kind).unwrap_or(fields);
        }
        Ok(WatchCursor {
            initial_pending: initial_bookmark || rv.is_empty() || rv == "0",
            initial_bookmark,
            labels: options.label_selector,
            fields,
            request,
        })
    }

    /// The kind it watches (the server closes its snapshots when the stream ends).
    pub fn kind(&self) -> Kind {
        self.request.kind
    }

    fn matches(&self, object: &Object) -> bool {
        let meta = object.metadata();
        (self.request.namespace.is_empty() || meta.namespace == self.request.namespace)
            && self.labels.matches(&meta.labels)
            && matches_fields(object, &self.fields)
    }

    fn line(&self, type_: &str, object: &Object, now: SimTime, store: &Store) -> String {
        let object = if self.request.table {
            let include = IncludeObject::parse(self.request.query.get("includeObject"));
            table::table(self.request.kind, std::slice::from_ref(object), now, store.resource_version(), include)
        } else {
            object.to_json_value()
        };
        json!({"type": type_, "object": object}).to_string()
    }

    /// An event's line: encoded once for every plain watch of the lab (a Table's cells hold
    /// ages, so a Table watch encodes its own).
    fn shared_line(
        &self,
        event: &WatchEvent,
        object: &Object,
        (now, store): (SimTime, &Store),
        shared: &mut EncodedEvents,
    ) -> String {
        if self.request.table {
            return self.line(event.type_.as_str(), object, now, store);
        }
        shared.line(event.resource_version, || self.line(event.type_.as_str(), object, now, store))
    }

    /// The lines to send now; the stream ends after an ERROR line.
    pub fn poll(&mut self, store: &Store, now: SimTime) -> (Vec<String>, bool) {
        self.poll_shared(store, now, &mut EncodedEvents::default())
    }

    /// As `poll`, with the lines other watches of the lab already encoded.
    pub fn poll_shared(&mut self, store: &Store, now: SimTime, shared: &mut EncodedEvents) -> (Vec<String>, bool) {
        let mut lines = Vec::new();
        if std::mem::take(&mut self.initial_pending) {
            let namespace = (!self.request.namespace.is_empty()).then_some(self.request.namespace.as_str());
            for object in store.list_objects(self.request.kind, namespace, &self.labels, &self.fields) {
                lines.push(self.line("ADDED", &object, now, store));
            }
            self.request.after = store.resource_version();
            if self.initial_bookmark {
                lines.push(self.bookmark(self.request.after, true));
            }
        }
        let events = match store.watch_log().since(self.request.after) {
            Ok(events) => events,
            Err(oldest) => {
                let message = format!("too old resource version: {} ({oldest})", self.request.after);
                let status = Status(ApiError::Gone { message }).to_json();
                lines.push(json!({"type": "ERROR", "object": status}).to_string());
                return (lines, true);
            }
        };
        let mut last = self.request.after;
        for event in events {
            last = event.resource_version;
            if event.kind != self.request.kind {
                continue;
            }
            let line = match store.snapshots().at(event.resource_version) {
                Some(object) if self.matches(object) => self.shared_line(event, object, (now, store), shared),
                Some(_) => continue,
                None => match state_after(store, event).filter(|object| self.matches(object)) {
                    Some(object) => self.line(event.type_.as_str(), &object, now, store),
                    None => continue,
                },
            };
            lines.push(line);
        }
        self.request.after = last.max(self.request.after);
        (lines, false)
    }

    /// Whether a poll now would send something: initial events, or a write after where it read
    /// to that it matches (a scripted lab lets time pass until one comes).
    pub fn has_news(&self, store: &Store) -> bool {
        if self.initial_pending {
            return true;
        }
        let Ok(events) = store.watch_log().since(self.request.after) else { return true };
        events
            .filter(|e| e.kind == self.request.kind)
            .any(|event| state_after(store, event).is_some_and(|o| self.matches(&o)))
    }

    /// A BOOKMARK: where the stream has read to, so a client can resume from there.
    pub fn bookmark(&self, resource_version: u64, initial_events_end: bool) -> String {
        let info = self.request.kind.info();
        let mut metadata = json!({"resourceVersion": resource_version.to_string()});
        if initial_events_end {
            metadata["annotations"] = json!({"k8s.io/initial-events-end": "true"});
        }
        let object: Value = json!({"kind": info.kind_name, "apiVersion": info.api_version(), "metadata": metadata});
        json!({"type": "BOOKMARK", "object": object}).to_string()
    }

    /// Whether the client asked for bookmarks.
    pub fn wants_bookmarks(&self) -> bool {
        self.request.query.flag("allowWatchBookmarks")
    }

    /// `timeoutSeconds`, if the client set one.
    pub fn timeout_seconds(&self) -> Option<u64> {
        self.request.query.get("timeoutSeconds").and_then(|t| t.parse().ok())
    }
}
