//! The default profile's plugins, one file each, named as upstream names them
//! (pkg/scheduler/framework/plugins).

pub mod balanced_allocation;
pub mod coscheduling;
pub mod default_binder;
pub mod default_preemption;
pub mod dynamic_resources;
pub mod helper;
pub mod image_locality;
pub mod inter_pod_affinity;
pub mod node_affinity;
pub mod node_name;
pub mod node_resources_fit;
pub mod node_unschedulable;
pub mod pod_topology_spread;
pub mod resource_allocation;
pub mod taint_toleration;
pub mod volume_binding;

use crate::scheduler::framework::registry::Profile;

/// The default profile (`default-scheduler`): upstream's default plugin set in its order, with
/// its weights (`apis/config/v1/default_plugins.go`), and scheduler-plugins' Coscheduling, which
/// does nothing until the `coscheduling` add-on is installed (as when that add-on's scheduler
/// replaces the default one). Plugins without state to reserve are in no Reserve list;
/// DynamicResources reserves devices.
pub const DEFAULT_PROFILE: Profile = Profile {
    scheduler_name: crate::scheduler::DEFAULT_SCHEDULER_NAME,
    pre_filter: &[
        node_affinity::PRE_FILTER,
        volume_binding::PRE_FILTER,
        pod_topology_spread::PRE_FILTER,
        inter_pod_affinity::PRE_FILTER,
        coscheduling::PRE_FILTER,
        dynamic_resources::PRE_FILTER,
    ],
    filter: &[
        node_unschedulable::FILTER,
        node_name::FILTER,
        taint_toleration::FILTER,
        node_affinity::FILTER,
        node_resources_fit::FILTER,
        volume_binding::FILTER,
        pod_topology_spread::FILTER,
        inter_pod_affinity::FILTER,
        dynamic_resources::FILTER,
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
    reserve: &[volume_binding::RESERVE, dynamic_resources::RESERVE],
    permit: &[coscheduling::PERMIT],
    bind: &[default_binder::BIND],
};

#[cfg(test)]
mod tests {
    use super::{DEFAULT_PROFILE, taint_toleration};
    use crate::scheduler::framework::cluster_event::ClusterEvent;
    use crate::scheduler::framework::scheduling_queue::SchedulingQueue;
    use crate::sim::time::SimTime;

    #[test]
    fn the_default_profile_is_upstreams_with_its_weights() {
        let pre_filters: Vec<&str> = DEFAULT_PROFILE.pre_filter.iter().map(|p| p.name).collect();
        assert_eq!(
            pre_filters,
            [
                "NodeAffinity",
                "VolumeBinding",
                "PodTopologySpread",
                "InterPodAffinity",
                "Coscheduling",
                "DynamicResources"
            ]
        );
        let filters: Vec<&str> = DEFAULT_PROFILE.filter.iter().map(|p| p.name).collect();
        assert_eq!(
            filters,
            [
                "NodeUnschedulable",
                "NodeName",
                "TaintToleration",
                "NodeAffinity",
                "NodeResourcesFit",
                "VolumeBinding",
                "PodTopologySpread",
                "InterPodAffinity",
                "DynamicResources"
            ]
        );
        let scores: Vec<(&str, i64)> = DEFAULT_PROFILE.score_weights().collect();
        assert_eq!(
            scores,
            [
                ("TaintToleration", 3),
                ("NodeAffinity", 2),
                ("NodeResourcesFit", 1),
                ("PodTopologySpread", 2),
                ("InterPodAffinity", 2),
                ("NodeResourcesBalancedAllocation", 1),
                ("ImageLocality", 1)
            ]
        );
        assert_eq!(DEFAULT_PROFILE.post_filter, ["DefaultPreemption"]);
        assert_eq!(DEFAULT_PROFILE.bind.iter().map(|p| p.name).collect::<Vec<_>>(), ["DefaultBinder"]);
    }

    #[test]
    fn unschedulable_pods_move_only_for_events_their_rejectors_care_about() {
        let mut q = SchedulingQueue::default();
        let key = ("default".to_string(), "p".to_string());
        q.add_or_update(key.clone(), 0, 0, SimTime::ZERO);
        q.pop();
        q.failed(&key, vec![taint_toleration::NAME], SimTime::ZERO);
        q.move_all_on_event(ClusterEvent::AssignedPodDelete, SimTime(5000), &DEFAULT_PROFILE);
        assert!(!q.has_active());
        q.move_all_on_event(ClusterEvent::NodeUpdate, SimTime(5000), &DEFAULT_PROFILE);
        assert_eq!(q.pop(), Some(key));
    }
}
