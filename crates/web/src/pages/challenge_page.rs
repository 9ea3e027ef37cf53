//! `#/challenge/<seed>`: the pod doctor challenge. Every patient's task at once beside the lab,
//! a running wall clock, the hints opened (each costs a minute) and the cluster's own virtual
//! time; when every patient is healed, the score, reported to the class as `challenge_finished`.
//! `#/challenge` draws a fresh seed and goes there, so an attempt can be shared or replayed.

use crate::engine::Engine;
use crate::lab::lab_handle::LabHandle;
use crate::lab::lab_view::LabView;
use crate::lab::lifecycle_chart;
use crate::lab::manifest_editor::PageFiles;
use crate::lab::shared_lab;
use crate::learner::progress_event::ProgressKind;
use crate::learner::progress_sync::LessonReporter;
use crate::lesson::markdown;
use crate::lesson::task_panel::TaskPanel;
use crate::pages::error_panel::ErrorPanel;
use crate::pages::route::Route;
use kubelab_core::lesson::Lesson;
use kubelab_core::sim::time::SimTime;
use kubelab_wire::ChallengeResult;
use leptos::prelude::*;
use std::time::Duration;

/// `#/challenge`: draws a seed (the browser's randomness, outside the deterministic core) and
/// opens that challenge, replacing this entry in the history.
#[component]
pub fn NewChallenge() -> impl IntoView {
    let seed = (js_sys::Math::random() * 1_000_000.0) as u64 + 1;
    if let Some(location) = web_sys::window().map(|w| w.location()) {
        let _ = location.replace(&Route::Challenge(Some(seed)).href());
    }
    view! { <p>"Drawing your patients…"</p> }
}

#[component]
pub fn ChallengePage(seed: u64, engine: &'static dyn Engine) -> impl IntoView {
    let lesson = drawn(engine, seed);
    match engine.lesson_lab(lesson) {
        Ok(session) => view! { <ChallengeView seed=seed lesson=lesson lab=shared_lab::open(session) /> }.into_any(),
        Err(message) => {
            view! { <ErrorPanel title="The challenge's lab did not start".to_string() message=message /> }.into_any()
        }
    }
}

thread_local! {
    /// Challenges drawn on this page so far: a lesson lives as long as the page (the panels
    /// borrow it), so each seed is drawn and kept once, however often it is opened.
    static DRAWN: std::cell::RefCell<std::collections::BTreeMap<u64, &'static Lesson>> = Default::default();
}

fn drawn(engine: &'static dyn Engine, seed: u64) -> &'static Lesson {
    DRAWN.with_borrow_mut(|drawn| *drawn.entry(seed).or_insert_with(|| Box::leak(Box::new(engine.challenge(seed)))))
}

#[component]
fn ChallengeView(seed: u64, lesson: &'static Lesson, lab: LabHandle) -> impl IntoView {
    let reporter = LessonReporter::new(&lesson.id);
    provide_context(reporter);
    provide_context(PageFiles(lesson.files.iter().map(|(name, text)| (name.clone(), text.clone())).collect()));
    let started = js_sys::Date::now();
    let now = RwSignal::new(started);
    if let Ok(handle) = set_interval_with_handle(move || now.set(js_sys::Date::now()), Duration::from_secs(1)) {
        on_cleanup(move || handle.clear());
    }
    let hints = RwSignal::new(0u64);
    let healed = RwSignal::new(0usize);
    let result = RwSignal::new(None::<ChallengeResult>);
    let patients = lesson.steps.len();
    let on_hint = Callback::new(move |()| hints.update(|n| *n += 1));
    let on_done = Callback::new(move |()| {
        healed.update(|n| *n += 1);
        if healed.get_untracked() == patients && result.get_untracked().is_none() {
            let wall_ms = (js_sys::Date::now() - started).max(0.0) as u64;
            let virtual_ms = lab.peek(|session| session.now()).as_millis();
            let finished = ChallengeResult { seed, wall_ms, virtual_ms, hints: hints.get_untracked() };
            result.set(Some(finished));
            let item = format!("attempt-{wall_ms}");
            reporter.report(
                patients.saturating_sub(1),
                ProgressKind::ChallengeFinished,
                Some(&item),
                Some(&finished.to_answer()),
            );
        }
    });
    let wall = move || result.get().map_or(now.get() - started, |r| r.wall_ms as f64);
    let cluster_time = move || lab.with(|session| session.now());
    view! {
        <div class="lesson-layout challenge">
            <div class="lesson-steps">
                <p class="breadcrumb"><a href="#/">"Lessons"</a>" › Pod doctor: the challenge"</p>
                <h1>{lesson.title.clone()}</h1>
                <p class="lede">{format!(
                    "Seed {seed}: {patients} patients, drawn for you. Heal them all. Hints are there when you ask, \
                     and each costs a minute."
                )}</p>
                <dl class="scoreboard" aria-live="off">
                    <div><dt>"Time"</dt><dd class="challenge-wall">{move || clock_ms(wall())}</dd></div>
                    <div><dt>"Hints"</dt><dd class="challenge-hints">{move || hints.get()}</dd></div>
                    <div><dt>"Healed"</dt><dd class="challenge-healed">{move || format!("{} of {patients}", healed.get())}</dd></div>
                    <div><dt>"Cluster time"</dt><dd class="challenge-virtual">{move || clock(cluster_time().as_millis())}</dd></div>
                </dl>
                <div class="challenge-result" role="status">{move || result.get().map(finished)}</div>
                {lesson.steps.iter().enumerate().map(|(index, step)| view! {
                    <article class="step patient">
                        <h2>{step.title.clone()}</h2>
                        <div class="prose" inner_html=markdown::to_html(&step.text)></div>
                        {step.task.as_ref().map(|task| view! {
                            <TaskPanel lab=lab task=task lesson_id=lesson.id.as_str() step=index on_done=on_done on_hint=on_hint />
                        })}
                    </article>
                }).collect_view()}
                <p class="challenge-links">
                    <a href=Route::Challenge(None).href()>"New patients"</a>
                    " · the same patients again: reload this page"
                </p>
            </div>
            <LabView lab=lab />
        </div>
    }
}

fn finished(result: ChallengeResult) -> impl IntoView {
    let penalty = if result.hints == 0 {
        String::new()
    } else {
        format!(" + {} for hints", clock_ms((result.hints * 60_000) as f64))
    };
    view! {
        <p class="challenge-score">
            {format!(
                "✓ All healed in {}{penalty}: score {}. The cluster lived {} of its own time.",
                clock_ms(result.wall_ms as f64),
                clock_ms((result.score() * 1000) as f64),
                clock(result.virtual_ms),
            )}
        </p>
    }
}

/// `m:ss` of wall milliseconds.
fn clock_ms(ms: f64) -> String {
    clock(ms.max(0.0) as u64)
}

fn clock(ms: u64) -> String {
    lifecycle_chart::clock(SimTime::from_millis(ms))
}
