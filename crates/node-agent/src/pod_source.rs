//! The pods bound to this node, as the kubelet hears of them (pkg/kubelet/config/apiserver.go,
//! a reflector over `spec.nodeName=NAME`, and the pod manager): list, then watch from the
//! list's resourceVersion; a watch that ends or expires (410 Gone) lists again. Each pod's
//! changes go to its worker; a pod gone from the API stops its worker.

use crate::client::{ApiClient, WatchEvent, decode};
use crate::pod_workers::{self, Kubelet, PodHandle};
use kubelab_core::api::Pod;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

/// How long to wait before listing again after a failure.
const RETRY: Duration = Duration::from_secs(2);

/// The workers, by pod UID.
#[derive(Default)]
pub struct PodManager {
    workers: HashMap<String, PodHandle>,
}

impl PodManager {
    /// The pod as the API has it now: to its worker, or a new worker.
    pub fn update(&mut self, kubelet: &Arc<Kubelet>, pod: Pod) {
        let uid = pod.metadata.uid.to_string();
        self.workers.retain(|_, handle| !handle.sender.is_closed());
        match self.workers.get(&uid) {
            Some(handle) => {
                let _ = handle.sender.send(Some(pod));
            }
            None => {
                self.workers.insert(uid, pod_workers::spawn(kubelet.clone(), pod));
            }
        }
    }

    /// The pod is gone from the API.
    pub fn remove(&mut self, uid: &str) {
        if let Some(handle) = self.workers.remove(uid) {
            let _ = handle.sender.send(None);
        }
    }

    /// After a relist: every pod not listed is gone.
    pub fn keep_only(&mut self, listed: &[String]) {
        let gone: Vec<String> = self.workers.keys().filter(|uid| !listed.contains(uid)).cloned().collect();
        for uid in gone {
            self.remove(&uid);
        }
    }
}

/// Lists and watches this node's pods until the task is aborted.
pub async fn run(client: ApiClient, kubelet: Arc<Kubelet>, node: String) {
    let mut manager = PodManager::default();
    let selector = format!("fieldSelector=spec.nodeName%3D{node}");
    loop {
        let version = match list(&client, &kubelet, &mut manager, &selector).await {
            Ok(version) => version,
            Err(e) => {
                eprintln!("kubelab-agent: listing this node's pods: {e}");
                tokio::time::sleep(RETRY).await;
                continue;
            }
        };
        watch(&client, &kubelet, &mut manager, &selector, version).await;
    }
}

/// One list: every listed pod to its worker; the list's resourceVersion.
async fn list(
    client: &ApiClient,
    kubelet: &Arc<Kubelet>,
    manager: &mut PodManager,
    selector: &str,
) -> Result<String, String> {
    let answer = client.get(&format!("/api/v1/pods?{selector}")).await.map_err(|e| e.to_string())?;
    let version = answer["metadata"]["resourceVersion"].as_str().unwrap_or("").to_string();
    let items = answer["items"].as_array().cloned().unwrap_or_default();
    let mut listed = Vec::new();
    for item in items {
        let pod: Pod = decode(item)?;
        listed.push(pod.metadata.uid.to_string());
        manager.update(kubelet, pod);
    }
    manager.keep_only(&listed);
    Ok(version)
}

/// Watches from `version` until the watch ends.
async fn watch(
    client: &ApiClient,
    kubelet: &Arc<Kubelet>,
    manager: &mut PodManager,
    selector: &str,
    mut version: String,
) {
    loop {
        let path = format!("/api/v1/pods?watch=true&allowWatchBookmarks=true&{selector}&resourceVersion={version}");
        let mut stream = match client.watch(&path).await {
            Ok(stream) => stream,
            Err(e) => {
                if !e.is_gone() {
                    eprintln!("kubelab-agent: watching this node's pods: {e}");
                    tokio::time::sleep(RETRY).await;
                }
                return;
            }
        };
        while let Some(event) = stream.next().await {
            match event {
                Ok(event) => {
                    if let Some(next) = apply(kubelet, manager, event) {
                        version = next;
                    }
                }
                // 410 Gone (or any error event): list again.
                Err(_) => return,
            }
        }
        // The server ended the watch (its timeout): resume from the last version seen.
        if version.is_empty() {
            return;
        }
    }
}

/// One event to the manager; the resourceVersion it brings.
fn apply(kubelet: &Arc<Kubelet>, manager: &mut PodManager, event: WatchEvent) -> Option<String> {
    let version = event.object["metadata"]["resourceVersion"].as_str().map(str::to_string);
    match event.type_.as_str() {
        "ADDED" | "MODIFIED" => match decode::<Pod>(event.object) {
            Ok(pod) => manager.update(kubelet, pod),
            Err(e) => eprintln!("kubelab-agent: a pod this agent cannot read: {e}"),
        },
        "DELETED" => {
            let uid = event.object["metadata"]["uid"].as_str().unwrap_or("");
            manager.remove(uid);
        }
        _ => {}
    }
    version.filter(|v| !v.is_empty())
}
