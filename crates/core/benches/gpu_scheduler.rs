//! GPU scheduler benchmark: 20,000 pending pods each asking for one GPU or MIG slice, onto
//! 1,000 nodes of 8 × H100 under the mixed strategy, a quarter each in four MIG layouts (whole
//! GPUs, all-1g.10gb, all-balanced, all-3g.40gb). Run: `cargo bench -p kubelab-core --bench
//! gpu_scheduler`. Prints pods bound per second; asserts that every pod was bound and no node
//! holds more of a resource than its device plugin advertises.

use kubelab_core::api::container::Container;
use kubelab_core::api::quantity::{Format, Quantity};
use kubelab_core::api::shared::Shared;
use kubelab_core::api::{Node, ObjectMeta, Pod};
use kubelab_core::cluster::{NodeTemplate, node_from_template};
use kubelab_core::gpu::{GpuInventory, GpuMachine, MigStrategy, device_plugin, mig_manager};
use kubelab_core::scheduler::Scheduler;
use kubelab_core::sim::time::SimTime;
use kubelab_core::store::Store;
use std::collections::BTreeMap;
use std::time::Instant;

const NODES: usize = 1_000;
const PODS: usize = 20_000;
const LAYOUTS: [&str; 4] = ["all-disabled", "all-1g.10gb", "all-balanced", "all-3g.40gb"];

/// Node `i`: 8 × H100 in its quarter's layout, the device plugin's resources in its capacity.
fn gpu_node(i: usize) -> Node {
    let mut template = NodeTemplate::named(&format!("gpu-{i:04}"));
    template.cpu = Quantity::from_int(128, Format::DecimalSI);
    template.memory = Quantity::from_int(1 << 40, Format::BinarySI);
    let inventory = GpuInventory::parse("H100-SXM5-80GBx8").expect("a known model");
    let mut machine = GpuMachine::new(&template.name, &inventory, MigStrategy::Mixed);
    mig_manager::apply(&mut machine, LAYOUTS[i % LAYOUTS.len()]).expect("a layout that fits");
    let mut node = node_from_template(&template, i, SimTime::ZERO);
    for (name, count) in device_plugin::capacity(&device_plugin::devices(&machine)) {
        let quantity = Quantity::from_int(count, Format::DecimalSI);
        node.status.capacity.insert(name.clone(), quantity);
        node.status.allocatable.insert(name, quantity);
    }
    node
}

/// Pod `k`'s one device, in proportion to what the cluster has: of every 40 pods, 3 whole GPUs,
/// 24 1g.10gb, 3 2g.20gb, 10 3g.40gb.
fn resource_for(k: usize) -> &'static str {
    match k % 40 {
        0..=2 => "nvidia.com/gpu",
        3..=26 => "nvidia.com/mig-1g.10gb",
        27..=29 => "nvidia.com/mig-2g.20gb",
        _ => "nvidia.com/mig-3g.40gb",
    }
}

fn gpu_pod(resource: &str) -> Pod {
    let mut container = Container { name: "serve".into(), image: Some("vllm:v1".into()), ..Default::default() };
    container.resources.requests.insert("cpu".into(), Quantity::parse("500m").unwrap());
    container.resources.requests.insert("memory".into(), Quantity::parse("2Gi").unwrap());
    let one = Quantity::from_int(1, Format::DecimalSI);
    container.resources.requests.insert(resource.into(), one);
    container.resources.limits.insert(resource.into(), one);
    let mut meta = ObjectMeta::named("default", "");
    meta.generate_name = "infer-".into();
    meta.labels.insert("app", "infer");
    let mut pod = Pod { metadata: meta, ..Default::default() };
    pod.spec.containers = Shared::new(vec![container]);
    kubelab_core::store::defaults::pod_spec(&mut pod.spec);
    pod
}

fn main() {
    let mut store = Store::new(1);
    store.stop_trace();
    for i in 0..NODES {
        store.create(gpu_node(i)).expect("valid node");
    }
    let pods: Vec<Pod> =
        ["nvidia.com/gpu", "nvidia.com/mig-1g.10gb", "nvidia.com/mig-2g.20gb", "nvidia.com/mig-3g.40gb"]
            .iter()
            .map(|r| gpu_pod(r))
            .collect();
    let index = |r: &str| pods.iter().position(|p| p.spec.containers[0].resources.limits.contains_key(r)).unwrap();
    for k in 0..PODS {
        store.create(pods[index(resource_for(k))].clone()).expect("valid pod");
    }
    let mut scheduler = Scheduler::default();
    let started = Instant::now();
    scheduler.sync(&mut store);
    let secs = started.elapsed().as_secs_f64();
    let bound: Vec<&Pod> = store.list::<Pod>(Some("default")).filter(|p| p.node_name().is_some()).collect();
    assert_eq!(bound.len(), PODS, "every pod is bound");
    let mut held: BTreeMap<(String, String), i64> = BTreeMap::new();
    for pod in &bound {
        for (resource, q) in &pod.spec.containers[0].resources.limits {
            *held.entry((pod.node_name().unwrap().to_string(), resource.clone())).or_default() += q.value();
        }
    }
    for ((node, resource), count) in &held {
        let node = store.try_get::<Node>("", node).expect("the node");
        assert!(
            *count <= node.status.allocatable[resource].value(),
            "{} over-committed {resource}",
            node.metadata.name
        );
    }
    println!("GPU scheduler benchmark ({PODS} GPU pods onto {NODES} nodes × 8 H100, mixed MIG layouts)");
    println!(
        "  scheduled:        {:>10.0} pods/s    ({} in {secs:.2}s, binding and events included)",
        PODS as f64 / secs,
        bound.len()
    );
}
