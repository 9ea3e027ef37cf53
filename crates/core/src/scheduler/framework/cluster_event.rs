//! The changes to the cluster that can make an unschedulable pod schedulable (upstream
//! `ClusterEvent`), and what a filter plugin registers for (`EventsToRegister`).

/// Changes to the cluster that can make an unschedulable pod schedulable (upstream ClusterEvent).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClusterEvent {
    NodeAdd,
    NodeUpdate,
    AssignedPodAdd,
    AssignedPodUpdate,
    AssignedPodDelete,
    /// A ResourceClaim, ResourceSlice or DeviceClass was added or changed (DRA).
    DeviceChange,
    /// A PersistentVolumeClaim, PersistentVolume or StorageClass was added or changed.
    VolumeChange,
}

/// For a plugin whose rejection only a node's change can lift (`FilterPlugin::requeue_on`).
pub fn on_node_events(event: ClusterEvent) -> bool {
    matches!(event, ClusterEvent::NodeAdd | ClusterEvent::NodeUpdate)
}

/// For a plugin whose rejection any change in the cluster may lift.
pub fn on_any_event(_: ClusterEvent) -> bool {
    true
}
