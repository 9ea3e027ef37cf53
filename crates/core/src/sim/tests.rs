//! Deferred work: a command's controller passes, or a sleep, run in slices end exactly where
//! running them at once does.

use super::*;
use crate::api::Pod;
use crate::kubectl::files::MemoryFiles;
use crate::script;

fn run(sim: &mut Sim, line: &str) -> String {
    script::run(sim, &script::parse(line).unwrap(), &MemoryFiles::new(), false).text
}

const LINES: [&str; 7] = [
    "kubectl create deployment web --image=hello:v1 --replicas=40",
    "kubectl create deployment api --image=nginx --replicas=5",
    "kubectl scale deployment web --replicas=10",
    // Both Deployments and all four ReplicaSets change in one pass, which slices then split.
    "kubectl set image deployment/api nginx=nginx:1.27",
    "sleep 30s",
    "kubectl set image deployment/web hello=hello:v2",
    "kubectl get pods",
];

#[test]
fn settling_in_slices_ends_where_settling_at_once_does() {
    let (mut whole, mut sliced) = (
        Sim::new(1, &crate::cluster::ClusterSpec::default_workers()),
        Sim::new(1, &crate::cluster::ClusterSpec::default_workers()),
    );
    let mut passes = Vec::new();
    for line in LINES {
        let at_once = run(&mut whole, line);
        sliced.defer_settling(true);
        let in_slices = run(&mut sliced, line);
        sliced.defer_settling(false);
        let mut count = 1;
        while !sliced.settle_for(1) {
            count += 1;
        }
        passes.push(count);
        assert_eq!(in_slices, at_once, "{line}");
    }
    assert!(passes[0] > 2, "creating a Deployment takes several passes: {passes:?}");
    assert_eq!(sliced.trace().as_jsonl(), whole.trace().as_jsonl());
}

/// A turn's share of a pass reached: the rest waits for the next pass, in slices as at once.
#[test]
fn turns_cut_at_their_share_end_where_settling_at_once_does() {
    let (mut whole, mut sliced) = (
        Sim::new(1, &crate::cluster::ClusterSpec::default_workers()),
        Sim::new(1, &crate::cluster::ClusterSpec::default_workers()),
    );
    whole.controllers.limit_turns(3);
    sliced.controllers.limit_turns(3);
    for line in LINES {
        let at_once = run(&mut whole, line);
        sliced.defer_settling(true);
        let in_slices = run(&mut sliced, line);
        sliced.defer_settling(false);
        while !sliced.settle_for(1) {}
        assert_eq!(in_slices, at_once, "{line}");
    }
    assert_eq!(sliced.trace().as_jsonl(), whole.trace().as_jsonl());
    let running = whole.store().list::<Pod>(None).filter(|p| p.phase() == "Running").count();
    assert_eq!(running, 15, "both Deployments still converge: {}", run(&mut whole, "kubectl get pods"));
}

#[test]
fn the_next_command_finishes_what_the_last_one_left() {
    let mut sim = Sim::new(1, &crate::cluster::ClusterSpec::default_workers());
    sim.defer_settling(true);
    run(&mut sim, LINES[0]);
    sim.defer_settling(false);
    assert_eq!(sim.store().count::<Pod>(), 0, "nothing has reconciled yet");
    let listed = run(&mut sim, "kubectl get deployment web");
    assert!(listed.contains("web    0/40    40           0"), "{listed}");
    assert_eq!(sim.store().count::<Pod>(), 40);
    assert!(sim.settle_for(1), "nothing is owed any more");
}

#[test]
fn a_deferred_sleep_moves_the_clock_pass_by_pass() {
    let mut sim = Sim::new(1, &crate::cluster::ClusterSpec::default_workers());
    run(&mut sim, LINES[0]);
    sim.defer_settling(true);
    run(&mut sim, "sleep 30s");
    sim.defer_settling(false);
    assert_eq!(sim.now().as_millis(), 0, "the sleep has only begun");
    let mut seen = vec![sim.now()];
    while !sim.settle_for(1) {
        if seen.last() != Some(&sim.now()) {
            seen.push(sim.now());
        }
    }
    assert_eq!(sim.now().as_millis(), 30_000);
    assert!(seen.len() > 2, "the clock stopped at each timer on the way: {seen:?}");
    assert!(!sim.is_settling());
}
