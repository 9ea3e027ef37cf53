//! Rollouts driven with a stand-in kubelet that makes every pod Ready at once, so the
//! controller's arithmetic shows on its own: sizes of each ReplicaSet, step by step.
//! The lab has no nodes, so neither the scheduler nor the real kubelet touches the pods.

use crate::api::meta::Time;
use crate::api::pod::PodCondition;
use crate::api::{Deployment, Event, Pod, ReplicaSet};
use crate::cluster::ClusterSpec;
use crate::sim::Sim;
use crate::store::Store;

const HELLO: &str = r#"{"metadata":{"name":"hello"},"spec":{"replicas":3,
  "strategy":{"rollingUpdate":{"maxSurge":1,"maxUnavailable":0}},
  "selector":{"matchLabels":{"app":"hello"}},
  "template":{"metadata":{"labels":{"app":"hello"}},"spec":{"containers":[{"name":"hello","image":"hello:v1"}]}}}}"#;

fn lab() -> Sim {
    let mut sim = Sim::new(3, &ClusterSpec::workers_only(Vec::new()));
    sim.store_mut().create(serde_json::from_str::<Deployment>(HELLO).unwrap()).unwrap();
    sim.settle();
    sim
}

/// Marks every pending pod Running and Ready, returning how many it touched.
fn make_ready(store: &mut Store) -> usize {
    let now = Time(store.now());
    let pending: Vec<Pod> =
        store.list::<Pod>(None).filter(|p| !p.is_ready() && p.metadata.deletion_timestamp.is_none()).cloned().collect();
    for mut pod in pending.clone() {
        pod.status.phase = Some("Running".into());
        pod.status.conditions = vec![PodCondition {
            type_: "Ready".into(),
            status: "True".into(),
            last_transition_time: Some(now),
            ..Default::default()
        }];
        store.update_status(pod).unwrap();
    }
    pending.len()
}

/// `name=spec/ready` for each ReplicaSet, oldest first.
fn sizes(sim: &Sim) -> String {
    let mut rs: Vec<&ReplicaSet> = sim.store().list::<ReplicaSet>(Some("default")).collect();
    rs.sort_by_key(|r| r.metadata.annotations.get("deployment.kubernetes.io/revision").map(str::to_string));
    rs.iter()
        .map(|r| {
            format!(
                "{}={}/{}",
                r.metadata.annotations.get("deployment.kubernetes.io/revision").unwrap_or("?"),
                r.spec.replicas.unwrap_or(0),
                r.status.ready_replicas.unwrap_or(0)
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn step(sim: &mut Sim) -> String {
    make_ready(sim.store_mut());
    sim.settle();
    sizes(sim)
}

fn set_image(sim: &mut Sim, image: &str) {
    let mut d = sim.store().get::<Deployment>("default", "hello").unwrap().clone();
    let mut containers = (*d.spec.template.spec.containers).clone();
    containers[0].image = Some(image.into());
    d.spec.template.spec.containers = crate::api::shared::Shared::new(containers);
    sim.store_mut().update(d).unwrap();
    sim.settle();
}

#[test]
fn creates_one_replica_set_named_by_template_hash() {
    let mut sim = lab();
    let rs: Vec<&ReplicaSet> = sim.store().list::<ReplicaSet>(Some("default")).collect();
    assert_eq!(rs.len(), 1);
    let name = rs[0].metadata.name.clone();
    assert!(name.starts_with("hello-") && rs[0].spec.template.metadata.labels.get("pod-template-hash").is_some());
    assert_eq!(step(&mut sim), "1=3/3");
    let d = sim.store().get::<Deployment>("default", "hello").unwrap();
    assert_eq!(
        (d.status.replicas, d.status.available_replicas, d.status.updated_replicas),
        (Some(3), Some(3), Some(3))
    );
    let progressing = d.status.conditions.iter().find(|c| c.type_ == "Progressing").unwrap();
    assert_eq!(progressing.reason.as_deref(), Some("NewReplicaSetAvailable"));
    let events: Vec<String> = sim.store().list::<Event>(Some("default")).filter_map(|e| e.message.clone()).collect();
    assert!(events.contains(&format!("Scaled up replica set {name} from 0 to 3")), "{events:?}");
}

#[test]
fn rolling_update_with_max_surge_one_never_drops_below_three_ready() {
    let mut sim = lab();
    step(&mut sim);
    set_image(&mut sim, "hello:v2");
    // Each line: after one round of "new pods become ready".
    assert_eq!(sizes(&sim), "1=3/3 2=1/0");
    assert_eq!(step(&mut sim), "1=2/2 2=2/1");
    assert_eq!(step(&mut sim), "1=1/1 2=3/2");
    assert_eq!(step(&mut sim), "1=0/0 2=3/3");
    let d = sim.store().get::<Deployment>("default", "hello").unwrap();
    assert_eq!(d.metadata.annotations.get("deployment.kubernetes.io/revision"), Some("2"));
}

#[test]
fn scaling_mid_rollout_is_proportional() {
    let mut sim = lab();
    step(&mut sim);
    let mut d = sim.store().get::<Deployment>("default", "hello").unwrap().clone();
    d.spec.replicas = Some(10);
    d.spec.strategy.as_mut().unwrap().rolling_update.as_mut().unwrap().max_surge =
        Some(crate::api::intstr::IntOrString::Int(3));
    sim.store_mut().update(d).unwrap();
    sim.settle();
    step(&mut sim);
    set_image(&mut sim, "hello:v2");
    assert_eq!(sizes(&sim), "1=10/10 2=3/0");
    let mut d = sim.store().get::<Deployment>("default", "hello").unwrap().clone();
    d.spec.replicas = Some(20);
    sim.store_mut().update(d).unwrap();
    sim.settle();
    // 13 of 13 allowed grow to 23: 10→ round(10·23/13)=18, 3→ round(3·23/13)=5.
    assert_eq!(sizes(&sim), "1=18/10 2=5/0");
}
