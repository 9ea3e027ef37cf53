//! Responsiveness benchmark: the browser sandbox's "big" scenario (5,000 nodes, 30 Deployments
//! of 5,000 pods each, then `sleep 30s`) run as the page runs it: each script deferred, its
//! work then done one unit at a time (`Sim::settle_for(1)`). A page draws between slices, so the
//! longest slice is the longest the page can freeze; this reports it with the spread of the rest.
//! Run: `cargo bench -p kubelab-core --bench slices` (`KUBELAB_BENCH_SCALE=10` for a tenth).

use kubelab_core::kubectl::MemoryFiles;
use kubelab_core::script;
use kubelab_core::sim::load;
use std::time::{Duration, Instant};

/// What a frame may spend reconciling in the page (`sliced_run.rs`).
const FRAME_BUDGET: Duration = Duration::from_millis(12);

fn main() {
    let scale: usize = std::env::var("KUBELAB_BENCH_SCALE").ok().and_then(|s| s.parse().ok()).unwrap_or(1).max(1);
    let nodes = 5_000 / scale;
    let mut sim = load::cluster(nodes);
    let mut scripts: Vec<String> =
        (1..=30).map(|i| format!("kubectl create deployment app-{i:02} --image=hello:v1 --replicas={nodes}")).collect();
    scripts.push("sleep 30s".into());
    let started = Instant::now();
    let mut slices: Vec<(Duration, String)> = Vec::new();
    for line in &scripts {
        sim.defer_settling(true);
        let slice = Instant::now();
        script::run(&mut sim, &script::parse(line).expect("valid script"), &MemoryFiles::new(), false);
        slices.push((slice.elapsed(), format!("{line} (the command itself)")));
        sim.defer_settling(false);
        loop {
            let slice = Instant::now();
            let done = sim.settle_for(1);
            slices.push((slice.elapsed(), format!("a slice at t = {}", sim.now().as_millis() / 1000)));
            if done {
                break;
            }
        }
    }
    let total = started.elapsed();
    let running = sim.store().list::<kubelab_core::api::Pod>(None).filter(|p| p.phase() == "Running").count();
    report(nodes, running, total, &mut slices);
}

fn report(nodes: usize, running: usize, total: Duration, slices: &mut [(Duration, String)]) {
    slices.sort_by_key(|(d, _)| *d);
    let at = |q: f64| slices[((slices.len() - 1) as f64 * q) as usize].0;
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let (longest, what) = slices.last().expect("at least one slice");
    let over = slices.iter().filter(|(d, _)| *d > FRAME_BUDGET).count();
    println!("slices: {nodes} nodes, 30 Deployments x {nodes} replicas, then sleep 30s ({running} pods Running)");
    println!("  total:                {:>10.2} s wall in {} slices", total.as_secs_f64(), slices.len());
    println!("  slice p50 / p99:      {:>10.3} / {:.3} ms", ms(at(0.5)), ms(at(0.99)));
    println!("  longest slice:        {:>10.1} ms ({what})", ms(*longest));
    println!("  slices over {} ms:    {:>10}", FRAME_BUDGET.as_millis(), over);
}
