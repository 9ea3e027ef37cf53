//! Every verb in `kubectl::VERBS` is used by at least one golden scenario line, so a verb
//! cannot land without a transcript that pins its output.

use kubelab_core::kubectl::VERBS;
use kubelab_core::script::{self, Action};
use std::collections::BTreeSet;
use std::path::Path;

/// The verb a command line names: its first word that is not a global flag or its value.
fn verb_of(argv: &[String]) -> Option<&str> {
    let mut words = argv.iter();
    while let Some(word) = words.next() {
        match word.as_str() {
            "-n" | "--namespace" => {
                words.next();
            }
            w if w.starts_with('-') => {}
            w => return Some(w),
        }
    }
    None
}

#[test]
fn every_verb_has_a_golden_scenario_line() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/scenarios");
    let mut used = BTreeSet::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|x| x != "sim") {
            continue;
        }
        let steps = script::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for step in steps {
            if let Action::Kubectl { argv, .. } = step.action
                && let Some(verb) = verb_of(&argv)
            {
                used.insert(verb.to_string());
            }
        }
    }
    let missing: Vec<&str> = VERBS.iter().map(|v| v.name).filter(|name| !used.contains(*name)).collect();
    assert!(missing.is_empty(), "verbs without a line in tests/scenarios/*.sim: {missing:?}");
}
