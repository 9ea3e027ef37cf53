//! One lesson step as the learner reads it: its prose, its commands as buttons that run in the
//! terminal, then its prediction, its task and its lifecycle chart.

use crate::lab::lab_handle::LabHandle;
use crate::lab::lifecycle_chart::LifecycleChartView;
use crate::lesson::markdown;
use crate::lesson::prediction_panel::PredictionPanel;
use crate::lesson::task_panel::TaskPanel;
use kubelab_core::lesson::Lesson;
use leptos::prelude::*;

#[component]
pub fn StepPanel(lab: LabHandle, lesson: &'static Lesson, index: usize) -> impl IntoView {
    let Some(step) = lesson.steps.get(index) else {
        return view! { <p class="error-panel">"This lesson has no step "{index + 1}"."</p> }.into_any();
    };
    let commands = (!step.commands.is_empty()).then(|| {
        view! {
            <div class="commands" role="group" aria-label="Commands to try">
                {step.commands.iter().map(|command| {
                    let run = command.clone();
                    view! {
                        <button type="button" class="command" on:click=move |_| { lab.run_typed(&run); }>
                            <code>{command.clone()}</code>
                        </button>
                    }
                }).collect_view()}
            </div>
        }
    });
    view! {
        <article class="step" aria-labelledby="step-heading">
            <h2 id="step-heading" tabindex="-1">{step.title.clone()}</h2>
            <div class="prose" inner_html=markdown::to_html(&step.text)></div>
            {commands}
            {step.prediction.as_ref().map(|prediction| view! { <PredictionPanel lab=lab prediction=prediction step=index /> })}
            {step.task.as_ref().map(|task| view! { <TaskPanel lab=lab task=task lesson_id=lesson.id.as_str() step=index /> })}
            {step.chart.as_ref().map(|chart| view! {
                <LifecycleChartView lab=lab selector=chart.selector.clone()
                    namespace=chart.namespace.clone().unwrap_or_else(|| "default".into()) caption=chart.caption.clone() />
            })}
        </article>
    }
    .into_any()
}
