//! The `pods/binding` subresource: assigns a pending pod to a node (the scheduler's one write
//! that may change `spec.nodeName`). Mirrors pkg/registry/core/pod/storage BindingREST
//! (`assignPod`, `setPodNodeAndMetadata`).

use super::Store;
use super::watch::WatchEventType;
use crate::api::Pod;
use crate::api::meta::Time;
use crate::api::pod::PodCondition;
use crate::error::ApiError;

impl Store {
    /// Binds `namespace/pod_name` to `node_name`: sets `spec.nodeName` and the PodScheduled
    /// condition to True. Refused (409 Conflict on `pods/binding`) when the pod is already
    /// assigned or being deleted.
    pub fn bind(&mut self, namespace: &str, pod_name: &str, node_name: &str) -> Result<Pod, ApiError> {
        let conflict = |message: String| ApiError::Conflict {
            resource: "pods/binding".to_string(),
            name: pod_name.to_string(),
            message,
        };
        let current = self.get::<Pod>(namespace, pod_name)?;
        if current.metadata.deletion_timestamp.is_some() {
            return Err(conflict(format!("pod {pod_name} is being deleted, cannot be assigned to a host")));
        }
        if let Some(assigned) = current.node_name() {
            return Err(conflict(format!("pod {pod_name} is already assigned to node \"{assigned}\"")));
        }
        let mut pod = current.clone();
        pod.spec.node_name = Some(node_name.to_string());
        set_pod_scheduled_true(&mut pod, Time(self.now));
        self.commit(pod, WatchEventType::Modified)
    }
}

/// Upstream `UpdatePodCondition` for PodScheduled=True.
fn set_pod_scheduled_true(pod: &mut Pod, now: Time) {
    let conditions = &mut pod.status.conditions;
    match conditions.iter_mut().find(|c| c.type_ == "PodScheduled") {
        Some(c) => {
            if c.status != "True" {
                c.last_transition_time = Some(now);
            }
            c.status = "True".to_string();
            c.reason = None;
            c.message = None;
        }
        None => conditions.push(PodCondition {
            type_: "PodScheduled".to_string(),
            status: "True".to_string(),
            last_probe_time: None,
            last_transition_time: Some(now),
            reason: None,
            message: None,
        }),
    }
}

#[cfg(test)]
mod tests {
    use crate::api::container::Container;
    use crate::api::shared::Shared;
    use crate::api::{ObjectMeta, Pod};
    use crate::cluster::ClusterSpec;
    use crate::sim::Sim;
    use crate::store::DeleteOptions;

    fn pending(sim: &mut Sim, name: &str) {
        let mut pod = Pod { metadata: ObjectMeta::named("default", name), ..Default::default() };
        pod.spec.containers =
            Shared::new(vec![Container { name: "c".into(), image: Some("nginx".into()), ..Default::default() }]);
        // A scheduler nobody runs, so the pod stays pending whatever controllers exist.
        pod.spec.scheduler_name = Some("manual".into());
        sim.store_mut().create(pod).unwrap();
    }

    #[test]
    fn binding_sets_the_node_and_the_scheduled_condition() {
        let mut sim = Sim::new(1, &ClusterSpec::default());
        pending(&mut sim, "web");
        let pod = sim.store_mut().bind("default", "web", "node-2").unwrap();
        assert_eq!(pod.node_name(), Some("node-2"));
        let condition = pod.status.conditions.iter().find(|c| c.type_ == "PodScheduled").unwrap();
        assert_eq!(condition.status, "True");
    }

    #[test]
    fn binding_an_assigned_pod_is_a_conflict() {
        let mut sim = Sim::new(1, &ClusterSpec::default());
        pending(&mut sim, "web");
        sim.store_mut().bind("default", "web", "node-2").unwrap();
        let err = sim.store_mut().bind("default", "web", "node-1").unwrap_err();
        assert_eq!(
            err.to_string(),
            "Error from server (Conflict): Operation cannot be fulfilled on pods/binding \"web\": pod web is already assigned to node \"node-2\""
        );
        sim.store_mut().delete::<Pod>("default", "web", &DeleteOptions::default()).unwrap();
        let err = sim.store_mut().bind("default", "web", "node-1").unwrap_err();
        assert!(err.to_string().contains("pod web is being deleted, cannot be assigned to a host"), "{err}");
    }
}
