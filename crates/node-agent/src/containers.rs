//! The containers this kubelet runs, by pod and container: the instance running now and the
//! one before it (what `kubectl logs --previous` reads), as the runtime's pod cache holds them
//! for the kubelet server (pkg/kubelet/container's `Pod` and `ContainerStatus` cache), with the
//! CPU time they used (the cgroups' `cpuacct.usage`, read by the summary API) and the lab's
//! refusal to start more once its CPU-seconds quota for real machines is spent.

use crate::runtime::RunningContainer;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// A container's instances.
#[derive(Clone, Default)]
pub struct Instances {
    pub current: Option<Arc<dyn RunningContainer>>,
    pub previous: Option<Arc<dyn RunningContainer>>,
}

type Key = (String, String, String);

impl Instances {
    /// CPU time of the instances it still holds.
    fn cpu_usage(&self) -> Duration {
        [&self.current, &self.previous].into_iter().flatten().map(|c| c.cpu_usage()).sum()
    }
}

#[derive(Default)]
struct Inner {
    by_key: BTreeMap<Key, Instances>,
    /// CPU time of instances no longer held (replaced twice over, or their pod gone): the
    /// node's cgroup counts them still.
    retired_cpu: Duration,
    /// Set while the lab's quota is spent: why a container may not start.
    refusal: Option<String>,
}

#[derive(Clone, Default)]
pub struct Containers {
    inner: Arc<Mutex<Inner>>,
}

/// One pod's CPU time, as the summary API's `PodStats` reports it.
#[derive(Clone, Debug, PartialEq)]
pub struct PodUsage {
    pub namespace: String,
    pub name: String,
    pub containers: Vec<(String, Duration)>,
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
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A new instance started: the one before it (if any) becomes the previous.
    pub fn started(&self, namespace: &str, pod: &str, container: &str, instance: Arc<dyn RunningContainer>) {
        let mut inner = self.lock();
        let entry = inner.by_key.entry(key(namespace, pod, container)).or_default();
        let dropped = entry.previous.take();
        if let Some(before) = entry.current.take() {
            entry.previous = Some(before);
        }
        entry.current = Some(instance);
        inner.retired_cpu += dropped.map(|c| c.cpu_usage()).unwrap_or_default();
    }

    pub fn get(&self, namespace: &str, pod: &str, container: &str) -> Option<Instances> {
        self.lock().by_key.get(&key(namespace, pod, container)).cloned()
    }

    /// Whether the pod has any container here (started at least once).
    pub fn has_pod(&self, namespace: &str, pod: &str) -> bool {
        self.lock().by_key.keys().any(|(ns, name, _)| ns == namespace && name == pod)
    }

    /// The pod is gone from this node.
    pub fn forget_pod(&self, namespace: &str, pod: &str) {
        let mut inner = self.lock();
        let mut retired = Duration::ZERO;
        inner.by_key.retain(|(ns, name, _), instances| {
            let keep = !(ns == namespace && name == pod);
            if !keep {
                retired += instances.cpu_usage();
            }
            keep
        });
        inner.retired_cpu += retired;
    }

    /// The CPU time every container run here has used (the node's `usageCoreNanoSeconds`).
    pub fn node_cpu_usage(&self) -> Duration {
        let inner = self.lock();
        inner.retired_cpu + inner.by_key.values().map(Instances::cpu_usage).sum::<Duration>()
    }

    /// Each pod's containers and the CPU time of the instances still held.
    pub fn pod_usage(&self) -> Vec<PodUsage> {
        let mut pods: Vec<PodUsage> = Vec::new();
        for ((namespace, name, container), instances) in &self.lock().by_key {
            if pods.last().is_none_or(|p| (&p.namespace, &p.name) != (namespace, name)) {
                pods.push(PodUsage { namespace: namespace.clone(), name: name.clone(), containers: Vec::new() });
            }
            if let Some(pod) = pods.last_mut() {
                pod.containers.push((container.clone(), instances.cpu_usage()));
            }
        }
        pods
    }

    /// Why no container may start now, while the lab's CPU-seconds quota is spent.
    pub fn refusal(&self) -> Option<String> {
        self.lock().refusal.clone()
    }

    /// The lab's quota is spent (`Some(why)`: every running container is killed, and none
    /// starts) or has room again (`None`).
    pub fn set_refusal(&self, refusal: Option<String>) {
        let running: Vec<Arc<dyn RunningContainer>> = {
            let mut inner = self.lock();
            inner.refusal = refusal.clone();
            inner.by_key.values().filter_map(|i| i.current.clone()).collect()
        };
        if refusal.is_some() {
            running.iter().for_each(|c| c.kill());
        }
    }
}
