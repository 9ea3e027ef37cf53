//! The kubelet's device manager, as a container's process sees it: the GPU memory the devices
//! allocated to each container give it. The allocation itself is the device plugin's (the GPU
//! Operator's, `gpu/operator.rs`), handed over here as upstream's `podDevices` checkpoint holds it.

use crate::workload::GpuMemory;
use std::collections::BTreeMap;

type PodKey = (String, String);

#[derive(Clone, Debug, Default)]
pub struct DeviceManager {
    pods: BTreeMap<PodKey, BTreeMap<String, GpuMemory>>,
}

impl DeviceManager {
    /// The pod's containers' GPU memory now; an empty list forgets the pod.
    pub fn set(&mut self, namespace: &str, pod: &str, containers: BTreeMap<String, GpuMemory>) {
        let key = (namespace.to_string(), pod.to_string());
        if containers.is_empty() {
            self.pods.remove(&key);
        } else {
            self.pods.insert(key, containers);
        }
    }

    pub fn gpu_of(&self, namespace: &str, pod: &str, container: &str) -> Option<GpuMemory> {
        self.pods.get(&(namespace.to_string(), pod.to_string()))?.get(container).copied()
    }
}
