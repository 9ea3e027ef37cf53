//! The containers this kubelet runs, by pod and container: the instance running now and the
//! one before it (what `kubectl logs --previous` reads), as the runtime's pod cache holds them
//! for the kubelet server (pkg/kubelet/container's `Pod` and `ContainerStatus` cache).

use crate::runtime::RunningContainer;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// A container's instances.
#[derive(Clone, Default)]
pub struct Instances {
    pub current: Option<Arc<dyn RunningContainer>>,
    pub previous: Option<Arc<dyn RunningContainer>>,
}

type Key = (String, String, String);

#[derive(Clone, Default)]
pub struct Containers {
    inner: Arc<Mutex<BTreeMap<Key, Instances>>>,
}

impl std::fmt::Debug for Containers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Containers").finish_non_exhaustive()
    }
}

fn key(namespace: &str, pod: &str, container: &str) -> Key {
    (namespace.to_string(), pod.to_string(), container.to_string())
}

impl Containers {
    /// A new instance started: the one before it (if any) becomes the previous.
    pub fn started(&self, namespace: &str, pod: &str, container: &str, instance: Arc<dyn RunningContainer>) {
        let mut map = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let entry = map.entry(key(namespace, pod, container)).or_default();
        if let Some(before) = entry.current.take() {
            entry.previous = Some(before);
        }
        entry.current = Some(instance);
    }

    pub fn get(&self, namespace: &str, pod: &str, container: &str) -> Option<Instances> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner()).get(&key(namespace, pod, container)).cloned()
    }

    /// Whether the pod has any container here (started at least once).
    pub fn has_pod(&self, namespace: &str, pod: &str) -> bool {
        let map = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        map.keys().any(|(ns, name, _)| ns == namespace && name == pod)
    }

    /// The pod is gone from this node.
    pub fn forget_pod(&self, namespace: &str, pod: &str) {
        let mut map = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        map.retain(|(ns, name, _), _| !(ns == namespace && name == pod));
    }
}
