//! The lesson's closing quiz, shown after its last step: one question at a time, each choice's
//! explanation shown once answered. A plain question is graded by the lesson's `correct` flag;
//! a lab question runs its script in the learner's lab and the choice whose check then passes
//! is right, graded by the simulator like a prediction. Answers are kept in `localStorage`,
//! and in a class each is reported as `quiz_answered`.

use crate::lab::lab_handle::LabHandle;
use crate::learner::progress_event::ProgressKind;
use crate::learner::progress_sync::LessonReporter;
use crate::lesson::markdown;
use crate::lesson::quiz_results::{self, Answer};
use kubelab_core::lesson::{Lesson, Question};
use leptos::prelude::*;

#[component]
pub fn QuizPanel(lab: LabHandle, lesson: &'static Lesson) -> impl IntoView {
    let answered = quiz_results::answers(&lesson.id);
    let right_so_far = answered.iter().filter(|(q, a)| lesson.quiz.get(**q).is_some_and(|q| is_right(q, **a))).count();
    let score = RwSignal::new(right_so_far);
    let total = lesson.quiz.len();
    view! {
        <section class="quiz" aria-labelledby="quiz-heading">
            <h2 id="quiz-heading">"Quiz"</h2>
            <p class="quiz-score" role="status">{move || format!("{} of {total} right", score.get())}</p>
            {lesson.quiz.iter().enumerate().map(|(index, question)| {
                let earlier = answered.get(&index).copied();
                view! { <QuizQuestion lab=lab lesson=lesson index=index question=question earlier=earlier score=score /> }
            }).collect_view()}
        </section>
    }
}

/// The right choice: the one the lab proved (a lab question), or the one marked `correct`.
fn right_choice(question: &Question, answer: Answer) -> Option<usize> {
    answer.right.or_else(|| question.choices.iter().position(|c| c.correct))
}

fn is_right(question: &Question, answer: Answer) -> bool {
    right_choice(question, answer) == Some(answer.choice)
}

/// Grades a choice: a lab question runs its script in the lab first.
fn grade(lab: LabHandle, question: &Question, choice: usize) -> Answer {
    let Some(run) = &question.run else { return Answer { choice, right: None } };
    lab.run(run);
    let passing = |c: &kubelab_core::lesson::QuizChoice| {
        c.check.as_ref().is_some_and(|check| lab.peek(|s| s.check(check).passed))
    };
    Answer { choice, right: question.choices.iter().position(passing) }
}

#[component]
fn QuizQuestion(
    lab: LabHandle,
    lesson: &'static Lesson,
    index: usize,
    question: &'static Question,
    earlier: Option<Answer>,
    score: RwSignal<usize>,
) -> impl IntoView {
    let chosen = RwSignal::new(earlier.map(|a| a.choice));
    let submitted = RwSignal::new(earlier);
    let reporter = LessonReporter::get();
    let last_step = lesson.steps.len().saturating_sub(1);
    let submit = move |_| {
        let Some(choice) = chosen.get_untracked() else { return };
        if submitted.get_untracked().is_some() {
            return;
        }
        let answer = grade(lab, question, choice);
        submitted.set(Some(answer));
        quiz_results::record(&lesson.id, index, answer);
        if is_right(question, answer) {
            score.update(|score| *score += 1);
        }
        if let Some(reporter) = reporter {
            let item = format!("quiz-{index}");
            reporter.report(last_step, ProgressKind::QuizAnswered, Some(&item), Some(&question.choices[choice].text));
        }
    };
    let group = format!("quiz-{index}");
    let right = move || submitted.get().and_then(|a| right_choice(question, a));
    let button = if question.run.is_some() { "Run it and check" } else { "Check answer" };
    view! {
        <div class="quiz-question" class:lab-question=question.run.is_some()>
            <fieldset disabled=move || submitted.get().is_some()>
                <legend class="prose" inner_html=markdown::to_html(&format!("{}. {}", index + 1, question.question))></legend>
                {question.choices.iter().enumerate().map(|(i, choice)| {
                    let id = format!("{group}-{i}");
                    view! {
                        <div class="choice" class:right=move || right() == Some(i)
                            class:wrong=move || submitted.get().is_some_and(|a| a.choice == i) && right() != Some(i)>
                            <input type="radio" id=id.clone() name=group.clone()
                                prop:checked=move || chosen.get() == Some(i)
                                on:change=move |_| chosen.set(Some(i)) />
                            <label for=id>{choice.text.clone()}</label>
                        </div>
                    }
                }).collect_view()}
            </fieldset>
            <button type="button" disabled=move || chosen.get().is_none() || submitted.get().is_some() on:click=submit>
                {button}
            </button>
            <div class="quiz-result" role="status">
                {move || submitted.get().map(|answer| verdict(question, answer))}
            </div>
        </div>
    }
}

/// Right or not, and why: the chosen choice's explanation, and the right one's when they differ.
fn verdict(question: &'static Question, answer: Answer) -> impl IntoView {
    let picked = &question.choices[answer.choice];
    let right = right_choice(question, answer).and_then(|i| question.choices.get(i));
    let correct = is_right(question, answer);
    let heading = match (correct, right) {
        (true, _) => "✓ Right.",
        (false, Some(_)) => "✕ Not quite.",
        (false, None) => "The lab did something none of the choices describe.",
    };
    let also = right.filter(|_| !correct).map(|right| {
        view! { <div class="prose" inner_html=markdown::to_html(&format!("**{}** — {}", right.text, right.explanation))></div> }
    });
    view! {
        <p class="quiz-verdict" class:right=correct>{heading}</p>
        <div class="prose" inner_html=markdown::to_html(&picked.explanation)></div>
        {also}
    }
}
