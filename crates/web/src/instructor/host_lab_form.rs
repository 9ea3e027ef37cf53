//! On the teach page: start a lab the server hosts (a lesson's lab or the sandbox) and open it,
//! to demo live while the class watches at the same address.

use crate::lesson::lessons::catalogue;
use crate::pages::error_panel::FormError;
use crate::pages::route::Route;
use crate::server::api_client;
use leptos::prelude::*;
use leptos::task::spawn_local;
use serde::{Deserialize, Serialize};

#[derive(Serialize)]
struct NewLab {
    lesson: Option<String>,
}

#[derive(Deserialize)]
struct HostedLab {
    id: String,
}

#[component]
pub fn HostLabForm() -> impl IntoView {
    let lesson = RwSignal::new(String::from("sandbox"));
    let error = RwSignal::new(None::<String>);
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let chosen = lesson.get_untracked();
        let body = NewLab { lesson: (chosen != "sandbox").then_some(chosen) };
        spawn_local(async move {
            match api_client::send_json::<_, HostedLab>("POST", "/api/labs", &body).await {
                Ok(lab) => {
                    if let Some(window) = web_sys::window() {
                        let _ = window.location().set_hash(&Route::HostedLab(lab.id).href());
                    }
                }
                Err(problem) => error.set(Some(problem.detail)),
            }
        });
    };
    view! {
        <form class="card-form" on:submit=submit aria-labelledby="host-lab-heading">
            <h2 id="host-lab-heading">"Host a live lab"</h2>
            <p>"The lab runs on this server; everyone who opens its page sees the same cluster, and only you type."</p>
            <label for="host-lab-lesson">"Start from"</label>
            <select id="host-lab-lesson" on:change=move |ev| lesson.set(event_target_value(&ev))>
                <option value="sandbox" selected>"The sandbox (three empty nodes)"</option>
                {catalogue()
                    .lessons
                    .iter()
                    .map(|l| view! { <option value=l.id.clone()>{l.title.clone()}</option> })
                    .collect_view()}
            </select>
            <button type="submit">"Start the lab"</button>
            <FormError error=error />
        </form>
    }
}
