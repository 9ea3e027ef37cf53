//! Engine benchmark: 1,500 Deployments × 100 replicas applied on 5,000 nodes, timed until all
//! 150,000 pods are Running (controllers, scheduler and kubelets together), then a quiet hour.
//! Run: `cargo bench -p kubelab-core --bench engine` (`KUBELAB_BENCH_SCALE=10` for a tenth).
//! The wasm32 build runs the same scenario (`tests/wasm/bench.mjs`).

use kubelab_core::sim::load;
use std::time::Instant;

fn main() {
    let scale: usize = std::env::var("KUBELAB_BENCH_SCALE").ok().and_then(|s| s.parse().ok()).unwrap_or(1).max(1);
    let (nodes, deployments, replicas) = (5_000 / scale, 1_500 / scale, 100);
    println!("engine: {nodes} nodes, {deployments} deployments x {replicas} replicas");
    // The same workload with and without the control plane's node and kube-system's pods
    // (kube-proxy and kindnet on every node, the static pods, CoreDNS).
    run(load::cluster, "without system pods", deployments, replicas, nodes);
    run(load::cluster_with_system_pods, "with system pods", deployments, replicas, nodes);
}

fn run(cluster: fn(usize) -> kubelab_core::sim::Sim, label: &str, deployments: usize, replicas: usize, nodes: usize) {
    let started = Instant::now();
    let mut sim = cluster(nodes);
    let setup = started.elapsed();
    let started = Instant::now();
    load::apply_deployments(&mut sim, deployments, replicas);
    let report = load::run_until_running(&mut sim, deployments * replicas);
    let run = started.elapsed();
    let started = Instant::now();
    let timers = load::idle_hour(&mut sim);
    let idle = started.elapsed();
    assert_eq!(report.running, deployments * replicas, "every pod should be Running: {report:?}");
    println!(" {label}:");
    println!("  cluster setup:              {:>10.1} ms", setup.as_secs_f64() * 1e3);
    println!("  apply -> all Running:       {:>10.2} s wall ({} s virtual)", run.as_secs_f64(), report.virtual_seconds);
    println!("  pods to Running per second: {:>10.0}", report.running as f64 / run.as_secs_f64());
    println!("  quiet hour:                 {:>10.2} ms wall, {timers} timers fired", idle.as_secs_f64() * 1e3);
}
