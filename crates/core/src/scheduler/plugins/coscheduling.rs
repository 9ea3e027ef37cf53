//! Coscheduling (kubernetes-sigs/scheduler-plugins, pkg/coscheduling): gang scheduling for pods
//! labelled `scheduling.x-k8s.io/pod-group`. PreFilter refuses a member while its PodGroup has
//! fewer pods than `minMember`; Permit makes each member wait (holding its node) until
//! `minMember` of them are placed, then lets them all bind at once. A wait that runs out
//! (`scheduleTimeoutSeconds`, 60 s by default) rejects the whole gang (`Unreserve`).
//! Inert until the `coscheduling` add-on makes PodGroups a kind the API serves.

use crate::api::pod_group::POD_GROUP_LABEL;
use crate::api::{Kind, Pod, PodGroup};
use crate::scheduler::framework::cache::Cache;
use crate::scheduler::framework::cycle_state::CycleState;
use crate::scheduler::framework::registry::{Permit, PermitPlugin, PreFilterPlugin};
use crate::scheduler::framework::status::Status;
use crate::scheduler::framework::waiting_pods::WaitingPods;
use crate::sim::time::Duration;
use crate::store::Store;

pub const NAME: &str = "Coscheduling";

/// The plugin's `permitWaitingTimeSeconds` default.
pub const DEFAULT_WAIT: Duration = Duration::from_secs(60);

pub const PRE_FILTER: PreFilterPlugin = PreFilterPlugin { name: NAME, pre_filter };
pub const PERMIT: PermitPlugin = PermitPlugin { name: NAME, permit };

/// The pod's gang, when it names one and PodGroups are served.
pub fn group_of<'a>(store: &Store, pod: &'a Pod) -> Option<&'a str> {
    let group = pod.metadata.labels.get(POD_GROUP_LABEL).filter(|g| !g.is_empty())?;
    store.serves(Kind::PodGroup).then_some(group)
}

/// Pods of the gang that exist (upstream lists them by label, whatever their state).
fn members(store: &Store, namespace: &str, group: &str) -> usize {
    store.list::<Pod>(Some(namespace)).filter(|p| p.metadata.labels.get(POD_GROUP_LABEL) == Some(group)).count()
}

fn min_member(group: &PodGroup) -> usize {
    group.spec.min_member.unwrap_or(1).max(0) as usize
}

/// Upstream `PodGroupManager.PreFilter`: too few siblings exist for the gang to ever be whole.
fn pre_filter(state: &mut CycleState<'_>, store: &Store, _: &Cache) {
    let pod = state.pod;
    let Some(name) = group_of(store, pod) else { return };
    let Some(group) = store.try_get::<PodGroup>(&pod.metadata.namespace, name) else { return };
    let (have, need) = (members(store, &pod.metadata.namespace, name), min_member(group));
    if have < need {
        let message = format!(
            "pre-filter pod {} cannot find enough sibling pods, current pods number: {have}, minMember of group: {need}",
            pod.metadata.name
        );
        state.pre_filter_rejection = Some(Status::unresolvable(NAME, message));
    }
}

/// Upstream `Coscheduling.Permit`: allowed once the members already placed (bound or waiting)
/// and this one reach `minMember`; otherwise wait.
fn permit(store: &Store, state: &CycleState<'_>, _: &str, waiting: &WaitingPods) -> Permit {
    let pod = state.pod;
    let Some(name) = group_of(store, pod) else { return Permit::Allow };
    let namespace = pod.metadata.namespace.as_str();
    let Some(group) = store.try_get::<PodGroup>(namespace, name) else {
        return Permit::Reject(Status::unschedulable(NAME, "PodGroup not found"));
    };
    let me = (namespace.to_string(), pod.metadata.name.clone());
    let bound = store
        .list::<Pod>(Some(namespace))
        .filter(|p| p.metadata.labels.get(POD_GROUP_LABEL) == Some(name))
        .filter(|p| p.node_name().is_some() && !matches!(p.phase(), "Succeeded" | "Failed"))
        .count();
    let waiting_now = waiting.in_group(namespace, name).filter(|k| **k != me).count();
    if bound + waiting_now + 1 >= min_member(group) {
        return Permit::Allow;
    }
    let wait =
        group.spec.schedule_timeout_seconds.filter(|s| *s > 0).map_or(DEFAULT_WAIT, |s| Duration::from_secs(s as u64));
    Permit::Wait(wait, NAME)
}
