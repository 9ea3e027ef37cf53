//! A step's task: its goal, its checks re-evaluated as the lab changes (✓ when one passes),
//! and its hints revealed one at a time, the last being the answer. The task is done when a
//! learner's own command has settled with every check holding (`LabHandle::learner_moves`),
//! never from the clock or an instructor's fault alone; a waiting task (`waiting: true`) is
//! done when time has made it true. Done marks the step done (and, in a class, reports the
//! task passed and each hint revealed, the last as `answer`).

use crate::lab::lab_handle::LabHandle;
use crate::learner::progress_event::ProgressKind;
use crate::learner::progress_sync::LessonReporter;
use crate::lesson::markdown;
use crate::lesson::progress;
use kubelab_core::lesson::Task;
use kubelab_core::view::Verdict;
use leptos::prelude::*;

#[component]
pub fn TaskPanel(
    lab: LabHandle,
    task: &'static Task,
    lesson_id: &'static str,
    step: usize,
    /// Told once, when the task is done (the challenge counts patients).
    #[prop(optional)]
    on_done: Option<Callback<()>>,
    /// Told each time a hint is opened (the challenge counts hints).
    #[prop(optional)]
    on_hint: Option<Callback<()>>,
) -> impl IntoView {
    let verdicts = Memo::new(move |_| {
        lab.with(|session| task.checks.iter().map(|check| session.check(check)).collect::<Vec<Verdict>>())
    });
    let all_pass = Memo::new(move |_| verdicts.with(|v| v.iter().all(|verdict| verdict.passed)));
    let complete = RwSignal::new(false);
    let reporter = LessonReporter::get();
    // Re-runs after each settled learner command (and, for a waiting task, each change); the
    // first run only records where the count stood when the task appeared.
    Effect::new(move |seen: Option<u64>| {
        let moves = lab.learner_moves.get();
        let by_time = task.waiting && all_pass.get();
        let moved = seen.is_some_and(|seen| seen != moves);
        if (moved || by_time) && !complete.get_untracked() && all_pass.get_untracked() {
            complete.set(true);
            progress::mark_done(lesson_id, step);
            if let Some(on_done) = on_done {
                on_done.run(());
            }
            if let Some(reporter) = reporter {
                reporter.report(step, ProgressKind::TaskPassed, Some("task"), None);
                reporter.report(step, ProgressKind::StepCompleted, None, None);
            }
        }
        moves
    });
    let hints_shown = RwSignal::new(0usize);
    let hint_count = task.hints.len();
    let reveal_hint = move |_| {
        hints_shown.update(|n| *n += 1);
        let hint = hint_label(hints_shown.get_untracked(), hint_count);
        if let Some(on_hint) = on_hint {
            on_hint.run(());
        }
        if let Some(reporter) = reporter {
            reporter.report(step, ProgressKind::HintRevealed, Some(&hint), None);
        }
    };

    view! {
        <section class="task" class:complete=move || complete.get() aria-labelledby="task-heading">
            <h3 id="task-heading">"Your task"</h3>
            <div class="prose" inner_html=markdown::to_html(&task.goal)></div>
            <ul class="checks" aria-label="Checks">
                {move || verdicts.get().into_iter().map(check_item).collect_view()}
            </ul>
            <p class="task-status" role="status">
                {move || if complete.get() { "✓ Task complete" } else { "" }}
            </p>
            <ol class="hints">
                {move || task.hints.iter().take(hints_shown.get()).map(|hint| view! {
                    <li class="prose" inner_html=markdown::to_html(hint)></li>
                }).collect_view()}
            </ol>
            <Show when=move || hints_shown.get() < hint_count>
                <button type="button" class="hint-button" on:click=reveal_hint>
                    {move || hint_button(hints_shown.get(), hint_count)}
                </button>
            </Show>
        </section>
    }
}

/// What a revealed hint is reported as: `hint-N`, and the last one, the answer, as `answer`.
fn hint_label(shown: usize, count: usize) -> String {
    if shown == count { "answer".to_string() } else { format!("hint-{shown}") }
}

fn hint_button(shown: usize, count: usize) -> String {
    match count - shown {
        1 => "Show the answer".to_string(),
        left => format!("Show a hint ({} left before the answer)", left - 1),
    }
}

fn check_item(verdict: Verdict) -> impl IntoView {
    let (mark, state) = if verdict.passed { ("✓", "passed") } else { ("○", "not yet") };
    view! {
        <li class="check" class:passed=verdict.passed>
            <span class="check-mark" aria-hidden="true">{mark}</span>
            <span class="visually-hidden">{state}": "</span>
            <span class="check-message">{verdict.message}</span>
        </li>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_hint_is_the_answer() {
        let labels: Vec<String> = (1..=3).map(|shown| hint_label(shown, 3)).collect();
        assert_eq!(labels, ["hint-1", "hint-2", "answer"]);
        let buttons: Vec<String> = (0..3).map(|shown| hint_button(shown, 3)).collect();
        assert_eq!(
            buttons,
            ["Show a hint (2 left before the answer)", "Show a hint (1 left before the answer)", "Show the answer"]
        );
    }
}
