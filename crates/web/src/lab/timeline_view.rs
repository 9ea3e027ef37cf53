//! The timeline under the terminal: every command and stretch of clock time in order, with
//! the virtual time it ran at, and a scrubber. Moving back shows the cluster as it was
//! (rebuilt by `Timeline::rebuild`) and makes the lab read-only; "Fork from here" drops what
//! came later and carries on from that point, "Back to now" returns.

use crate::lab::lab_handle::LabHandle;
use crate::lab::lab_session::Entry;
use crate::lab::timeline::Moment;
use kubelab_core::sim::time::SimTime;
use leptos::prelude::*;

/// The newest moments listed; the scrubber still reaches every one.
const LISTED: usize = 60;

#[component]
pub fn TimelineView(lab: LabHandle) -> impl IntoView {
    let length = move || lab.with(|session| session.timeline().len());
    let position = move || lab.with(|session| session.past_position().unwrap_or(session.timeline().len()));
    let scrubbed = move || lab.with(|session| session.past_position().is_some());
    let list_ref = NodeRef::<leptos::html::Ol>::new();
    // Keeps the newest entry in view as entries arrive, as the terminal does.
    Effect::new(move |_| {
        length();
        if let Some(list) = list_ref.get() {
            // After the list's own redraw, which may run after this effect.
            request_animation_frame(move || list.set_scroll_top(list.scroll_height()));
        }
    });
    let on_input = move |ev: leptos::ev::Event| {
        if let Ok(to) = event_target_value(&ev).parse::<usize>() {
            scrub(lab, to);
        }
    };
    view! {
        <section class="timeline" aria-labelledby="timeline-heading">
            <h2 id="timeline-heading">"Timeline"</h2>
            <div class="timeline-bar">
                <input type="range" id="timeline-scrubber" min="0" max=move || length().to_string()
                    prop:value=move || position().to_string() aria-label="Point in the lab's history"
                    aria-valuetext=move || status(lab) on:input=on_input />
                <button type="button" class="timeline-now" disabled=move || !scrubbed()
                    on:click=move |_| back_to_now(lab)>"Back to now"</button>
                <button type="button" class="timeline-fork" disabled=move || !scrubbed()
                    on:click=move |_| fork(lab)>"Fork from here"</button>
            </div>
            <p class="timeline-status" class:scrubbed=scrubbed>{move || status(lab)}</p>
            <ol class="timeline-list" node_ref=list_ref start=move || (length().saturating_sub(LISTED) + 1).to_string()>
                {move || moments(lab, position())}
            </ol>
        </section>
    }
}

/// "Showing the cluster after 3 of 7 commands (t=1m30s) — read-only", or the present.
fn status(lab: LabHandle) -> String {
    lab.with(|session| {
        let total = session.timeline().len();
        let at = session.now();
        match session.past_position() {
            Some(position) => {
                format!("Showing the past: after {position} of {total} entries (t={at}). The lab is read-only.")
            }
            None => format!("Live: {total} entries, t={at}."),
        }
    })
}

fn moments(lab: LabHandle, position: usize) -> impl IntoView {
    let listed: Vec<(usize, Moment)> = lab.with(|session| {
        let all = session.timeline().moments();
        let first = all.len().saturating_sub(LISTED);
        all[first..].iter().cloned().enumerate().map(|(i, m)| (first + i, m)).collect()
    });
    listed
        .into_iter()
        .map(|(index, moment)| {
            let label =
                format!("t={} {}", moment.started_at.since(SimTime::ZERO), moment.script.lines().next().unwrap_or(""));
            view! {
                <li class:future={index >= position} class:failed={!moment.succeeded} class:clock={moment.clock}>
                    <button type="button" class="timeline-moment" title="Show the cluster right after this"
                        on:click=move |_| scrub(lab, index + 1)>{label}</button>
                </li>
            }
        })
        .collect_view()
}

fn scrub(lab: LabHandle, to: usize) {
    lab.speed.set(0);
    lab.update(|session| session.scrub_to(to));
    lab.announce(status(lab));
}

fn back_to_now(lab: LabHandle) {
    lab.update(|session| session.back_to_now());
    lab.announce("Back to the present.");
}

fn fork(lab: LabHandle) {
    let position = lab.peek(|session| session.past_position());
    lab.update(|session| session.fork());
    if let Some(position) = position {
        let note = format!("# forked: the lab continues from entry {position}; later entries were dropped\n");
        lab.show(vec![Entry { command: "# fork".into(), output: note, succeeded: true }]);
        lab.announce(format!("Forked from entry {position}. The lab is live again."));
    }
}
