//! Lesson files through the loader, JSON and the linter with its replay: instructors write them, servers load them.
#![no_main]

use kubelab_core::lesson::{self, Lesson, LessonLab};
use kubelab_fuzz::{Budget, text};
use libfuzzer_sys::fuzz_target;

/// The most machines a fuzzed lesson's lab may have: building bigger clusters is the engine
/// benchmark's business, and would only make each input slow.
const MAX_NODES: usize = 8;
/// Looks at the interrupt the bounded replay may take (a slice of work each).
const REPLAY_LOOKS: usize = 32;

// The linter replays a lesson with no budget of its own, so it runs only on lessons that a
// bounded replay showed to finish quickly.
fuzz_target!(|bytes: &[u8]| {
    let text = text(bytes);
    let lesson = match Lesson::from_yaml(&text) {
        Ok(lesson) => lesson,
        Err(error) => return assert!(error.line >= 1 && !error.message.is_empty(), "{error:?}"),
    };
    through_json(&lesson);
    if lesson.cluster.as_ref().is_some_and(|cluster| cluster.nodes.len() > MAX_NODES) || !replays_quickly(&lesson) {
        return;
    }
    for diagnostic in lesson::lint(&text) {
        assert!(diagnostic.line >= 1, "{diagnostic:?}");
        diagnostic.render("fuzz.yaml");
    }
});

/// The web app reads lessons as JSON (build.rs converts them): the same lesson must arrive.
fn through_json(lesson: &Lesson) {
    let json = serde_json::to_string(lesson).expect("a lesson encodes");
    let again = Lesson::from_json(&json).unwrap_or_else(|error| panic!("{json}: {error:?}"));
    assert_eq!(&again, lesson);
}

/// Plays the lesson as the linter will (setup, then each step's commands, prediction and
/// solution, checks evaluated) under an interrupt; true when it finished within the budget.
/// The lab is deterministic, so the linter's own replay then costs the same.
fn replays_quickly(lesson: &Lesson) -> bool {
    let mut lab = LessonLab::new(lesson);
    let budget = Budget::new(REPLAY_LOOKS);
    lab.set_interrupt(budget.interrupt());
    let _ = lab.setup(lesson);
    for step in &lesson.steps {
        for command in &step.commands {
            let _ = lab.run_as_learner(command);
        }
        if let Some(prediction) = &step.prediction {
            let _ = lab.run_as_learner(&prediction.run);
            prediction.choices.iter().for_each(|choice| drop(lab.check(&choice.check)));
        }
        if let Some(task) = &step.task {
            task.checks.iter().for_each(|check| drop(lab.check(check)));
            let _ = lab.run_as_learner(&task.solution);
        }
    }
    !budget.ran_out()
}
