//! The live lab, as lessons and the sandbox show it: the terminal, controls that let cluster
//! time pass, and the cluster view. A timeline and manifest editor will join them here.

use crate::cluster_view::ClusterView;
use crate::lab_handle::LabHandle;
use crate::terminal::Terminal;
use leptos::prelude::*;

/// How far each "advance time" button moves the clock, as `sleep` spells it.
const STEPS: [(&str, &str); 3] = [("+1s", "1s"), ("+10s", "10s"), ("+1m", "1m")];

#[component]
pub fn LabView(lab: LabHandle) -> impl IntoView {
    view! {
        <section class="lab" aria-label="Lab">
            <Terminal lab=lab />
            <div class="time-controls" role="group" aria-label="Advance cluster time">
                <span class="time-label">"Let time pass:"</span>
                {STEPS
                    .iter()
                    .map(|(label, duration)| {
                        let command = format!("sleep {duration}");
                        view! {
                            <button type="button" aria-label=format!("Advance time by {duration}")
                                on:click=move |_| lab.run_typed(&command)>{*label}</button>
                        }
                    })
                    .collect_view()}
            </div>
            <ClusterView lab=lab />
        </section>
    }
}
