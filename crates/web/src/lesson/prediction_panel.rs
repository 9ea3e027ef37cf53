//! "What will happen?": the learner picks a choice, the lab runs the prediction's script, and
//! the choice whose check now passes is the answer, graded by what the simulator did. In a
//! class, the learner's choice is reported so the instructor sees how the class answered.

use crate::lab::lab_handle::LabHandle;
use crate::learner::progress_event::ProgressKind;
use crate::learner::progress_sync::LessonReporter;
use crate::lesson::markdown;
use kubelab_core::lesson::Prediction;
use leptos::prelude::*;

#[component]
pub fn PredictionPanel(lab: LabHandle, prediction: &'static Prediction, step: usize) -> impl IntoView {
    let chosen = RwSignal::new(None::<usize>);
    // The right choice once revealed (None inside: no choice's check passed).
    let answer = RwSignal::new(None::<Option<usize>>);
    let reporter = LessonReporter::get();
    let reveal = move |_| {
        if answer.get_untracked().is_some() {
            return;
        }
        let choice = chosen.get_untracked().and_then(|i| prediction.choices.get(i));
        if let (Some(reporter), Some(choice)) = (reporter, choice) {
            reporter.report(step, ProgressKind::PredictionAnswered, Some("prediction"), Some(&choice.text));
        }
        lab.run(&prediction.run);
        let right = lab.peek(|session| prediction.choices.iter().position(|c| session.check(&c.check).passed));
        answer.set(Some(right));
    };
    let group = format!("prediction-{step}");

    view! {
        <section class="prediction" aria-labelledby="prediction-heading">
            <h3 id="prediction-heading">"Predict"</h3>
            <fieldset disabled=move || answer.get().is_some()>
                <legend class="prose" inner_html=markdown::to_html(&prediction.question)></legend>
                {prediction.choices.iter().enumerate().map(|(i, choice)| {
                    let id = format!("{group}-{i}");
                    view! {
                        <div class="choice">
                            <input type="radio" id=id.clone() name=group.clone()
                                prop:checked=move || chosen.get() == Some(i)
                                on:change=move |_| chosen.set(Some(i)) />
                            <label for=id>{choice.text.clone()}</label>
                        </div>
                    }
                }).collect_view()}
            </fieldset>
            <button type="button" disabled=move || chosen.get().is_none() || answer.get().is_some() on:click=reveal>
                "Run it and see"
            </button>
            <div class="prediction-result" role="status">
                {move || answer.get().map(|right| verdict(prediction, chosen.get(), right))}
            </div>
        </section>
    }
}

fn verdict(prediction: &'static Prediction, chosen: Option<usize>, right: Option<usize>) -> impl IntoView {
    let text = match (chosen, right) {
        (Some(c), Some(r)) if c == r => "✓ You were right.".to_string(),
        (_, Some(r)) => format!("✕ Not quite: the answer was “{}”.", prediction.choices[r].text),
        (_, None) => "The lab did something none of the choices describe.".to_string(),
    };
    let right_class = chosen.is_some() && chosen == right;
    view! {
        <p class="prediction-verdict" class:right=right_class>{text}</p>
        {prediction.explanation.as_ref().map(|e| view! { <div class="prose" inner_html=markdown::to_html(e)></div> })}
    }
}
