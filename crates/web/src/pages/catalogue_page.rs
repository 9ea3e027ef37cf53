//! `#/`: every lesson in order with its summary, length, level and the learner's progress,
//! and an error panel for any bundled lesson file that did not parse.

use crate::lesson::lessons::{BrokenLesson, catalogue};
use crate::lesson::markdown;
use crate::lesson::progress;
use crate::pages::error_panel::ErrorPanel;
use crate::pages::route::Route;
use kubelab_core::lesson::{Lesson, Level};
use leptos::prelude::*;

#[component]
pub fn CataloguePage() -> impl IntoView {
    let catalogue = catalogue();
    view! {
        <h1>"Lessons"</h1>
        <p class="lede">"Each lesson runs a simulated cluster right here in your browser. Break it, and watch it heal."</p>
        {catalogue.broken.iter().map(|broken| view! {
            <ErrorPanel title=format!("The lesson file {} could not be read", broken.file)
                message=where_broken(broken) />
        }).collect_view()}
        <ol class="catalogue">
            {catalogue.lessons.iter().map(lesson_card).collect_view()}
        </ol>
        <p class="challenge-invite">
            <a href=Route::Challenge(None).href()>"Take the pod doctor challenge"</a>
            ": three broken Deployments drawn at random, healed against the clock."
        </p>
    }
}

/// Where and why a lesson file broke; a format error read from JSON has no line of the file.
fn where_broken(broken: &BrokenLesson) -> String {
    match broken.line {
        0 => format!("{} (`kubelab lessons check lessons/` names the line)", broken.message),
        line => format!("line {line}, column {}: {}", broken.column, broken.message),
    }
}

fn lesson_card(lesson: &'static Lesson) -> impl IntoView {
    let done = progress::done_steps(&lesson.id).iter().filter(|step| **step < lesson.steps.len()).count();
    let total = lesson.steps.len();
    view! {
        <li class="lesson-card" class:finished=(done == total && total > 0)>
            <h2><a href=Route::Lesson(lesson.id.clone()).href()>{lesson.title.clone()}</a></h2>
            <div class="prose summary" inner_html=markdown::to_html(&lesson.summary)></div>
            <p class="meta">
                <span>{format!("{} min", lesson.minutes)}</span>
                <span>{level_name(lesson.level)}</span>
                <span class="progress-text">{format!("{done} of {total} steps done")}</span>
            </p>
            <progress max=total value=done aria-label=format!("Progress in {}", lesson.title)></progress>
        </li>
    }
}

fn level_name(level: Level) -> &'static str {
    match level {
        Level::Beginner => "Beginner",
        Level::Intermediate => "Intermediate",
        Level::Advanced => "Advanced",
    }
}
