//! The kubelet's event recorder (client-go's `record.EventRecorder` with the kubelet's source,
//! component `kubelet` and host NAME): Events posted in the order they happen, a repeat within
//! ten minutes counted on the first one (`(x3 over 75s)`), named `<object>.<hex nanoseconds>`
//! as the simulation names them.

use crate::client::ApiClient;
use crate::clock;
use kubelab_core::api::endpoint_slice::ObjectReference;
use kubelab_core::api::event::{Event, EventSource};
use kubelab_core::api::meta::Time;
use kubelab_core::api::{ObjectMeta, Pod};
use kubelab_core::sim::time::{Duration, SimTime};
use serde_json::json;
use std::collections::HashMap;
use tokio::sync::mpsc;

/// A repeat within this long raises the first Event's count (the simulation's window).
const AGGREGATION_WINDOW: Duration = Duration::from_secs(600);

/// `Normal` or `Warning`, as the simulation's recorder types them.
pub use kubelab_core::store::event_recorder::EventType;

/// The reference an Event names: the pod, or one of its containers (`spec.containers{web}`).
pub fn pod_reference(pod: &Pod, field_path: Option<String>) -> ObjectReference {
    ObjectReference {
        kind: Some("Pod".into()),
        namespace: Some(pod.metadata.namespace.clone()),
        name: Some(pod.metadata.name.clone()),
        uid: Some(pod.metadata.uid),
        api_version: Some("v1".into()),
        resource_version: Some(pod.metadata.resource_version.0.to_string()),
        field_path,
    }
}

/// One Event to record.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub involved: ObjectReference,
    pub type_: EventType,
    pub reason: String,
    pub message: String,
    pub at: SimTime,
}

/// Hands Events to the task that posts them, in order.
#[derive(Clone, Debug)]
pub struct Recorder {
    sender: mpsc::UnboundedSender<Record>,
}

impl Recorder {
    /// A recorder posting as node `host`'s kubelet through `client`.
    pub fn start(client: ApiClient, host: String) -> Recorder {
        let (sender, mut receiver) = mpsc::unbounded_channel::<Record>();
        tokio::spawn(async move {
            let mut poster = Poster { client, host, seen: HashMap::new(), last_nanos: 0 };
            while let Some(record) = receiver.recv().await {
                poster.post(record).await;
            }
        });
        Recorder { sender }
    }

    /// A recorder whose Events go to `sender` (tests read them there).
    pub fn to_channel(sender: mpsc::UnboundedSender<Record>) -> Recorder {
        Recorder { sender }
    }

    pub fn event(&self, involved: ObjectReference, type_: EventType, reason: &str, message: String) {
        let record = Record { involved, type_, reason: reason.to_string(), message, at: clock::now() };
        let _ = self.sender.send(record);
    }
}

type Key = (String, String, String, String, String);

struct Poster {
    client: ApiClient,
    host: String,
    /// The Event each repeat is counted on: its namespace, name, count and last time.
    seen: HashMap<Key, (String, String, i32, SimTime)>,
    last_nanos: u128,
}

impl Poster {
    async fn post(&mut self, record: Record) {
        let key = (
            record.involved.uid.map(|u| u.to_string()).unwrap_or_default(),
            record.involved.field_path.clone().unwrap_or_default(),
            record.type_.as_str().to_string(),
            record.reason.clone(),
            record.message.clone(),
        );
        if let Some((namespace, name, count, last)) = self.seen.get(&key).cloned()
            && record.at.since(last) <= AGGREGATION_WINDOW
        {
            let patch = json!({"count": count + 1, "lastTimestamp": Time(record.at)});
            let path = format!("/api/v1/namespaces/{namespace}/events/{name}");
            if self.client.merge_patch(&path, &patch).await.is_ok() {
                self.seen.insert(key, (namespace, name, count + 1, record.at));
                return;
            }
        }
        let nanos = (u128::from(record.at.unix_millis()) * 1_000_000).max(self.last_nanos + 1);
        self.last_nanos = nanos;
        let event = build(&record, &self.host, nanos);
        let namespace = event.metadata.namespace.clone();
        let name = event.metadata.name.clone();
        let body = kubelab_core::api::codec::to_json_value(&event);
        match self.client.post(&format!("/api/v1/namespaces/{namespace}/events"), &body).await {
            Ok(_) => {
                self.seen.insert(key, (namespace, name, 1, record.at));
            }
            Err(e) => eprintln!("kubelab-agent: event {} {name}: {e}", record.reason),
        }
    }
}

/// The Event as the simulation's recorder writes it.
pub fn build(record: &Record, host: &str, nanos: u128) -> Event {
    let namespace = record.involved.namespace.clone().unwrap_or_else(|| "default".into());
    let object = record.involved.name.clone().unwrap_or_default();
    Event {
        metadata: ObjectMeta::named(&namespace, &format!("{object}.{nanos:x}")),
        involved_object: record.involved.clone(),
        reason: Some(record.reason.clone()),
        message: Some(record.message.clone()),
        source: EventSource { component: Some("kubelet".into()), host: Some(host.to_string()) },
        first_timestamp: Some(Time(record.at)),
        last_timestamp: Some(Time(record.at)),
        count: Some(1),
        type_: Some(record.type_.as_str().to_string()),
        reporting_component: Some("kubelet".into()),
        reporting_instance: Some(host.to_string()),
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_carry_the_kubelets_source_and_the_containers_path() {
        let pod: Pod = serde_json::from_value(json!({"metadata": {"name": "web", "namespace": "shop", "uid": "00000000-0000-0000-0000-000000000007", "resourceVersion": "12"}})).unwrap();
        let record = Record {
            involved: pod_reference(&pod, Some("spec.containers{web}".into())),
            type_: EventType::Normal,
            reason: "Started".into(),
            message: "Container started".into(),
            at: SimTime(5_000),
        };
        let event = build(&record, "edge-1", 1_735_689_605_000_000_000);
        assert_eq!(event.metadata.name, format!("web.{:x}", 1_735_689_605_000_000_000u128));
        assert_eq!(event.metadata.namespace, "shop");
        let value = kubelab_core::api::codec::to_json_value(&event);
        assert_eq!(value["source"], json!({"component": "kubelet", "host": "edge-1"}));
        assert_eq!(value["involvedObject"]["fieldPath"], "spec.containers{web}");
        assert_eq!(value["involvedObject"]["resourceVersion"], "12");
        assert_eq!(value["firstTimestamp"], "2025-01-01T00:00:05Z");
        assert_eq!((value["kind"].as_str(), value["type"].as_str()), (Some("Event"), Some("Normal")));
    }
}
