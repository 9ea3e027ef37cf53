//! Randomness by purpose, end to end: what the control plane creates for itself never renames
//! what a learner creates.

use super::Sim;
use crate::api::{ConfigMap, Lease, ObjectMeta, Pod};
use crate::kubectl::files::MemoryFiles;
use crate::script;

fn pod_names(sim: &mut Sim) -> Vec<String> {
    let steps =
        script::parse("kubectl create deployment hello --image=hello:v1 --replicas=3\nkubectl get pods").unwrap();
    script::run(sim, &steps, &MemoryFiles::new(), false);
    let mut names: Vec<String> = sim.store().list::<Pod>(Some("default")).map(|p| p.metadata.name.clone()).collect();
    names.sort();
    names
}

#[test]
fn system_objects_created_first_leave_a_learners_pod_names_alone() {
    let plain = pod_names(&mut Sim::default());
    let mut busy = Sim::default();
    let store = busy.store_mut();
    store.create(Lease { metadata: ObjectMeta::named("kube-system", "kube-scheduler"), ..Default::default() }).unwrap();
    let generated = ObjectMeta { generate_name: "kube-root-ca-".into(), ..ObjectMeta::named("kube-system", "") };
    store.create(ConfigMap { metadata: generated, ..Default::default() }).unwrap();
    assert_eq!(pod_names(&mut busy), plain);
}

#[test]
fn another_seed_gives_other_names() {
    assert_ne!(pod_names(&mut Sim::default()), pod_names(&mut Sim::new(2, &crate::cluster::ClusterSpec::default())));
}
