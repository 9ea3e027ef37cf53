//! The lifecycle chart: the pods a selector picks as lanes over virtual time, grouped by the
//! ReplicaSet that owns them; their STATUS as coloured bars, Ready as a green band under the
//! bar, Events as ticks. Drawn in SVG from `view::lifecycle`; every lane is focusable and
//! labelled, and the same history is given as a table for screen readers and for copying.

use crate::lab::lab_handle::LabHandle;
use kubelab_core::sim::time::SimTime;
use kubelab_core::view::lifecycle::{Lane, LifecycleChart, Span};
use leptos::prelude::*;

const WIDTH: f64 = 760.0;
const LABEL: f64 = 230.0;
const LANE: f64 = 26.0;
const GROUP: f64 = 20.0;
/// A chart spans at least this much time, so the first seconds are not stretched across it.
const MIN_SPAN_MS: u64 = 20_000;

#[component]
pub fn LifecycleChartView(
    lab: LabHandle,
    #[prop(into)] selector: String,
    #[prop(into)] namespace: String,
    #[prop(into)] caption: Option<String>,
) -> impl IntoView {
    let (sel, ns) = (selector.clone(), namespace.clone());
    let chart = Memo::new(move |_| lab.with(|session| session.lifecycle(&sel, &ns)));
    let heading = caption.unwrap_or_else(|| format!("Pods with {selector}"));
    let empty = format!("No pods with {selector} yet: they appear here as they are created.");
    view! {
        <figure class="lifecycle" data-selector=selector>
            <figcaption>{heading}</figcaption>
            {move || match chart.get() {
                Err(message) => view! { <p class="error-panel">{message}</p> }.into_any(),
                Ok(chart) if chart.lanes.is_empty() => view! {
                    <p class="lifecycle-empty">{empty.clone()}</p>
                }.into_any(),
                Ok(chart) => view! { {svg(&chart)} {table(&chart)} }.into_any(),
            }}
            <p class="lifecycle-legend" aria-hidden="true">
                <span class="swatch state-pending"></span>"Pending / creating "
                <span class="swatch state-running"></span>"Running "
                <span class="swatch state-failing"></span>"Crash-looping / failed "
                <span class="swatch state-terminating"></span>"Terminating "
                <span class="swatch ready"></span>"Ready "
                <span class="swatch tick"></span>"Event"
            </p>
        </figure>
    }
}

/// Where a moment falls on the x axis.
#[derive(Clone, Copy)]
struct Scale {
    start: u64,
    span: u64,
}

impl Scale {
    fn of(chart: &LifecycleChart) -> Scale {
        let start = chart.start.as_millis();
        Scale { start, span: chart.now.as_millis().saturating_sub(start).max(MIN_SPAN_MS) }
    }
    fn x(&self, t: SimTime) -> f64 {
        LABEL + (t.as_millis().saturating_sub(self.start) as f64 / self.span as f64) * (WIDTH - LABEL - 8.0)
    }
}

fn svg(chart: &LifecycleChart) -> impl IntoView {
    let scale = Scale::of(chart);
    let mut y = 4.0;
    let mut owner: Option<&Option<String>> = None;
    let mut rows = Vec::new();
    for lane in &chart.lanes {
        if owner != Some(&lane.owner) {
            owner = Some(&lane.owner);
            let name = lane.owner.clone().unwrap_or_else(|| "(no owner)".into());
            rows.push(view! { <text class="lane-group" x="4" y=y + 14.0>{name}</text> }.into_any());
            y += GROUP;
        }
        rows.push(lane_row(lane, chart.now, scale, y).into_any());
        y += LANE;
    }
    let height = y + 22.0;
    let axis = axis(chart, scale, height - 18.0);
    view! {
        <svg class="lifecycle-chart" viewBox=format!("0 0 {WIDTH} {height}") role="list"
            aria-label=format!("{} pods over time", chart.lanes.len())>
            {axis}
            {rows}
        </svg>
    }
}

fn lane_row(lane: &Lane, now: SimTime, scale: Scale, y: f64) -> impl IntoView {
    let end = |s: &Span| s.to.unwrap_or(now);
    let width = |s: &Span| (scale.x(end(s)) - scale.x(s.from)).max(2.0);
    let bars = lane.states.iter().map(|s| view! {
        <rect class=format!("bar {}", state_class(&s.state)) x=scale.x(s.from) y=y + 3.0 width=width(s) height="12"
            data-state=s.state.clone() data-from=s.from.as_millis() data-seq=s.seq
            data-to=s.to.map(|t| t.as_millis().to_string()).unwrap_or_default()>
            <title>{format!("{} from {}{}", s.state, clock(s.from), until(s.to))}</title>
        </rect>
    }).collect_view();
    let ready = lane
        .ready
        .iter()
        .map(|s| {
            view! {
                <rect class="ready" x=scale.x(s.from) y=y + 16.0 width=width(s) height="4"
                    data-state="Ready" data-from=s.from.as_millis() data-seq=s.seq>
                    <title>{format!("Ready from {}{}", clock(s.from), until(s.to))}</title>
                </rect>
            }
        })
        .collect_view();
    let ticks = lane
        .ticks
        .iter()
        .map(|t| {
            let x = scale.x(t.at);
            view! {
                <line class="tick" class:warning=t.warning x1=x x2=x y1=y y2=y + 22.0 data-reason=t.reason.clone()>
                    <title>{format!("{} {}: {}", clock(t.at), t.reason, t.message)}</title>
                </line>
            }
        })
        .collect_view();
    let short = short_name(&lane.name);
    view! {
        <g class="lane" tabindex="0" role="listitem" aria-label=describe(lane)
            data-pod=lane.name.clone() data-image=lane.image.clone()>
            <text class="lane-label" x="12" y=y + 14.0>{short}" "<tspan class="lane-image">{lane.image.clone()}</tspan></text>
            {bars}
            {ready}
            {ticks}
        </g>
    }
}

fn axis(chart: &LifecycleChart, scale: Scale, y: f64) -> impl IntoView {
    let steps = 5u64;
    let marks = (0..=steps)
        .map(|i| {
            let t = SimTime::from_millis(scale.start + scale.span * i / steps);
            let x = scale.x(t);
            view! {
                <line class="axis-mark" x1=x x2=x y1="0" y2=y></line>
                <text class="axis-label" x=x y=y + 14.0 text-anchor="middle">{clock(t)}</text>
            }
        })
        .collect_view();
    let now = scale.x(chart.now);
    view! {
        {marks}
        <line class="axis-now" x1=now x2=now y1="0" y2=y><title>{format!("now, {}", clock(chart.now))}</title></line>
    }
}

/// The table a screen reader (or a learner copying notes) gets: one row per pod.
fn table(chart: &LifecycleChart) -> impl IntoView {
    let rows = chart
        .lanes
        .iter()
        .map(|lane| {
            let states: Vec<String> = lane.states.iter().map(|s| format!("{} {}", s.state, clock(s.from))).collect();
            let ready: Vec<String> = lane.ready.iter().map(|s| format!("{}{}", clock(s.from), until(s.to))).collect();
            let events: Vec<String> = lane.ticks.iter().map(|t| format!("{} {}", t.reason, clock(t.at))).collect();
            view! {
                <tr>
                    <td>{lane.name.clone()}</td>
                    <td>{lane.image.clone()}</td>
                    <td>{lane.owner.clone().unwrap_or_default()}</td>
                    <td>{states.join(", ")}{lane.gone.map(|g| format!(", gone {}", clock(g)))}</td>
                    <td>{ready.join(", ")}</td>
                    <td>{events.join(", ")}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <details class="lifecycle-table">
            <summary>"The chart as a table"</summary>
            <table>
                <thead><tr><th>"Pod"</th><th>"Image"</th><th>"Owner"</th><th>"STATUS over time"</th><th>"Ready"</th><th>"Events"</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </details>
    }
}

/// What a focused lane says: the pod, its image, where it stands and when it got there.
fn describe(lane: &Lane) -> String {
    let last = lane.states.last().map(|s| format!("{} since {}", s.state, clock(s.from))).unwrap_or_default();
    let ready = match lane.ready.last() {
        Some(r) if r.to.is_none() => format!(", Ready since {}", clock(r.from)),
        _ => ", not Ready".to_string(),
    };
    let gone = lane.gone.map(|g| format!(", gone at {}", clock(g))).unwrap_or_default();
    format!("{} ({}): {last}{ready}{gone}; {} events", lane.name, lane.image, lane.ticks.len())
}

/// The bar colour's class for a STATUS.
pub fn state_class(state: &str) -> &'static str {
    match state {
        "Running" | "Completed" => "state-running",
        "Terminating" => "state-terminating",
        s if s.contains("BackOff") || s.contains("Error") || s.contains("OOMKilled") || s == "Failed" => {
            "state-failing"
        }
        _ => "state-pending",
    }
}

/// `m:ss` of virtual time since the lab began.
pub fn clock(t: SimTime) -> String {
    let secs = t.as_millis() / 1000;
    format!("{}:{:02}", secs / 60, secs % 60)
}

fn until(to: Option<SimTime>) -> String {
    to.map(|t| format!(" to {}", clock(t))).unwrap_or_else(|| " on".to_string())
}

/// `hello-7bcb9764bd-2prl7` stays whole; only very long names are cut, keeping their tail.
fn short_name(name: &str) -> String {
    const MAX: usize = 28;
    if name.chars().count() <= MAX {
        return name.to_string();
    }
    let tail: String = name.chars().rev().take(MAX - 1).collect::<Vec<_>>().into_iter().rev().collect();
    format!("…{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_map_to_colours_and_times_read_as_a_clock() {
        let classes: Vec<&str> =
            ["ContainerCreating", "Running", "CrashLoopBackOff", "Terminating", "Error"].map(state_class).to_vec();
        assert_eq!(classes, ["state-pending", "state-running", "state-failing", "state-terminating", "state-failing"]);
        assert_eq!(clock(SimTime::from_millis(331_693)), "5:31");
        assert_eq!(short_name("hello-7bcb9764bd-2prl7"), "hello-7bcb9764bd-2prl7");
        assert_eq!(short_name("a-very-long-deployment-name-5d8f9c7b6-abcde").chars().count(), 28);
    }
}
