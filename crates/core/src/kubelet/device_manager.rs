//! The kubelet's device manager, as a container's process sees it: the GPU memory the devices
//! allocated to each container give it, and what other processes already hold on a GPU that
//! time-slicing shares (nothing isolates them: one pod's memory is gone for the next). The
//! allocation itself is the device plugin's (the GPU Operator's, `gpu/operator.rs`), handed
//! over here as upstream's `podDevices` checkpoint holds it.

use crate::workload::GpuMemory;
use std::collections::BTreeMap;

type PodKey = (String, String);
type ContainerKey = (String, String, String);

/// What one container was given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ContainerDevices {
    pub total_mib: u64,
    /// The physical GPUs (or MIG devices) behind its devices: processes on the same one share
    /// its memory.
    pub physical: Vec<String>,
}

#[derive(Clone, Debug, Default)]
pub struct DeviceManager {
    pods: BTreeMap<PodKey, BTreeMap<String, ContainerDevices>>,
    /// Per node, the time-sliced resources whose plugin refuses a request for more than one
    /// replica (`failRequestsGreaterThanOne`).
    one_replica_only: BTreeMap<String, Vec<String>>,
    /// GPU memory each running container's process holds, and on which physical devices.
    holds: BTreeMap<ContainerKey, (Vec<String>, u64)>,
}

impl DeviceManager {
    /// The pod's containers' devices now; an empty list forgets the pod and what it held.
    pub fn set(&mut self, namespace: &str, pod: &str, containers: BTreeMap<String, ContainerDevices>) {
        let key = (namespace.to_string(), pod.to_string());
        if containers.is_empty() {
            self.pods.remove(&key);
            self.holds.retain(|(ns, name, _), _| !(ns == namespace && name == pod));
        } else {
            self.pods.insert(key, containers);
        }
    }

    /// The node's plugin config now: which shared resources take one replica per request.
    pub fn set_one_replica_only(&mut self, node: &str, resources: Vec<String>) {
        if resources.is_empty() {
            self.one_replica_only.remove(node);
        } else {
            self.one_replica_only.insert(node.to_string(), resources);
        }
    }

    /// The device plugin's Allocate refusal for a container asking `count` of `resource` on
    /// `node` (k8s-device-plugin's words, behind the kubelet's gRPC error), if it refuses.
    pub fn allocate_refusal(&self, node: &str, resource: &str, count: i64) -> Option<String> {
        let strict = self.one_replica_only.get(node)?;
        (count > 1 && strict.iter().any(|r| r == resource)).then(|| {
            format!(
                "rpc error: code = Unknown desc = request for '{resource}: {count}' too large: maximum request size for shared resources is 1"
            )
        })
    }

    /// A container starts: the memory its devices give it, less what other processes on the
    /// same physical devices hold now.
    pub fn start(&mut self, namespace: &str, pod: &str, container: &str) -> Option<GpuMemory> {
        let me = (namespace.to_string(), pod.to_string(), container.to_string());
        self.holds.remove(&me);
        let devices = self.pods.get(&(me.0.clone(), me.1.clone()))?.get(container)?;
        let used_by_others_mib = self
            .holds
            .values()
            .filter(|(physical, _)| physical.iter().any(|p| devices.physical.contains(p)))
            .map(|(_, mib)| mib)
            .sum();
        Some(GpuMemory { total_mib: devices.total_mib, used_by_others_mib })
    }

    /// The container's process holds `mib` of GPU memory until it exits.
    pub fn hold(&mut self, namespace: &str, pod: &str, container: &str, mib: u64) {
        let Some(devices) = self.pods.get(&(namespace.to_string(), pod.to_string())).and_then(|p| p.get(container))
        else {
            return;
        };
        let key = (namespace.to_string(), pod.to_string(), container.to_string());
        if mib > 0 {
            self.holds.insert(key, (devices.physical.clone(), mib));
        }
    }

    /// The container's process is gone: its memory is free again.
    pub fn release(&mut self, namespace: &str, pod: &str, container: &str) {
        self.holds.remove(&(namespace.to_string(), pod.to_string(), container.to_string()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn given(physical: &str) -> BTreeMap<String, ContainerDevices> {
        let devices = ContainerDevices { total_mib: 15360, physical: vec![physical.to_string()] };
        BTreeMap::from([("main".to_string(), devices)])
    }

    #[test]
    fn sharers_of_one_gpu_see_each_others_memory_gone() {
        let mut manager = DeviceManager::default();
        manager.set("default", "a", given("GPU-1"));
        manager.set("default", "b", given("GPU-1"));
        manager.set("default", "c", given("GPU-2"));
        assert_eq!(manager.start("default", "a", "main").unwrap().used_by_others_mib, 0);
        manager.hold("default", "a", "main", 13824);
        assert_eq!(manager.start("default", "b", "main").unwrap().used_by_others_mib, 13824);
        assert_eq!(manager.start("default", "c", "main").unwrap().used_by_others_mib, 0);
        manager.release("default", "a", "main");
        assert_eq!(manager.start("default", "b", "main").unwrap().used_by_others_mib, 0);
        manager.hold("default", "a", "main", 100);
        manager.set("default", "a", BTreeMap::new());
        assert_eq!(manager.start("default", "b", "main").unwrap().used_by_others_mib, 0);
        assert_eq!(manager.start("default", "gone", "main"), None);
    }
}
