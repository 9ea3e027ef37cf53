//! The reconcile loop made visible: what one step (a command, a stretch of clock time) set in
//! motion, read from the watch log since the step began: who wrote (each write's user, as the
//! component it is), the loops that acted (each Event's source and reason, counted, in the
//! order they first acted), and the writes per kind.

use crate::api::Kind;
use crate::api::event::Event;
use crate::sim::Sim;
use crate::store::watch::WatchEventType;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StepActivity {
    pub script: String,
    /// `(component, writes)` in the order each first wrote: `deployment-controller`,
    /// `default-scheduler`, `kubelet` (every node's), `kubernetes-admin` (the learner).
    pub writers: Vec<(String, usize)>,
    /// `(component, reason, count)` in the order the loops first acted.
    pub actors: Vec<(String, String, usize)>,
    /// `(kind, added, modified, deleted)` in the order each kind was first written.
    pub writes: Vec<(&'static str, [usize; 3])>,
    /// The watch log no longer reaches back to the step's start (a very long stretch).
    pub truncated: bool,
}

/// What happened in the lab since `resource_version_before` (where the step `script` began).
pub fn activity(sim: &Sim, resource_version_before: u64, script: &str) -> StepActivity {
    let store = sim.store();
    let mut step = StepActivity { script: script.lines().next().unwrap_or_default().to_string(), ..Default::default() };
    let Ok(writes) = store.watch_log().since(resource_version_before) else {
        step.truncated = true;
        return step;
    };
    for write in writes {
        count(&mut step.writers, write.user.event_source().0);
        count_write(&mut step.writes, write.kind.info().kind_name, write.type_);
        if write.kind == Kind::Event
            && write.type_ != WatchEventType::Deleted
            && let Some(event) = store.try_get::<Event>(&write.namespace, &write.name)
        {
            count_actor(&mut step.actors, event);
        }
    }
    step
}

fn count(writers: &mut Vec<(String, usize)>, component: &str) {
    match writers.iter_mut().find(|(c, _)| c == component) {
        Some((_, n)) => *n += 1,
        None => writers.push((component.to_string(), 1)),
    }
}

fn count_write(writes: &mut Vec<(&'static str, [usize; 3])>, kind: &'static str, type_: WatchEventType) {
    let slot = match type_ {
        WatchEventType::Added => 0,
        WatchEventType::Modified => 1,
        WatchEventType::Deleted => 2,
    };
    match writes.iter_mut().find(|(k, _)| *k == kind) {
        Some((_, counts)) => counts[slot] += 1,
        None => {
            let mut counts = [0; 3];
            counts[slot] = 1;
            writes.push((kind, counts));
        }
    }
}

fn count_actor(actors: &mut Vec<(String, String, usize)>, event: &Event) {
    let component = event.source.component.clone().or_else(|| event.reporting_component.clone()).unwrap_or_default();
    let reason = event.reason.clone().unwrap_or_default();
    match actors.iter_mut().find(|(c, r, _)| *c == component && *r == reason) {
        Some((_, _, count)) => *count += 1,
        None => actors.push((component, reason, 1)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kubectl::fixture::run;

    #[test]
    fn a_deployment_sets_each_loop_in_motion_in_turn() {
        let mut sim = Sim::default();
        let before = sim.store().resource_version();
        let line = "kubectl create deployment web --image=hello:v1 --replicas=2";
        run(&mut sim, line);
        let step = activity(&sim, before, line);
        let writers: Vec<&str> = step.writers.iter().map(|(w, _)| w.as_str()).collect();
        assert_eq!(
            writers[..4],
            ["kubernetes-admin", "deployment-controller", "replicaset-controller", "default-scheduler"]
        );
        let actors: Vec<(&str, &str)> = step.actors.iter().map(|(c, r, _)| (c.as_str(), r.as_str())).collect();
        assert_eq!(actors[0], ("deployment-controller", "ScalingReplicaSet"), "{actors:?}");
        assert!(actors.contains(&("replicaset-controller", "SuccessfulCreate")), "{actors:?}");
        assert!(actors.contains(&("default-scheduler", "Scheduled")), "{actors:?}");
        assert_eq!((step.writes[0].0, step.writes[0].1[0]), ("Deployment", 1), "{:?}", step.writes);
        let before = sim.store().resource_version();
        run(&mut sim, "sleep 1m");
        let later = activity(&sim, before, "sleep 1m");
        assert!(later.actors.iter().any(|(c, r, n)| c == "kubelet" && r == "Started" && *n == 2), "{:?}", later.actors);
    }
}
