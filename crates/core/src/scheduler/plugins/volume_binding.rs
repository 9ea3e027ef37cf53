//! VolumeBinding (pkg/scheduler/framework/plugins/volumebinding): a pod's claims must exist,
//! and a claim whose class binds at once must be bound before the pod is placed; a bound
//! claim's volume pinned to a node keeps the pod there; a claim whose class waits for its
//! first consumer is handed the chosen node (`volume.kubernetes.io/selected-node`), for its
//! provisioner to make the volume there. Upstream writes that at PreBind and waits for the
//! claim to be bound before binding the pod; here the pod binds at once and its kubelet waits
//! for the volume instead.

use crate::api::persistent_volume_claim::ANN_SELECTED_NODE;
use crate::api::{PersistentVolume, PersistentVolumeClaim, StorageClass};
use crate::scheduler::framework::cache::Cache;
use crate::scheduler::framework::cluster_event::ClusterEvent;
use crate::scheduler::framework::cycle_state::CycleState;
use crate::scheduler::framework::node_fit::NodeFit;
use crate::scheduler::framework::registry::{FilterPlugin, PreFilterPlugin, ReservePlugin};
use crate::scheduler::framework::status::Status;
use crate::scheduler::framework::types::NodeInfo;
use crate::store::Store;

pub const NAME: &str = "VolumeBinding";
pub const ERR_REASON_NODE_CONFLICT: &str = "node(s) had volume node affinity conflict";
pub const ERR_REASON_UNBOUND_IMMEDIATE: &str = "pod has unbound immediate PersistentVolumeClaims";

pub const PRE_FILTER: PreFilterPlugin = PreFilterPlugin { name: NAME, pre_filter };
pub const FILTER: FilterPlugin = FilterPlugin { name: NAME, filter, requeue_on };
pub const RESERVE: ReservePlugin = ReservePlugin { name: NAME, reserve, unreserve };

/// What PreFilter found: the nodes the pod's bound volumes are pinned to, and the claims
/// waiting for a node.
#[derive(Debug, Default)]
struct VolumeState {
    pinned: Vec<String>,
    delayed: Vec<String>,
}

/// Nodes, claims, volumes and classes changing may each let the pod in.
fn requeue_on(event: ClusterEvent) -> bool {
    matches!(event, ClusterEvent::NodeAdd | ClusterEvent::NodeUpdate | ClusterEvent::VolumeChange)
}

fn claim_names(pod: &crate::api::Pod) -> impl Iterator<Item = &str> {
    pod.spec.volumes.iter().filter_map(|v| v.persistent_volume_claim.as_ref()).map(|c| c.claim_name.as_str())
}

fn pre_filter(state: &mut CycleState<'_>, store: &Store, _cache: &Cache) {
    let pod = state.pod;
    if state.pre_filter_rejection.is_some() || claim_names(pod).next().is_none() {
        return;
    }
    match volume_state(store, pod) {
        Ok(found) => state.states.write(found),
        Err(message) => state.pre_filter_rejection = Some(Status::unresolvable(NAME, message)),
    }
}

/// `GetPodVolumeClaims`: every claim there and not going; the bound ones' volumes; the
/// unbound ones all of classes that wait.
fn volume_state(store: &Store, pod: &crate::api::Pod) -> Result<VolumeState, String> {
    let namespace = &pod.metadata.namespace;
    let mut found = VolumeState::default();
    let mut unbound_immediate = false;
    for name in claim_names(pod) {
        let Some(claim) = store.try_get::<PersistentVolumeClaim>(namespace, name) else {
            return Err(format!("persistentvolumeclaim \"{name}\" not found"));
        };
        if claim.metadata.deletion_timestamp.is_some() {
            return Err(format!("persistentvolumeclaim \"{name}\" is being deleted"));
        }
        match claim.spec.volume_name.as_deref().filter(|v| !v.is_empty()) {
            Some(volume) => {
                let Some(volume) = store.try_get::<PersistentVolume>("", volume) else {
                    return Err("pvc(s) bound to non-existent pv(s)".to_string());
                };
                found.pinned.extend(volume.pinned_node().map(str::to_string));
            }
            None => {
                let waits =
                    store.try_get::<StorageClass>("", claim.class()).is_some_and(|c| c.waits_for_first_consumer());
                if waits {
                    found.delayed.push(name.to_string());
                } else {
                    unbound_immediate = true;
                }
            }
        }
    }
    if unbound_immediate {
        return Err(ERR_REASON_UNBOUND_IMMEDIATE.to_string());
    }
    Ok(found)
}

fn filter(state: &CycleState<'_>, node: &NodeInfo, _: &NodeFit) -> Result<(), Status> {
    let Some(found) = state.states.read::<VolumeState>() else { return Ok(()) };
    if found.pinned.iter().any(|pinned| pinned != &*node.name) {
        return Err(Status::unresolvable(NAME, ERR_REASON_NODE_CONFLICT));
    }
    Ok(())
}

/// The chosen node, written on each claim that waited for it.
fn reserve(store: &mut Store, state: &CycleState<'_>, node: &str) -> Result<(), Status> {
    let Some(found) = state.states.read::<VolumeState>() else { return Ok(()) };
    let namespace = &state.pod.metadata.namespace;
    for name in &found.delayed {
        let Some(mut claim) = store.try_get::<PersistentVolumeClaim>(namespace, name).cloned() else { continue };
        if claim.metadata.annotations.get(ANN_SELECTED_NODE).is_none() {
            claim.metadata.annotations.insert(ANN_SELECTED_NODE, node);
            let _ = store.update(claim);
        }
    }
    Ok(())
}

fn unreserve(_store: &mut Store, _state: &CycleState<'_>, _node: &str) {}
