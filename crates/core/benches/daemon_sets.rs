//! DaemonSet benchmark: one DaemonSet applied on 500 nodes, timed until its 500 pods run —
//! created in the controller's slow-start batches, bound by the scheduler, started by the
//! kubelets. Run: `cargo bench -p kubelab-core --bench daemon_sets` (`KUBELAB_BENCH_SCALE=10`
//! for a tenth).

use kubelab_core::sim::{load, load_daemon_sets};
use std::time::Instant;

fn main() {
    let scale: usize = std::env::var("KUBELAB_BENCH_SCALE").ok().and_then(|s| s.parse().ok()).unwrap_or(1).max(1);
    let nodes = 500 / scale;
    println!("daemon sets: {nodes} nodes, one DaemonSet");
    let mut sim = load::cluster(nodes);
    let started = Instant::now();
    load_daemon_sets::apply_daemon_set(&mut sim);
    let report = load_daemon_sets::run_until_running(&mut sim, nodes);
    let wall = started.elapsed();
    assert_eq!(report.running, nodes, "a pod should run on every node: {report:?}");
    println!(
        "  apply -> {nodes} pods Running:   {:>10.2} s wall ({} s virtual)",
        wall.as_secs_f64(),
        report.virtual_seconds
    );
    println!("  numberAvailable:            {:>10}", report.available);
}
