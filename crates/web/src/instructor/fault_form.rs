//! "Push a fault to the class": a preset or a typed `lab …` line, sent with
//! `POST /api/classes/{id}/faults`; the answer says how many learners' labs received it.

use crate::instructor::dashboard_model::FAULT_PRESETS;
use crate::pages::error_panel::FormError;
use crate::server::api_client;
use leptos::prelude::*;
use leptos::task::spawn_local;
use serde::{Deserialize, Serialize};

#[derive(Serialize)]
struct Fault {
    command: String,
}

#[derive(Deserialize)]
struct Delivered {
    delivered: u64,
}

#[component]
pub fn FaultForm(class_id: String) -> impl IntoView {
    let command = RwSignal::new(FAULT_PRESETS[0].1.to_string());
    let error = RwSignal::new(None::<String>);
    let status = RwSignal::new(String::new());
    let path = format!("/api/classes/{}/faults", api_client::path_segment(&class_id));
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let body = Fault { command: command.get_untracked().trim().to_string() };
        let path = path.clone();
        spawn_local(async move {
            match api_client::send_json::<_, Delivered>("POST", &path, &body).await {
                Ok(answer) => {
                    error.set(None);
                    status.set(delivered_text(&body.command, answer.delivered));
                }
                Err(problem) => {
                    status.set(String::new());
                    error.set(Some(problem.detail));
                }
            }
        });
    };
    view! {
        <form class="card-form fault-form" on:submit=submit aria-labelledby="fault-heading">
            <h2 id="fault-heading">"Push a fault to the class"</h2>
            <div class="presets" role="group" aria-label="Presets">
                {FAULT_PRESETS.iter().map(|(label, line)| view! {
                    <button type="button" class="preset" on:click=move |_| command.set(line.to_string())>{*label}</button>
                }).collect_view()}
            </div>
            <label for="fault-command">"Command (any "<code>"lab …"</code>" line)"</label>
            <input id="fault-command" required autocomplete="off" spellcheck="false"
                prop:value=command on:input=move |ev| command.set(event_target_value(&ev)) />
            <button type="submit">"Push to every connected learner"</button>
            <p class="fault-status" role="status">{move || status.get()}</p>
            <FormError error=error />
        </form>
    }
}

fn delivered_text(command: &str, delivered: u64) -> String {
    let learners = if delivered == 1 { "1 learner".to_string() } else { format!("{delivered} learners") };
    format!("Sent “{command}” to {learners}.")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn says_how_many_labs_received_it() {
        assert_eq!(delivered_text("lab node power-off node-2", 1), "Sent “lab node power-off node-2” to 1 learner.");
        assert_eq!(delivered_text("x", 0), "Sent “x” to 0 learners.");
    }
}
