//! `.sim` scripts parsed, run under a budget and replayed from their trace: what every host accepts from anyone.
#![no_main]

use kubelab_core::script::{self, trace_replay};
use kubelab_core::sim::Sim;
use kubelab_fuzz::{budget, course_files, lab_after, text};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

/// Looks at the interrupt a run may take; its replay gets as many.
const LOOKS: usize = 64;

static FRESH_LAB: OnceLock<Sim> = OnceLock::new();

fn fresh_lab() -> Sim {
    FRESH_LAB.get_or_init(|| lab_after("")).clone()
}

fuzz_target!(|bytes: &[u8]| {
    let text = text(bytes);
    let steps = match script::parse(&text) {
        Ok(steps) => steps,
        Err(error) => return refused(&text, &error),
    };
    let mut sim = fresh_lab();
    let run_budget = budget(&mut sim, LOOKS);
    let transcript = script::run(&mut sim, &steps, &course_files(), false);
    assert!(transcript.text.len() >= steps.len(), "every line run is echoed");
    if !run_budget.ran_out() {
        replays_to_the_same_trace(&sim);
    }
});

/// A script that does not parse names a line of it.
fn refused(text: &str, error: &script::ScriptError) {
    let lines = text.lines().count().max(1);
    assert!((1..=lines).contains(&error.line), "line {} of {lines}: {}", error.line, error.message);
    assert!(!error.message.is_empty());
}

/// The trace's commands run again at their times on a fresh lab, then the clock brought to
/// where the first lab's ended: every write must come out the same.
fn replays_to_the_same_trace(sim: &Sim) {
    let trace = sim.trace().as_jsonl();
    let mut again = fresh_lab();
    let replay_budget = budget(&mut again, LOOKS);
    trace_replay::replay(&mut again, trace, &course_files()).expect("a lab's own trace replays");
    if again.now() < sim.now() {
        again.advance(sim.now().since(again.now()));
    }
    if !replay_budget.ran_out() {
        assert_eq!(again.now(), sim.now());
        assert_eq!(again.trace().as_jsonl(), trace);
    }
}
