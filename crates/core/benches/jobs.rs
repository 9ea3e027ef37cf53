//! Jobs benchmark: 1,000 Jobs × 10 completions (5 at a time) applied on 500 nodes, timed until
//! every Job is Complete — 10,000 pods created, scheduled, run to exit and counted.
//! Run: `cargo bench -p kubelab-core --bench jobs` (`KUBELAB_BENCH_SCALE=10` for a tenth).

use kubelab_core::sim::{load, load_jobs};
use std::time::Instant;

fn main() {
    let scale: usize = std::env::var("KUBELAB_BENCH_SCALE").ok().and_then(|s| s.parse().ok()).unwrap_or(1).max(1);
    let (nodes, jobs, completions, parallelism) = (500 / scale, 1_000 / scale, 10, 5);
    println!("jobs: {nodes} nodes, {jobs} jobs x {completions} completions ({parallelism} at a time)");
    let mut sim = load::cluster(nodes);
    let started = Instant::now();
    load_jobs::apply_jobs(&mut sim, jobs, completions, parallelism);
    let report = load_jobs::run_until_complete(&mut sim, jobs);
    let wall = started.elapsed();
    assert_eq!(report.complete, jobs, "every Job should complete: {report:?}");
    println!(
        "  apply -> all Complete:      {:>10.2} s wall ({} s virtual)",
        wall.as_secs_f64(),
        report.virtual_seconds
    );
    println!("  pods run:                   {:>10}", report.pods_run);
    println!("  completions per second:     {:>10.0}", report.pods_run as f64 / wall.as_secs_f64());
}
