//! The traffic panel: start and stop the traffic generator on a Service, a bar per second of
//! the last minute (successes stacked by version, failures in red on top), and each Service
//! drawn as Service → EndpointSlice → pods, every endpoint coloured by its state (ready,
//! serving while terminating, not ready), so a rollout's dropped requests can be watched.

use crate::lab::lab_handle::LabHandle;
use kubelab_core::view::traffic::{SHOWN_SECONDS, SecondBar, ServiceLinks, TrafficView};
use leptos::prelude::*;

/// Bar colours by version order; failures are always red.
const VERSION_COLOURS: [&str; 6] = ["#2f6fde", "#1f9d74", "#b36b00", "#8a4fd3", "#c2417a", "#4c7a8c"];
const FAILED_COLOUR: &str = "#d23f31";
const CHART_WIDTH: f64 = 600.0;
const CHART_HEIGHT: f64 = 140.0;

#[component]
pub fn TrafficPanel(lab: LabHandle) -> impl IntoView {
    let view = move || lab.with(|session| session.traffic());
    let rps = RwSignal::new("100".to_string());
    let chosen = RwSignal::new(String::new());
    let outcome: RwSignal<Option<(String, bool)>> = RwSignal::new(None);
    let run = move |command: String| {
        if let Some(entry) = lab.run_typed(&command) {
            outcome.set(Some((entry.output.trim_end().to_string(), entry.succeeded)));
        }
    };
    let start = move |_| {
        let services = view().services;
        let picked = chosen.get();
        let service = services.iter().find(|s| s.name == picked).or(services.first());
        if let Some(service) = service {
            run(format!("lab traffic start svc/{} -n {} --rps {}", service.name, service.namespace, rps.get().trim()));
        }
    };
    view! {
        <Show when=move || { let v = view(); !v.services.is_empty() || v.target.is_some() }>
            <section class="traffic-panel" aria-labelledby="traffic-heading">
                <h2 id="traffic-heading">"Traffic"</h2>
                <p class="cluster-hint">"Clients on every node send requests to a Service through their node's kube-proxy rules. Each bar is one second: successes by the version that answered, failures in red."</p>
                <div class="traffic-controls">
                    <label>"Service "
                        <select aria-label="Service" on:change=move |ev| chosen.set(event_target_value(&ev))>
                            {move || view().services.into_iter().map(|s| view! { <option value=s.name.clone()>{s.name.clone()}</option> }).collect_view()}
                        </select>
                    </label>
                    <label>" requests/s "<input type="number" min="1" max="100000" aria-label="Requests per second" prop:value=move || rps.get() on:input=move |ev| rps.set(event_target_value(&ev)) /></label>
                    <button type="button" class="traffic-start" on:click=start>"Start"</button>
                    <button type="button" class="traffic-stop" disabled=move || !view().running on:click=move |_| run("lab traffic stop".into())>"Stop"</button>
                </div>
                {move || outcome.get().map(|(message, ok)| view! { <pre class="drop-outcome" class:refused=!ok>{message}</pre> })}
                {move || chart(view())}
                <div class="service-links">{move || view().services.into_iter().map(service_links).collect_view()}</div>
            </section>
        </Show>
    }
}

fn chart(view: TrafficView) -> impl IntoView {
    let target = view.target.clone()?;
    let peak = view.seconds.iter().map(|s| s.ok.iter().sum::<u32>() + s.failed).max().unwrap_or(0).max(1);
    let slot = CHART_WIDTH / SHOWN_SECONDS as f64;
    let bars = view
        .seconds
        .iter()
        .cloned()
        .enumerate()
        .map(|(i, second)| bar(i as f64 * slot, slot, peak, second))
        .collect_view();
    let legend = view
        .versions
        .iter()
        .enumerate()
        .map(|(i, v)| view! { <li><span class="swatch" style=format!("background:{}", colour(i))></span>{v.clone()}</li> })
        .collect_view();
    let state = if view.running { "running" } else { "stopped" };
    let summary = format!("{target}, {state}: {} ok, {} failed", view.total_ok, view.total_failed);
    Some(view! {
        <figure class="traffic-chart" data-ok=view.total_ok data-failed=view.total_failed data-running=view.running.to_string()>
            <svg viewBox=format!("0 0 {CHART_WIDTH} {CHART_HEIGHT}") role="img" aria-label=summary.clone()>
                <line x1="0" y1=CHART_HEIGHT x2=CHART_WIDTH y2=CHART_HEIGHT class="axis" />
                {bars}
            </svg>
            <figcaption>
                <span class="traffic-summary">{summary}</span>
                <ul class="traffic-legend">{legend}<li><span class="swatch" style=format!("background:{FAILED_COLOUR}")></span>"failed"</li></ul>
            </figcaption>
        </figure>
    })
}

fn colour(index: usize) -> &'static str {
    VERSION_COLOURS[index % VERSION_COLOURS.len()]
}

/// One second: its versions' successes stacked from the bottom, its failures on top.
fn bar(x: f64, width: f64, peak: u32, second: SecondBar) -> impl IntoView {
    let scale = CHART_HEIGHT / f64::from(peak);
    let mut y = CHART_HEIGHT;
    let mut parts = Vec::new();
    for (i, count) in second.ok.iter().enumerate().filter(|(_, c)| **c > 0) {
        let height = f64::from(*count) * scale;
        y -= height;
        parts.push((y, height, colour(i), false));
    }
    if second.failed > 0 {
        let height = f64::from(second.failed) * scale;
        y -= height;
        parts.push((y, height, FAILED_COLOUR, true));
    }
    let title = format!("{}s: {} ok, {} failed", second.at, second.ok.iter().sum::<u32>(), second.failed);
    let rects = parts
        .into_iter()
        .map(|(y, height, fill, failed)| {
            view! { <rect x=x + 0.5 y=y width=(width - 1.0).max(1.0) height=height fill=fill class:failed=failed /> }
        })
        .collect_view();
    view! { <g class="second" data-failed=second.failed><title>{title}</title>{rects}</g> }
}

fn service_links(service: ServiceLinks) -> impl IntoView {
    let slices = service
        .slices
        .into_iter()
        .map(|slice| {
            let endpoints = slice
                .endpoints
                .into_iter()
                .map(|e| view! { <li class=format!("endpoint {}", e.state) data-state=e.state title=format!("{} · {}", e.ip, e.state)>{e.pod}</li> })
                .collect_view();
            view! { <div class="slice"><span class="slice-name">{format!("→ {}", slice.name)}</span><ul class="endpoints">{endpoints}</ul></div> }
        })
        .collect_view();
    view! {
        <article class="service-link" data-service=service.name.clone()>
            <h3>{format!("svc/{} · {}", service.name, service.cluster_ip)}</h3>
            {slices}
        </article>
    }
}
