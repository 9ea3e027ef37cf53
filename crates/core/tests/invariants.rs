//! Seeded random scenarios, checked after every event the simulation processes:
//! - a rolling update never has fewer than `replicas − maxUnavailable` available pods nor
//!   more than `replicas + maxSurge` pods;
//! - the scheduler never places pods whose requests exceed a node's allocatable;
//! - every scenario converges once the disturbances stop;
//! - the same seed gives the same trace;
//! - work deferred and run in random slices (`Sim::settle_for`) gives the same trace.
//!
//! A failure names its seed; rerun one with `KUBELAB_SEED=N cargo test -p kubelab-core --test invariants`.

use kubelab_core::api::quantity::Quantity;
use kubelab_core::api::{Deployment, Node, Pod};
use kubelab_core::cluster::{ClusterSpec, NodeTemplate};
use kubelab_core::kubectl::{self, Context, MemoryFiles};
use kubelab_core::sim::Sim;
use kubelab_core::sim::rng::Rng;
use kubelab_core::sim::time::{Duration, SimTime};
use std::collections::BTreeMap;

const SEEDS: u64 = 64;

fn seeds() -> Vec<u64> {
    match std::env::var("KUBELAB_SEED").ok().and_then(|s| s.parse().ok()) {
        Some(seed) => vec![seed],
        None => (1..=SEEDS).collect(),
    }
}

/// Runs one kubectl line; panics (naming the seed) if it fails.
fn kubectl(sim: &mut Sim, seed: u64, line: &str) {
    let files = MemoryFiles::new();
    let mut ctx = Context { sim, files: &files, stdin: None };
    let argv: Vec<String> = line.split_whitespace().map(String::from).collect();
    let out = kubectl::run(&mut ctx, &argv);
    ctx.sim.settle();
    assert_eq!(out.exit_code, 0, "seed {seed}: `kubectl {line}` failed:\n{}", out.render());
}

fn apply(sim: &mut Sim, seed: u64, yaml: &str) {
    let files = MemoryFiles::new();
    let mut ctx = Context { sim, files: &files, stdin: Some(yaml) };
    let argv: Vec<String> = ["apply", "-f", "-"].iter().map(|s| s.to_string()).collect();
    let out = kubectl::run(&mut ctx, &argv);
    ctx.sim.settle();
    assert_eq!(out.exit_code, 0, "seed {seed}: apply failed:\n{}", out.render());
}

fn deployment_yaml(name: &str, replicas: u64, surge: &str, unavailable: &str, cpu_milli: u64) -> String {
    format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\nspec:\n  replicas: {replicas}\n  \
         strategy:\n    rollingUpdate:\n      maxSurge: {surge}\n      maxUnavailable: {unavailable}\n  \
         selector:\n    matchLabels:\n      app: {name}\n  template:\n    metadata:\n      labels:\n        app: {name}\n    \
         spec:\n      containers:\n      - name: app\n        image: hello:v1\n        readinessProbe:\n          \
         httpGet: {{path: /readyz, port: 8080}}\n          periodSeconds: 2\n        resources:\n          \
         requests: {{cpu: {cpu_milli}m, memory: 64Mi}}\n"
    )
}

/// Steps the simulation event by event for `duration`, checking `check` after each.
fn run_checked(sim: &mut Sim, duration: Duration, mut check: impl FnMut(&Sim)) {
    let end = sim.now().plus(duration);
    while let Some(due) = sim.next_due().filter(|due| *due <= end) {
        sim.advance(due.since(sim.now()));
        check(sim);
    }
    sim.advance(end.since(sim.now()));
    check(sim);
}

/// No node holds more requested CPU, memory or pods than it has allocatable.
fn check_no_overcommit(sim: &Sim, seed: u64) {
    let mut requested: BTreeMap<&str, (i64, i64, i64)> = BTreeMap::new();
    for pod in sim.store().list::<Pod>(None) {
        let Some(node) = pod.node_name() else { continue };
        if matches!(pod.phase(), "Succeeded" | "Failed") {
            continue;
        }
        let entry = requested.entry(node).or_default();
        for c in pod.spec.containers.iter() {
            let q = |name: &str| c.resources.requests.get(name).map_or(0, Quantity::milli_value);
            entry.0 += q("cpu");
            entry.1 += q("memory");
        }
        entry.2 += 1;
    }
    for node in sim.store().list::<Node>(None) {
        let a = &node.status.allocatable;
        let cap = |name: &str| a.get(name).map_or(0, Quantity::milli_value);
        let (cpu, memory, pods) = requested.get(node.metadata.name.as_str()).copied().unwrap_or_default();
        assert!(
            cpu <= cap("cpu") && memory <= cap("memory") && pods * 1000 <= cap("pods"),
            "seed {seed}: node {} overcommitted at {:?}: cpu {cpu}m, memory {memory}m, pods {pods}",
            node.metadata.name,
            sim.now()
        );
    }
}

/// Pods of a Deployment that count: not terminating, not finished.
fn active_pods<'a>(sim: &'a Sim, app: &'a str) -> impl Iterator<Item = &'a Pod> + 'a {
    sim.store().list::<Pod>(Some("default")).filter(move |p| {
        p.metadata.labels.get("app") == Some(app)
            && p.metadata.deletion_timestamp.is_none()
            && !matches!(p.phase(), "Succeeded" | "Failed")
    })
}

#[test]
fn rolling_updates_stay_within_max_surge_and_max_unavailable() {
    for seed in seeds() {
        let mut rng = Rng::new(seed);
        let mut sim = Sim::new(seed, &ClusterSpec::default());
        let replicas = 1 + rng.below(6);
        let surge = rng.below(3);
        let unavailable = if surge == 0 { 1 + rng.below(2) } else { rng.below(3) };
        apply(&mut sim, seed, &deployment_yaml("web", replicas, &surge.to_string(), &unavailable.to_string(), 100));
        sim.advance(Duration::from_secs(30));
        let max_unavailable = unavailable.min(replicas);
        let (low, high) = (replicas - max_unavailable, replicas + surge);
        for round in 0..4 {
            let image = ["hello:v2", "hello:v1", "hello:v3-broken", "hello:v2"][round];
            kubectl(&mut sim, seed, &format!("set image deploy/web app={image}"));
            run_checked(&mut sim, Duration::from_secs(20 + rng.below(40)), |sim| {
                let pods: Vec<&Pod> = active_pods(sim, "web").collect();
                let available = pods.iter().filter(|p| p.is_ready()).count() as u64;
                assert!(
                    available >= low && pods.len() as u64 <= high,
                    "seed {seed}: at {:?} with replicas {replicas}, maxSurge {surge}, maxUnavailable {unavailable}: \
                     {} pods, {available} available (bounds: ≥ {low} available, ≤ {high} pods)",
                    sim.now(),
                    pods.len()
                );
            });
        }
    }
}

#[test]
fn chaos_never_overcommits_a_node_and_converges() {
    for seed in seeds() {
        let mut rng = Rng::new(seed);
        // Room for every app's replicas plus surge, so each run must end with every rollout done.
        let nodes: Vec<NodeTemplate> =
            (1..=3 + rng.below(3)).map(|i| NodeTemplate::named(&format!("node-{i}"))).collect();
        let node_names: Vec<String> = nodes.iter().map(|n| n.name.clone()).collect();
        let mut sim = Sim::new(seed, &ClusterSpec::workers_only(nodes));
        let apps = 1 + rng.below(3);
        for app in 0..apps {
            let yaml = deployment_yaml(&format!("app{app}"), 1 + rng.below(5), "25%", "25%", 100 + 100 * rng.below(4));
            apply(&mut sim, seed, &yaml);
        }
        let mut off: Vec<String> = Vec::new();
        for _ in 0..12 {
            let app = format!("app{}", rng.below(apps));
            match rng.below(5) {
                0 => kubectl(&mut sim, seed, &format!("scale deploy/{app} --replicas={}", rng.below(7))),
                1 => kubectl(&mut sim, seed, &format!("set image deploy/{app} app=hello:v{}", 1 + rng.below(2))),
                2 => {
                    let victim = active_pods(&sim, &app).next().map(|p| p.metadata.name.clone());
                    if let Some(victim) = victim {
                        kubectl(&mut sim, seed, &format!("delete pod {victim} --wait=false"));
                    }
                }
                3 if off.is_empty() => {
                    let node = node_names[rng.below(node_names.len() as u64) as usize].clone();
                    sim.power_off_node(&node).unwrap();
                    off.push(node);
                }
                _ => {
                    if let Some(node) = off.pop() {
                        sim.power_on_node(&node).unwrap();
                    }
                }
            }
            run_checked(&mut sim, Duration::from_secs(5 + rng.below(90)), |sim| check_no_overcommit(sim, seed));
        }
        for node in off.drain(..) {
            sim.power_on_node(&node).unwrap();
        }
        run_checked(&mut sim, Duration::from_secs(20 * 60), |sim| check_no_overcommit(sim, seed));
        assert_converged(&sim, seed);
    }
}

/// Every Deployment has all its replicas updated and available, and nothing is left Terminating.
fn assert_converged(sim: &Sim, seed: u64) {
    for d in sim.store().list::<Deployment>(Some("default")) {
        let name = &d.metadata.name;
        let want = d.spec.replicas.unwrap_or(1);
        let s = &d.status;
        assert_eq!(
            (s.updated_replicas.unwrap_or(0), s.available_replicas.unwrap_or(0), s.replicas.unwrap_or(0)),
            (want, want, want),
            "seed {seed}: deployment {name} did not converge: {s:?}"
        );
    }
    let stuck: Vec<&str> = sim
        .store()
        .list::<Pod>(None)
        .filter(|p| p.metadata.deletion_timestamp.is_some())
        .map(|p| p.metadata.name.as_str())
        .collect();
    assert!(stuck.is_empty(), "seed {seed}: pods still terminating: {stuck:?}");
}

#[test]
fn same_seed_same_trace() {
    let run = |seed: u64| {
        let mut sim = Sim::new(seed, &ClusterSpec::default());
        apply(&mut sim, seed, &deployment_yaml("web", 4, "1", "0", 200));
        sim.advance(Duration::from_secs(20));
        kubectl(&mut sim, seed, "set image deploy/web app=hello:v2");
        sim.power_off_node("node-2").unwrap();
        sim.advance(Duration::from_secs(400));
        sim.trace().as_jsonl().to_string()
    };
    for seed in seeds().into_iter().take(4) {
        let (a, b) = (run(seed), run(seed));
        assert!(a == b, "seed {seed}: two runs gave different traces");
        assert!(a.lines().count() > 100 && a.contains("\"t\":"), "seed {seed}: trace too short");
    }
    assert_ne!(run(1), run(2), "different seeds should name pods differently");
    let _ = SimTime::ZERO;
}

/// The chaos scenario's commands, with each command's reconciling and each sleep either run at
/// once or deferred and finished in slices of 1–6 units of work, as the browser does on a big
/// cluster. Both ways must write the same trace.
#[test]
fn work_run_in_slices_gives_the_same_trace() {
    let run = |seed: u64, sliced: bool| {
        let mut rng = Rng::new(seed);
        let mut slices = Rng::new(seed ^ 0x5eed);
        let mut sim = Sim::new(seed, &ClusterSpec::default());
        let mut step = |sim: &mut Sim, what: &mut dyn FnMut(&mut Sim)| {
            sim.defer_settling(sliced);
            what(sim);
            sim.defer_settling(false);
            while !sim.settle_for(1 + slices.below(6) as usize) {}
        };
        step(&mut sim, &mut |sim| apply(sim, seed, &deployment_yaml("web", 2 + rng.below(6), "25%", "25%", 200)));
        for _ in 0..8 {
            let line = match rng.below(3) {
                0 => format!("scale deploy/web --replicas={}", rng.below(8)),
                1 => format!("set image deploy/web app=hello:v{}", 1 + rng.below(2)),
                _ => "rollout restart deploy/web".to_string(),
            };
            step(&mut sim, &mut |sim| kubectl(sim, seed, &line));
            let pause = Duration::from_secs(1 + rng.below(60));
            step(&mut sim, &mut |sim| sim.advance(pause));
        }
        sim.trace().as_jsonl().to_string()
    };
    for seed in seeds().into_iter().take(16) {
        let (at_once, in_slices) = (run(seed, false), run(seed, true));
        assert!(at_once == in_slices, "seed {seed}: slicing the work changed the trace");
    }
}
