//! The cluster's clock: virtual time since the lab began, pause, step to the next scheduled
//! event, run at 1×, 10× or 60× wall time, and jumps of +10s / +1m. A running clock ticks every
//! `TICK_MS` of wall time; each tick becomes part of one `sleep` in the timeline (see
//! `LabSession::pass_time`), so replays and permalinks see exactly the time that passed.

use crate::lab::lab_handle::LabHandle;
use crate::lab::timeline::sleep_line;
use kubelab_core::sim::time::Duration;
use leptos::prelude::*;

/// Wall milliseconds between ticks of a running clock.
const TICK_MS: u64 = 250;
/// The speeds offered, in virtual seconds per wall second.
const SPEEDS: [u32; 3] = [1, 10, 60];
/// Jumps that run as typed `sleep` lines (they show in the transcript).
const JUMPS: [&str; 2] = ["10s", "1m"];

#[component]
pub fn ClockControls(lab: LabHandle) -> impl IntoView {
    start_ticking(lab);
    let now = move || lab.with(|session| session.now());
    let scrubbed = move || lab.with(|session| session.past_position().is_some());
    let step = move |_| match lab.peek(|session| session.until_next_event()) {
        Some(wait) => {
            lab.speed.set(0);
            lab.run_typed(&sleep_line(wait));
        }
        None => lab.announce("Nothing is scheduled: the cluster is at rest until something changes."),
    };
    view! {
        <div class="clock" role="group" aria-label="Cluster clock">
            <span class="clock-time" aria-label="Cluster time since the lab began">"t = "{move || now().to_string()}</span>
            <button type="button" class="clock-pause" aria-pressed=move || (lab.speed.get() == 0).to_string()
                disabled=scrubbed on:click=move |_| lab.speed.set(0)>"Pause"</button>
            <button type="button" class="clock-step" disabled=scrubbed on:click=step
                title="Let time pass until the next scheduled event">"Step"</button>
            {SPEEDS.iter().map(|speed| speed_button(lab, *speed, scrubbed)).collect_view()}
            {JUMPS.iter().map(|jump| jump_button(lab, jump, scrubbed)).collect_view()}
            <span class="clock-progress" role="status">{move || lab.sliced.progress.get()}</span>
        </div>
    }
}

fn speed_button(lab: LabHandle, speed: u32, scrubbed: impl Fn() -> bool + Send + Sync + 'static) -> impl IntoView {
    view! {
        <button type="button" class="clock-speed" aria-pressed=move || (lab.speed.get() == speed).to_string()
            aria-label=format!("Run the clock at {speed} times real time") disabled=scrubbed
            on:click=move |_| lab.speed.set(speed)>{format!("{speed}×")}</button>
    }
}

fn jump_button(
    lab: LabHandle,
    jump: &'static str,
    scrubbed: impl Fn() -> bool + Send + Sync + 'static,
) -> impl IntoView {
    view! {
        <button type="button" class="clock-jump" aria-label=format!("Advance time by {jump}") disabled=scrubbed
            on:click=move |_| { lab.run_typed(&format!("sleep {jump}")); }>{format!("+{jump}")}</button>
    }
}

/// Ticks while the page lives; a paused clock (speed 0) costs one cheap check per tick.
/// Leaving the page clears the interval; a tick that still finds the lab gone does nothing.
fn start_ticking(lab: LabHandle) {
    let tick = move || {
        let Some(speed) = lab.speed.try_get_untracked() else { return };
        // A sliced sleep owns the clock until it is done.
        if speed > 0 && !lab.sliced.busy() {
            lab.pass_time(Duration::from_millis(TICK_MS * u64::from(speed)));
        }
    };
    if let Ok(handle) = set_interval_with_handle(tick, std::time::Duration::from_millis(TICK_MS)) {
        on_cleanup(move || handle.clear());
    }
}
