//! The pod doctor challenge: a lesson drawn from a seed. A few Deployments, each broken by a
//! different fault (`challenge_faults.rs`), one task per patient; every attempt draws another
//! seed and so other patients, and a given seed always draws the same ones (a class can race on
//! one seed, and a result can be replayed). The seed is also the lab's, so pod names differ too.

use super::challenge_faults::Fault;
use super::format::{Lesson, Level, Step};
use crate::sim::rng::Rng;
use std::collections::BTreeMap;

/// The challenge's lesson id (progress and the dashboard file results under it).
pub const CHALLENGE_ID: &str = "pod-doctor-challenge";
/// Patients per attempt.
pub const PATIENTS: usize = 3;
const NAMES: [&str; 8] = ["web", "api", "cart", "search", "auth", "billing", "queue", "thumbs"];

/// The patients `seed` draws: `PATIENTS` distinct names, each with a distinct fault.
pub fn patients(seed: u64) -> Vec<(&'static str, Fault)> {
    let mut rng = Rng::new(seed);
    let names = draw(&mut rng, &NAMES, PATIENTS);
    names.into_iter().zip(draw(&mut rng, &Fault::ALL, PATIENTS)).collect()
}

/// The challenge for `seed`: one step per patient.
pub fn challenge(seed: u64) -> Lesson {
    let mut files = BTreeMap::new();
    let mut setup = String::new();
    let mut steps = Vec::new();
    for (i, (name, fault)) in patients(seed).into_iter().enumerate() {
        files.insert(format!("{name}.yaml"), fault.manifest(name));
        setup.push_str(&format!("kubectl apply -f {name}.yaml\n"));
        steps.push(Step {
            title: format!("Patient {}: {name}", i + 1),
            text: format!(
                "Deployment `{name}` was shipped a minute ago and does not serve. Examine it \
                 (`kubectl get`, `describe`, `logs`, the events), then repair its manifest."
            ),
            commands: Vec::new(),
            prediction: None,
            task: Some(fault.task(name)),
            chart: None,
        });
    }
    setup.push_str("sleep 1m\n");
    Lesson {
        id: CHALLENGE_ID.into(),
        title: "Pod doctor: the challenge".into(),
        summary: "Three broken Deployments, drawn at random: diagnose and repair them against the clock, with hints \
                  only when you ask (each one costs a minute)."
            .into(),
        minutes: 15,
        level: Level::Intermediate,
        prerequisites: vec!["pod-doctor".into()],
        seed: Some(seed),
        cluster: None,
        files,
        setup,
        steps,
        quiz: Vec::new(),
    }
}

/// `count` distinct items, in the order drawn (a partial Fisher–Yates shuffle).
fn draw<T: Copy>(rng: &mut Rng, items: &[T], count: usize) -> Vec<T> {
    let mut pool = items.to_vec();
    for i in 0..count.min(pool.len()) {
        let j = i + rng.below((pool.len() - i) as u64) as usize;
        pool.swap(i, j);
    }
    pool.truncate(count);
    pool
}

/// A challenge's score, lower is better: its wall seconds, and a minute for each hint.
pub fn score(wall_ms: u64, hints: u64) -> u64 {
    wall_ms / 1000 + 60 * hints
}

#[cfg(test)]
#[path = "challenge_tests.rs"]
mod tests;
