//! Scheduler benchmark: 150,000 pending pods (100m / 128Mi) onto 5,000 nodes (4 CPU / 16Gi /
//! 110 pods, three zones). Run: `cargo bench -p kubelab-core --bench scheduler`.
//! Prints pods bound per second; asserts only that every pod was bound.

use kubelab_core::api::container::Container;
use kubelab_core::api::quantity::Quantity;
use kubelab_core::api::shared::Shared;
use kubelab_core::api::{ObjectMeta, Pod};
use kubelab_core::cluster::{NodeTemplate, node_from_template};
use kubelab_core::scheduler::Scheduler;
use kubelab_core::sim::time::SimTime;
use kubelab_core::store::Store;
use std::time::Instant;

const NODES: usize = 5_000;
const PODS: usize = 150_000;
const ZONES: [&str; 3] = ["zone-a", "zone-b", "zone-c"];

fn template_pod() -> Pod {
    let mut container = Container { name: "app".into(), image: Some("app:v1".into()), ..Default::default() };
    container.resources.requests.insert("cpu".into(), Quantity::parse("100m").unwrap());
    container.resources.requests.insert("memory".into(), Quantity::parse("128Mi").unwrap());
    let mut meta = ObjectMeta::named("default", "");
    meta.generate_name = "app-".into();
    meta.labels.insert("app", "bench");
    let mut pod = Pod { metadata: meta, ..Default::default() };
    pod.spec.containers = Shared::new(vec![container]);
    kubelab_core::store::defaults::pod_spec(&mut pod.spec);
    pod
}

fn main() {
    let mut store = Store::new(1);
    // The scheduler's own cost: the trace is the simulation's record of every write.
    store.stop_trace();
    for i in 0..NODES {
        let mut template = NodeTemplate::named(&format!("node-{i:05}"));
        template.labels.insert("topology.kubernetes.io/zone", ZONES[i % ZONES.len()]);
        store.create(node_from_template(&template, i, SimTime::ZERO)).expect("valid node");
    }
    let pod = template_pod();
    for _ in 0..PODS {
        store.create(pod.clone()).expect("valid pod");
    }
    let mut scheduler = Scheduler::default();
    let started = Instant::now();
    scheduler.sync(&mut store);
    let secs = started.elapsed().as_secs_f64();
    let bound = store.list::<Pod>(Some("default")).filter(|p| p.node_name().is_some()).count();
    assert_eq!(bound, PODS, "every pod is bound");
    let binding_secs = binding_alone(&pod);
    println!("scheduler benchmark ({PODS} pods onto {NODES} nodes)");
    println!(
        "  scheduled:        {:>10.0} pods/s    ({bound} in {secs:.2}s, binding and events included)",
        bound as f64 / secs
    );
    println!(
        "  of which writes:  {:>10.0} pods/s    (bind + Scheduled event alone, same store size)",
        PODS as f64 / binding_secs
    );
}

/// The store's share: binding and recording `Scheduled` with no scheduling decisions.
fn binding_alone(pod: &Pod) -> f64 {
    use kubelab_core::store::event_recorder::{EventType, object_reference};
    let mut store = Store::new(2);
    store.stop_trace();
    let node = NodeTemplate::named("node-00000");
    store.create(node_from_template(&node, 0, SimTime::ZERO)).expect("valid node");
    let names: Vec<String> = (0..PODS).map(|_| store.create(pod.clone()).expect("valid pod").metadata.name).collect();
    store.act_as(kubelab_core::store::UserInfo::scheduler());
    let started = Instant::now();
    for name in &names {
        let bound = store.bind("default", name, "node-00000").expect("bound");
        let message = format!("Successfully assigned default/{name} to node-00000");
        store.record_event(object_reference(&bound), EventType::Normal, "Scheduled", message);
    }
    started.elapsed().as_secs_f64()
}
