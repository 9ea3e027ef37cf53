//! The status an evicted pod ends with once its containers have stopped: Failed, reason
//! `Evicted` and the eviction message, with the DisruptionTarget condition (reason
//! `TerminationByKubelet`), which the kubelet sends only with the terminal phase. A pod whose
//! every container exited 0 on the SIGTERM ends Succeeded instead, without the reason (as
//! since 1.27: getPhase of a terminal pod wins over the eviction's Failed, and the reason goes
//! with that phase). Mirrors eviction_manager.go `evictPod`, kubelet_pods.go
//! `generateAPIPodStatus` and status_manager.go `mergePodStatus`.

use super::manager::Evicting;
use super::message::REASON;
use crate::api::meta::Time;
use crate::api::pod::{PodCondition, PodStatus};
use crate::sim::time::SimTime;

/// `status` (what the containers' ends make of the pod) as the eviction leaves it.
pub fn evicted(mut status: PodStatus, eviction: &Evicting, now: SimTime) -> PodStatus {
    if status.phase.as_deref() != Some("Succeeded") {
        status.phase = Some("Failed".into());
        status.reason = Some(REASON.into());
        status.message = Some(eviction.message.clone());
    }
    status.conditions.retain(|c| c.type_ != "DisruptionTarget");
    status.conditions.push(PodCondition {
        type_: "DisruptionTarget".into(),
        status: "True".into(),
        reason: Some("TerminationByKubelet".into()),
        message: Some(eviction.message.clone()),
        last_transition_time: Some(Time(now)),
        ..Default::default()
    });
    status
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::meta::Uid;

    fn eviction() -> Evicting {
        Evicting {
            uid: Uid::default(),
            message: "The node was low on resource: memory. ".into(),
            kill_at: SimTime(1000),
        }
    }

    #[test]
    fn failed_and_evicted_unless_every_container_exited_zero() {
        let running = PodStatus { phase: Some("Failed".into()), ..Default::default() };
        let failed = evicted(running, &eviction(), SimTime(1000));
        assert_eq!((failed.phase.as_deref(), failed.reason.as_deref()), (Some("Failed"), Some("Evicted")));
        assert_eq!(failed.message.as_deref(), Some("The node was low on resource: memory. "));
        let condition = failed.conditions.last().unwrap();
        assert_eq!(
            (condition.type_.as_str(), condition.reason.as_deref()),
            ("DisruptionTarget", Some("TerminationByKubelet"))
        );
        let clean = PodStatus { phase: Some("Succeeded".into()), ..Default::default() };
        let succeeded = evicted(clean, &eviction(), SimTime(1000));
        assert_eq!((succeeded.phase.as_deref(), succeeded.reason.as_deref()), (Some("Succeeded"), None));
        assert_eq!(succeeded.conditions.len(), 1);
    }
}
