//! The lifecycle chart as text: a rolling update's relay, a crash loop's back-off gaps and a
//! dead node's pods, each rendered one lane per line.

use super::*;
use crate::kubectl::files::MemoryFiles;
use crate::script;
use crate::sim::Sim;
use std::fmt::Write;

fn sim_after(lines: &str) -> Sim {
    let mut sim = Sim::default();
    let transcript = script::run(&mut sim, &script::parse(lines).unwrap(), &MemoryFiles::new(), true);
    assert_eq!(transcript.exit_code, 0, "{}", transcript.text);
    sim
}

/// `name  image  state@from-to …  ready from-to …  ticks`, times in seconds.
fn render(chart: &LifecycleChart) -> String {
    let secs = |t: SimTime| t.as_millis();
    let span = |s: &Span| match s.to {
        Some(to) => format!("{}-{}", secs(s.from), secs(to)),
        None => format!("{}-", secs(s.from)),
    };
    let mut out = String::new();
    for lane in &chart.lanes {
        let states: Vec<String> = lane.states.iter().map(|s| format!("{}@{}", s.state, span(s))).collect();
        let ready: Vec<String> = lane.ready.iter().map(span).collect();
        writeln!(out, "{} {} | {} | ready {}", lane.name, lane.image, states.join(" "), ready.join(" ")).unwrap();
    }
    out
}

#[test]
fn a_rolling_update_hands_over_one_pod_at_a_time() {
    let sim = sim_after(
        "kubectl create deployment hello --image=hello:v1 --replicas=2\n\
         sleep 30s\n\
         kubectl set image deployment/hello hello=hello:v2\n\
         sleep 1m",
    );
    let chart = sim.lifecycle().chart(sim.store(), "app=hello", "default").unwrap();
    let text = render(&chart);
    let v1: Vec<&Lane> = chart.lanes.iter().filter(|l| l.image == "hello:v1").collect();
    let v2: Vec<&Lane> = chart.lanes.iter().filter(|l| l.image == "hello:v2").collect();
    assert_eq!((v1.len(), v2.len()), (2, 2), "{text}");
    // The relay: the first v2 pod is Ready before any v1 pod starts Terminating.
    // The relay, in the order the writes happened (within one virtual instant, here): the first
    // v2 pod turns Ready, and only then is a v1 pod told to stop.
    let first_v2_ready = v2.iter().filter_map(|l| l.ready.first()).map(|r| (r.from, r.seq)).min().unwrap();
    let first_v1_terminating =
        v1.iter().flat_map(|l| &l.states).filter(|s| s.state == "Terminating").map(|s| (s.from, s.seq)).min().unwrap();
    assert!(first_v2_ready < first_v1_terminating, "{text}");
    assert!(v1.iter().all(|l| l.gone.is_some()), "old pods leave after their grace period:\n{text}");
    let chooser = chartable(sim.store());
    assert_eq!(
        chooser,
        [Chartable { namespace: "default".into(), name: "hello".into(), selector: "app=hello".into() }]
    );
    assert!(chart.lanes[0].owner.as_deref().is_some_and(|o| o.starts_with("ReplicaSet/hello-")), "{text}");
}

#[test]
fn a_crash_loop_shows_its_back_off_as_gaps_between_runs() {
    let sim = sim_after("kubectl run crashy --image=crashy\nsleep 3m");
    let chart = sim.lifecycle().chart(sim.store(), "run=crashy", "default").unwrap();
    let lane = &chart.lanes[0];
    let back_offs = lane.states.iter().filter(|s| s.state == "CrashLoopBackOff").count();
    assert!(back_offs >= 3, "{}", render(&chart));
    assert!(lane.ticks.iter().any(|t| t.reason == "BackOff" && t.warning), "{:?}", lane.ticks);
}

#[test]
fn a_dead_nodes_pods_stay_until_eviction() {
    let sim = sim_after(
        "kubectl create deployment hello --image=hello:v1 --replicas=3\n\
         sleep 30s\n\
         lab node power-off node-1\n\
         sleep 7m",
    );
    let chart = sim.lifecycle().chart(sim.store(), "app=hello", "default").unwrap();
    let text = render(&chart);
    let dead: Vec<&Lane> =
        chart.lanes.iter().filter(|l| l.ticks.iter().any(|t| t.reason == "TaintManagerEviction")).collect();
    assert!(!dead.is_empty(), "{text}");
    for lane in dead {
        // Not Ready from about 50 s after the power-off (its node NotReady), evicted at 300 s.
        let not_ready_at = lane.ready.last().and_then(|r| r.to).unwrap().as_millis() / 1000;
        let evicted_at = lane.ticks.iter().find(|t| t.reason == "TaintManagerEviction").unwrap().at.as_millis() / 1000;
        assert!((75..=95).contains(&not_ready_at), "{text}");
        assert!((evicted_at - not_ready_at).abs_diff(300) <= 10, "{text}");
    }
}

#[test]
fn lanes_stay_bounded_and_a_bad_selector_is_an_error() {
    let sim = sim_after("kubectl create deployment many --image=hello:v1 --replicas=300\nsleep 10s");
    let chart = sim.lifecycle().chart(sim.store(), "", "default").unwrap();
    assert_eq!(chart.lanes.len(), MAX_LANES);
    assert!(sim.lifecycle().chart(sim.store(), "=x", "default").unwrap_err().starts_with("selector \"=x\""));
}
