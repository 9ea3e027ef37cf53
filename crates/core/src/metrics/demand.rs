//! What each pod is asked to do, by (namespace, name): its share of the request load (`lab
//! load`), and any usage a lesson or instructor set directly (`lab usage deploy/NAME --cpu 300m
//! --memory 200Mi`), which replaces the workload model's figure for the pod's first container.
//! metrics-server's numbers, and so `kubectl top` and the HPA, are computed from it when read.

use std::collections::BTreeMap;

/// Usage set directly for a target's pods; `None` leaves that resource to the workload model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SetUsage {
    pub cpu_millicores: Option<u64>,
    pub memory_bytes: Option<u64>,
}

impl SetUsage {
    pub fn is_empty(&self) -> bool {
        self.cpu_millicores.is_none() && self.memory_bytes.is_none()
    }
}

/// One pod's demand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Demand {
    pub requests_per_second: u64,
    pub set: SetUsage,
}

/// Every pod's demand, by (namespace, name).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PodDemands {
    pub requests: BTreeMap<(String, String), u64>,
    pub set: BTreeMap<(String, String), SetUsage>,
}

impl PodDemands {
    pub fn of(&self, namespace: &str, name: &str) -> Demand {
        let key = (namespace.to_string(), name.to_string());
        Demand {
            requests_per_second: self.requests.get(&key).copied().unwrap_or(0),
            set: self.set.get(&key).copied().unwrap_or_default(),
        }
    }
}
