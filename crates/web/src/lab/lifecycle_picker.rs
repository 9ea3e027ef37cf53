//! "Lifecycle": opens the lifecycle chart for any Deployment in the lab, chosen from a list
//! of the Deployments there now (a lesson places its own charts in its steps).

use crate::lab::lab_handle::LabHandle;
use crate::lab::lifecycle_chart::LifecycleChartView;
use leptos::prelude::*;

#[component]
pub fn LifecyclePicker(lab: LabHandle) -> impl IntoView {
    let choices = Memo::new(move |_| lab.with(|session| session.chartable()));
    // The chosen Deployment, as `namespace/name`.
    let chosen = RwSignal::new(None::<String>);
    let shown = move || {
        let key = chosen.get()?;
        choices.get().into_iter().find(|c| format!("{}/{}", c.namespace, c.name) == key)
    };
    view! {
        <section class="lifecycle-picker" aria-label="Lifecycle chart">
            <label>
                "Lifecycle of "
                <select class="lifecycle-select" on:change=move |ev| {
                    let value = event_target_value(&ev);
                    chosen.set((!value.is_empty()).then_some(value));
                }>
                    <option value="" selected=move || chosen.get().is_none()>"(choose a Deployment)"</option>
                    {move || choices.get().into_iter().map(|c| {
                        let key = format!("{}/{}", c.namespace, c.name);
                        let label = if c.namespace == "default" { c.name.clone() } else { key.clone() };
                        let selected = chosen.get().as_deref() == Some(key.as_str());
                        view! { <option value=key selected=selected>{format!("deployment {label}")}</option> }
                    }).collect_view()}
                </select>
            </label>
            {move || shown().map(|c| view! {
                <LifecycleChartView lab=lab selector=c.selector.clone() namespace=c.namespace.clone()
                    caption=Some(format!("deployment {}: its pods over time, by ReplicaSet", c.name)) />
            })}
        </section>
    }
}
