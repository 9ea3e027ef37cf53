//! The default profile's plugins, one file each, named as upstream names them
//! (pkg/scheduler/framework/plugins).

pub mod balanced_allocation;
pub mod default_binder;
pub mod default_preemption;
pub mod image_locality;
pub mod inter_pod_affinity;
pub mod node_affinity;
pub mod node_name;
pub mod node_resources_fit;
pub mod node_unschedulable;
pub mod pod_topology_spread;
pub mod taint_toleration;

use crate::scheduler::framework::registry::Profile;

/// The default profile (`default-scheduler`): upstream's default plugin set in its order, with
/// its weights (`apis/config/v1/default_plugins.go`). Plugins without state to reserve or a
/// reason to wait are in no Reserve or Permit list; GPU allocation and gang scheduling add theirs.
pub const DEFAULT_PROFILE: Profile = Profile {
    scheduler_name: crate::scheduler::DEFAULT_SCHEDULER_NAME,
    filter: &[
        node_unschedulable::FILTER,
        node_name::FILTER,
        taint_toleration::FILTER,
        node_affinity::FILTER,
        node_resources_fit::FILTER,
        pod_topology_spread::FILTER,
        inter_pod_affinity::FILTER,
    ],
    post_filter: &[default_preemption::NAME],
    pre_score: &[node_affinity::PRE_SCORE, pod_topology_spread::PRE_SCORE, inter_pod_affinity::PRE_SCORE],
    score: [
        taint_toleration::SCORE,
        node_affinity::SCORE,
        node_resources_fit::SCORE,
        pod_topology_spread::SCORE,
        inter_pod_affinity::SCORE,
        balanced_allocation::SCORE,
        image_locality::SCORE,
    ],
    reserve: &[],
    permit: &[],
    bind: &[default_binder::BIND],
};
