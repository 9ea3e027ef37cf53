//! Dynamic Resource Allocation (resource.k8s.io/v1, k8s.io/dynamic-resource-allocation): the
//! devices ResourceSlices offer a node, the CEL environment their selectors run in, the
//! structured allocator the scheduler's DynamicResources plugin calls, and which claims a pod
//! uses. The API kinds are in `api/`, the plugin in `scheduler/plugins/`, the claim controller
//! in `controllers/`, NVIDIA's driver in `gpu/`.

pub mod allocator;
pub mod device_set;
pub mod pod_claims;
pub mod selector;

#[cfg(test)]
mod tests;
