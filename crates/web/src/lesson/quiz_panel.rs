//! The lesson's closing quiz, shown after its last step: one question at a time graded on
//! submit by the lesson's own `correct` flags, each choice's explanation shown once answered,
//! answers kept in `localStorage`, and in a class each answer reported as `quiz_answered`.

use crate::learner::progress_event::ProgressKind;
use crate::learner::progress_sync::LessonReporter;
use crate::lesson::markdown;
use crate::lesson::quiz_results;
use kubelab_core::lesson::{Lesson, Question};
use leptos::prelude::*;

#[component]
pub fn QuizPanel(lesson: &'static Lesson) -> impl IntoView {
    let answered = quiz_results::answers(&lesson.id);
    let score = RwSignal::new(answered.iter().filter(|(q, c)| is_correct(lesson, **q, **c)).count());
    let total = lesson.quiz.len();
    view! {
        <section class="quiz" aria-labelledby="quiz-heading">
            <h2 id="quiz-heading">"Quiz"</h2>
            <p class="quiz-score" role="status">{move || format!("{} of {total} right", score.get())}</p>
            {lesson.quiz.iter().enumerate().map(|(index, question)| {
                let earlier = answered.get(&index).copied();
                view! { <QuizQuestion lesson=lesson index=index question=question earlier=earlier score=score /> }
            }).collect_view()}
        </section>
    }
}

fn is_correct(lesson: &Lesson, question: usize, choice: usize) -> bool {
    lesson.quiz.get(question).and_then(|q| q.choices.get(choice)).is_some_and(|c| c.correct)
}

#[component]
fn QuizQuestion(
    lesson: &'static Lesson,
    index: usize,
    question: &'static Question,
    earlier: Option<usize>,
    score: RwSignal<usize>,
) -> impl IntoView {
    let chosen = RwSignal::new(earlier);
    let submitted = RwSignal::new(earlier);
    let reporter = LessonReporter::get();
    let last_step = lesson.steps.len().saturating_sub(1);
    let submit = move |_| {
        let Some(choice) = chosen.get_untracked() else { return };
        if submitted.get_untracked().is_some() {
            return;
        }
        submitted.set(Some(choice));
        quiz_results::record(&lesson.id, index, choice);
        if question.choices[choice].correct {
            score.update(|score| *score += 1);
        }
        if let Some(reporter) = reporter {
            let item = format!("quiz-{index}");
            reporter.report(last_step, ProgressKind::QuizAnswered, Some(&item), Some(&question.choices[choice].text));
        }
    };
    let group = format!("quiz-{index}");
    view! {
        <div class="quiz-question">
            <fieldset disabled=move || submitted.get().is_some()>
                <legend class="prose" inner_html=markdown::to_html(&format!("{}. {}", index + 1, question.question))></legend>
                {question.choices.iter().enumerate().map(|(i, choice)| {
                    let id = format!("{group}-{i}");
                    view! {
                        <div class="choice" class:right=move || submitted.get().is_some() && choice.correct
                            class:wrong=move || submitted.get() == Some(i) && !choice.correct>
                            <input type="radio" id=id.clone() name=group.clone()
                                prop:checked=move || chosen.get() == Some(i)
                                on:change=move |_| chosen.set(Some(i)) />
                            <label for=id>{choice.text.clone()}</label>
                        </div>
                    }
                }).collect_view()}
            </fieldset>
            <button type="button" disabled=move || chosen.get().is_none() || submitted.get().is_some() on:click=submit>
                "Check answer"
            </button>
            <div class="quiz-result" role="status">
                {move || submitted.get().map(|choice| verdict(question, choice))}
            </div>
        </div>
    }
}

/// Right or not, and why: the chosen choice's explanation, and the right one's when they differ.
fn verdict(question: &'static Question, choice: usize) -> impl IntoView {
    let picked = &question.choices[choice];
    let right = question.choices.iter().find(|c| c.correct);
    let heading = if picked.correct { "✓ Right.".to_string() } else { "✕ Not quite.".to_string() };
    let also = right.filter(|_| !picked.correct).map(|right| {
        view! { <div class="prose" inner_html=markdown::to_html(&format!("**{}** — {}", right.text, right.explanation))></div> }
    });
    view! {
        <p class="quiz-verdict" class:right=picked.correct>{heading}</p>
        <div class="prose" inner_html=markdown::to_html(&picked.explanation)></div>
        {also}
    }
}
