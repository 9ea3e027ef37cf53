//! Challenges are lessons, so the linter grades them: for many seeds, each patient's repair
//! completes its task, each hurried fix leaves it undone, and nothing heals by itself.

use super::*;
use crate::lesson::lint;

#[test]
fn the_same_seed_draws_the_same_patients_and_another_seed_others() {
    let titles = |seed| challenge(seed).steps.iter().map(|s| s.title.clone()).collect::<Vec<_>>();
    assert_eq!(titles(7), titles(7));
    let distinct: std::collections::BTreeSet<Vec<String>> = (1..=20).map(titles).collect();
    assert!(distinct.len() > 10, "20 seeds drew only {} different challenges", distinct.len());
    let lesson = challenge(7);
    assert_eq!(lesson.steps.len(), PATIENTS);
    assert_eq!(lesson.files.len(), PATIENTS, "names are distinct");
}

#[test]
fn every_fault_is_graded_by_what_it_broke() {
    // A challenge has no quiz: the quiz rules are the only ones it does not meet.
    for seed in 1..=12 {
        let lesson = challenge(seed);
        let problems: Vec<String> = lint(&lesson.to_yaml())
            .into_iter()
            .filter(|d| !d.message.starts_with("the quiz"))
            .map(|d| d.render(&format!("challenge seed {seed}")))
            .collect();
        assert!(problems.is_empty(), "seed {seed}:\n{}", problems.join("\n"));
    }
}

#[test]
fn all_faults_appear_across_seeds() {
    let drawn: std::collections::BTreeSet<String> =
        (1..=12).flat_map(patients).map(|(_, fault)| format!("{fault:?}")).collect();
    assert_eq!(drawn.len(), Fault::ALL.len(), "seeds 1-12 drew only {drawn:?}");
}

#[test]
fn hints_cost_a_minute() {
    assert_eq!(score(125_400, 0), 125);
    assert_eq!(score(125_400, 2), 245);
}
