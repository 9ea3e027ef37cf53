//! `#/lesson/<id>`: the lesson's steps on the left, its live lab on the right, and controls to
//! move between steps. Leaving a step that has no task marks it done. For a learner in a class
//! it also reports progress, saves the lab, takes the instructor's faults and resumes where the
//! learner left off.

use crate::engine::Engine;
use crate::lab::lab_handle::LabHandle;
use crate::lab::lab_view::LabView;
use crate::lab::shared_lab;
use crate::learner::lab_sync;
use crate::learner::live_faults::LiveFaults;
use crate::learner::progress_event::ProgressKind;
use crate::learner::progress_sync::LessonReporter;
use crate::lesson::lessons::catalogue;
use crate::lesson::progress;
use crate::lesson::quiz_panel::QuizPanel;
use crate::lesson::step_panel::StepPanel;
use crate::pages::error_panel::ErrorPanel;
use crate::server::server_context::ServerContext;
use kubelab_core::lesson::Lesson;
use leptos::prelude::*;

#[component]
pub fn LessonPage(id: String, engine: &'static dyn Engine) -> impl IntoView {
    let Some(lesson) = catalogue().find(&id) else {
        return view! { <ErrorPanel title="No such lesson".to_string() message=format!("There is no lesson called “{id}”.") /> }
            .into_any();
    };
    match engine.lesson_lab(lesson) {
        Ok(session) => view! { <LessonView lesson=lesson lab=shared_lab::open(session) /> }.into_any(),
        Err(message) => {
            view! { <ErrorPanel title="This lesson's lab did not start".to_string() message=message /> }.into_any()
        }
    }
}

#[component]
fn LessonView(lesson: &'static Lesson, lab: LabHandle) -> impl IntoView {
    let step = RwSignal::new(0usize);
    let count = lesson.steps.len();
    let reporter = LessonReporter::new(&lesson.id);
    provide_context(reporter);
    connect_to_class(lesson, lab, step);
    // Each visit to a step is its own event (the visit's time is its item), so the dashboard
    // shows where the learner is now, also after going back; a retry of one visit stays one.
    Effect::new(move |_| {
        let visit = format!("visit-{}", js_sys::Date::now() as u64);
        reporter.report(step.get(), ProgressKind::StepOpened, Some(&visit), None)
    });
    let go = move |to: usize| {
        let from = step.get_untracked();
        if lesson.steps.get(from).is_some_and(|s| s.task.is_none()) && to > from {
            progress::mark_done(&lesson.id, from);
            reporter.report(from, ProgressKind::StepCompleted, None, None);
        }
        step.set(to.min(count.saturating_sub(1)));
        request_animation_frame(focus_step_heading);
    };
    view! {
        <div class="lesson-layout">
            <div class="lesson-steps">
                <p class="breadcrumb"><a href="#/">"Lessons"</a>" › "{lesson.title.clone()}</p>
                <h1>{lesson.title.clone()}</h1>
                {move || view! { <StepPanel lab=lab lesson=lesson index=step.get() /> }}
                <nav class="step-nav" aria-label="Steps">
                    <button type="button" disabled={move || step.get() == 0} on:click=move |_| go(step.get_untracked().saturating_sub(1))>
                        "← Previous"
                    </button>
                    <span class="step-count">{move || format!("Step {} of {count}", step.get() + 1)}</span>
                    <button type="button" disabled={move || step.get() + 1 >= count} on:click=move |_| go(step.get_untracked() + 1)>
                        "Next →"
                    </button>
                </nav>
                <Show when=move || step.get() + 1 == count && !lesson.quiz.is_empty()>
                    <QuizPanel lab=lab lesson=lesson />
                </Show>
            </div>
            <LabView lab=lab />
        </div>
    }
}

/// For a learner in a class: saves the lab as it changes, lets the instructor's faults run in
/// it, and opens the step where the learner left off (once, when the server says where).
fn connect_to_class(lesson: &'static Lesson, lab: LabHandle, step: RwSignal<usize>) {
    let Some(server) = ServerContext::get() else { return };
    lab_sync::save_while_open(lab, server);
    if let Some(faults) = LiveFaults::get() {
        faults.register(lab);
    }
    Effect::new(move |_| {
        let Some(resume) = server.resume.get() else { return };
        if resume.lesson == lesson.id {
            server.resume.set(None);
            step.set(resume.step.min(lesson.steps.len().saturating_sub(1)));
        }
    });
}

/// Moves keyboard focus to the new step's heading, so screen readers start reading there.
fn focus_step_heading() {
    let heading = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("step-heading"));
    if let Some(heading) = heading.and_then(|h| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(h).ok()) {
        let _ = heading.focus();
    }
}
