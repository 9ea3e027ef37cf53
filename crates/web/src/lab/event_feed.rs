//! The newest Kubernetes Events under the cluster view (`view::event_feed`), in a polite live
//! region so a screen reader hears what the cluster did after each command or clock tick.

use crate::lab::lab_handle::LabHandle;
use leptos::prelude::*;

/// How many events the feed shows.
const SHOWN: usize = 6;

#[component]
pub fn EventFeed(lab: LabHandle) -> impl IntoView {
    let lines = move || lab.with(|session| session.recent_events(SHOWN));
    view! {
        <section class="event-feed" aria-labelledby="events-heading">
            <h3 id="events-heading">"Recent events"</h3>
            <ol aria-live="polite" aria-relevant="additions">
                {move || lines().into_iter().map(|e| view! {
                    <li class:warning=e.warning>
                        <span class="event-age">{e.last_seen}</span>
                        <span class="event-reason">{e.reason}</span>
                        <span class="event-object">{e.object}</span>
                        <span class="event-message">{e.message}</span>
                    </li>
                }).collect_view()}
            </ol>
        </section>
    }
}
