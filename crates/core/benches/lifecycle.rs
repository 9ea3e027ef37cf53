//! What keeping the lifecycle chart's history costs: the engine scenario at a tenth of its size
//! (500 nodes, 150 Deployments × 100 replicas, apply → all Running), run in turn with the
//! history kept and not kept, three rounds, so the ratio compares runs on the same machine at
//! the same moment. Run: `cargo bench -p kubelab-core --bench lifecycle`.

use kubelab_core::sim::load;
use std::time::Instant;

fn once(record: bool) -> f64 {
    let (nodes, deployments, replicas) = (500, 150, 100);
    let mut sim = load::cluster(nodes);
    sim.record_lifecycles(record);
    let started = Instant::now();
    load::apply_deployments(&mut sim, deployments, replicas);
    let report = load::run_until_running(&mut sim, deployments * replicas);
    assert_eq!(report.running, deployments * replicas, "every pod should be Running: {report:?}");
    started.elapsed().as_secs_f64()
}

fn main() {
    println!("lifecycle history: 500 nodes, 15,000 pods, apply -> all Running, in turn");
    let mut ratios = Vec::new();
    for round in 1..=3 {
        let with = once(true);
        let without = once(false);
        ratios.push(with / without);
        println!("  round {round}: kept {with:>6.2} s, not kept {without:>6.2} s, ratio {:.3}", with / without);
    }
    ratios.sort_by(f64::total_cmp);
    println!("  median ratio (kept / not kept): {:.3}", ratios[1]);
}
