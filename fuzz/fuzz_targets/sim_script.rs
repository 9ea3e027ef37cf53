//! Bytes as a `.sim` script: the parser (heredocs, quoting, durations, `&`), then the whole
//! script run on a fresh lab under the fuzz budget, as `kubelab sim`, lessons and hosted labs
//! run one, and its trace written: a script is what every host accepts from anyone.
#![no_main]

use kubelab_core::script;
use kubelab_core::sim::Sim;
use kubelab_fuzz::{budget, course_files, lab_after, text};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

static FRESH_LAB: OnceLock<Sim> = OnceLock::new();

fuzz_target!(|bytes: &[u8]| {
    let text = text(bytes);
    let steps = match script::parse(&text) {
        Ok(steps) => steps,
        Err(error) => return refused(&text, &error),
    };
    let mut sim = FRESH_LAB.get_or_init(|| lab_after("")).clone();
    budget(&mut sim, 64);
    let transcript = script::run(&mut sim, &steps, &course_files(), false);
    assert!(transcript.text.len() >= steps.len(), "every line run is echoed");
    sim.trace().as_jsonl();
});

/// A script that does not parse names a line of it.
fn refused(text: &str, error: &script::ScriptError) {
    let lines = text.lines().count().max(1);
    assert!((1..=lines).contains(&error.line), "line {} of {lines}: {}", error.line, error.message);
    assert!(!error.message.is_empty());
}
