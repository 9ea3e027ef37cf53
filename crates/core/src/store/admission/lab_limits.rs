//! `LabLimits` (kubelab's own, last in the chain, as ResourceQuota is upstream): a workload
//! may not ask for more replicas than the lab allows (`store/lab_limits.rs`), however the
//! request came — `create`, `scale`, `apply`, `patch`, or an autoscaler's `maxReplicas` — and
//! no object is created past the lab's room for objects and nodes (a controller's create is
//! refused too, and it reports FailedCreate as it would for a quota).

use super::{Operation, Plugin, Request};
use crate::api::{Event, Node, ObjectMut};
use crate::error::ApiError;
use crate::store::Store;

pub const PLUGIN: Plugin = Plugin { name: "LabLimits", admit: None, validate: Some(validate) };

fn validate(store: &Store, request: &Request<'_>, object: &ObjectMut<'_>) -> Result<(), ApiError> {
    let forbidden = |reason: String| {
        let info = request.kind.info();
        ApiError::Forbidden {
            message: format!("{} {:?} is forbidden: {reason}", info.plural_qualified(), request.name),
        }
    };
    if request.operation == Operation::Create && !matches!(object, ObjectMut::Event(_)) {
        let objects = store.tables().len() - store.count::<Event>();
        let node = matches!(object, ObjectMut::Node(_));
        store.limits().check_room(objects, store.count::<Node>(), node).map_err(forbidden)?;
    }
    let asked = match object {
        ObjectMut::Deployment(d) => d.spec.replicas.map(|n| ("replicas", n)),
        ObjectMut::ReplicaSet(rs) => rs.spec.replicas.map(|n| ("replicas", n)),
        ObjectMut::HorizontalPodAutoscaler(hpa) => Some(("maxReplicas", hpa.spec.max_replicas)),
        _ => None,
    };
    let Some((field, replicas)) = asked else { return Ok(()) };
    store.limits().check_replicas(field, replicas).map_err(forbidden)
}

#[cfg(test)]
mod tests {
    use crate::kubectl::fixture::run;
    use crate::sim::Sim;
    use crate::store::lab_limits::LabLimits;

    #[test]
    fn a_command_past_the_work_budget_stops_and_says_so_the_same_every_time() {
        let outcome = || {
            let mut sim = Sim::default();
            sim.set_limits(LabLimits { max_work_units: 20_000, ..LabLimits::default() });
            run(&mut sim, "kubectl create deployment c --image=crashy --replicas=30");
            let slept = run(&mut sim, "sleep 24h");
            (slept, sim.now(), run(&mut sim, "kubectl get deployment c --no-headers"))
        };
        let (slept, stopped_at, after) = outcome();
        assert!(slept.contains("did more than 20000 units of work, this lab's limit"), "{slept}");
        assert!(stopped_at < crate::sim::time::SimTime::ZERO.plus(crate::sim::time::Duration::from_secs(24 * 3600)));
        assert!(after.starts_with("c "), "the lab is still usable: {after}");
        assert_eq!(outcome(), (slept, stopped_at, after), "a count, not a clock: every replay stops at the same unit");
    }

    #[test]
    fn a_lab_out_of_room_refuses_objects_and_nodes_and_says_why() {
        let mut sim = Sim::default();
        let base = sim.store().tables().len() - sim.store().count::<crate::api::Event>();
        let nodes = sim.store().count::<crate::api::Node>();
        sim.set_limits(LabLimits { max_objects: base + 4, max_nodes: nodes, ..LabLimits::default() });
        // A Deployment and its ReplicaSet fit, then two of its five pods; the rest are refused
        // as a quota refuses them, and the controller says so.
        run(&mut sim, "kubectl create deployment web --image=nginx --replicas=5");
        let out = run(&mut sim, "kubectl get pods --no-headers");
        assert_eq!(out.lines().count(), 2, "{out}");
        let events = run(&mut sim, "kubectl get events --field-selector reason=FailedCreate -o name");
        assert!(!events.is_empty(), "no FailedCreate event");
        let refused = run(&mut sim, "kubectl create configmap c");
        assert!(
            refused.contains(&format!("configmaps \"c\" is forbidden: this lab holds {} objects, its limit", base + 4)),
            "{refused}"
        );
        let node = run(&mut sim, "lab node add node-9");
        assert!(node.contains(&format!("this lab has {nodes} nodes, its limit")), "{node}");
    }
}
