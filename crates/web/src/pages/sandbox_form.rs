//! The sandbox's "new lab" form: a cluster size and a starting scenario. Starting opens
//! `#/sandbox?nodes=…&scenario=…` afresh, so the choice is in the address (and its permalink).

use crate::pages::sandbox_setup::{self, SIZES, Scenario};
use leptos::prelude::*;

#[component]
pub fn SandboxForm(nodes: usize, started_with: Scenario) -> impl IntoView {
    let size = RwSignal::new(nodes);
    let scenario = RwSignal::new(started_with);
    let start = move |_| {
        let hash = sandbox_setup::start_hash(size.get_untracked(), scenario.get_untracked());
        if let Some(location) = web_sys::window().map(|w| w.location()) {
            let _ = location.set_hash(&hash);
            let _ = location.reload();
        }
    };
    view! {
        <form class="sandbox-form" on:submit=move |ev| { ev.prevent_default(); start(()); }>
            <label>"Nodes "
                <select id="sandbox-nodes" on:change=move |ev| size.set(event_target_value(&ev).parse().unwrap_or(3))>
                    {SIZES.iter().map(|n| view! { <option value=n.to_string() selected=*n == nodes>{n.to_string()}</option> }).collect_view()}
                </select>
            </label>
            <label>" Start with "
                <select id="sandbox-scenario" on:change=move |ev| scenario.set(Scenario::parse(&event_target_value(&ev)).unwrap_or(Scenario::Empty))>
                    {Scenario::ALL.iter().map(|s| view! { <option value=s.name() selected=*s == started_with>{s.label()}</option> }).collect_view()}
                </select>
            </label>
            <button type="submit" id="sandbox-start">"New sandbox"</button>
        </form>
    }
}
