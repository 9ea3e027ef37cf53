//! A step's task: its goal, its checks re-evaluated after every command (✓ when one passes),
//! and its hints revealed one at a time. A passing task marks the step done (and, in a class,
//! reports the task passed and each hint revealed).

use crate::lab::lab_handle::LabHandle;
use crate::learner::progress_event::ProgressKind;
use crate::learner::progress_sync::LessonReporter;
use crate::lesson::markdown;
use crate::lesson::progress;
use kubelab_core::lesson::Task;
use kubelab_core::view::Verdict;
use leptos::prelude::*;

#[component]
pub fn TaskPanel(lab: LabHandle, task: &'static Task, lesson_id: &'static str, step: usize) -> impl IntoView {
    let verdicts = Memo::new(move |_| {
        lab.with(|session| task.checks.iter().map(|check| session.check(check)).collect::<Vec<Verdict>>())
    });
    let complete = Memo::new(move |_| verdicts.with(|v| v.iter().all(|verdict| verdict.passed)));
    let reporter = LessonReporter::get();
    Effect::new(move |_| {
        if complete.get() {
            progress::mark_done(lesson_id, step);
            if let Some(reporter) = reporter {
                reporter.report(step, ProgressKind::TaskPassed, Some("task"), None);
                reporter.report(step, ProgressKind::StepCompleted, None, None);
            }
        }
    });
    let hints_shown = RwSignal::new(0usize);
    let reveal_hint = move |_| {
        hints_shown.update(|n| *n += 1);
        let hint = format!("hint-{}", hints_shown.get_untracked());
        if let Some(reporter) = reporter {
            reporter.report(step, ProgressKind::HintRevealed, Some(&hint), None);
        }
    };
    let hint_count = task.hints.len();

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
                    {move || format!("Show a hint ({} left)", hint_count - hints_shown.get())}
                </button>
            </Show>
        </section>
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
