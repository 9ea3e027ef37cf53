//! The autoscaling chart: for each HorizontalPodAutoscaler, its current and desired replicas
//! and the utilisation it measured against its target over virtual time, with each decision's
//! formula `ceil(current × usage / target)` filled in — replicas against load, drawn.

use crate::lab::lab_handle::LabHandle;
use kubelab_core::sim::time::SimTime;
use kubelab_core::view::autoscaling::{AutoscalerLine, Sample};
use leptos::prelude::*;

const WIDTH: f64 = 600.0;
const HEIGHT: f64 = 160.0;
/// The chart spans at least this much time, so its first minutes are not stretched.
const MIN_SPAN_SECONDS: f64 = 120.0;
/// Decisions listed under the chart, newest last.
const LISTED: usize = 6;

#[component]
pub fn AutoscalingChart(lab: LabHandle) -> impl IntoView {
    let view = move || lab.with(|session| session.autoscaling());
    view! {
        <Show when=move || view().lines.iter().any(|l| l.gone.is_none())>
            <section class="autoscaling-panel" aria-labelledby="autoscaling-heading">
                <h2 id="autoscaling-heading">"Autoscaling"</h2>
                <p class="cluster-hint">"Each HorizontalPodAutoscaler, every time it decided: the replicas it found and the ones it chose, the utilisation it measured against its target, and its formula."</p>
                {move || { let v = view(); v.lines.iter().filter(|l| l.gone.is_none()).map(|l| figure(l, v.now)).collect_view() }}
            </section>
        </Show>
    }
}

/// Seconds from the line's start, and the span the chart covers.
struct Axis {
    start: SimTime,
    span: f64,
}

impl Axis {
    fn x(&self, at: SimTime) -> f64 {
        at.since(self.start).as_millis() as f64 / 1000.0 / self.span * WIDTH
    }
}

fn figure(line: &AutoscalerLine, now: SimTime) -> impl IntoView + use<> {
    let axis =
        Axis { start: line.created, span: (now.since(line.created).as_millis() as f64 / 1000.0).max(MIN_SPAN_SECONDS) };
    let samples = &line.samples;
    let peak_replicas =
        samples.iter().map(|s| s.current.max(s.desired)).chain([line.max_replicas]).max().unwrap_or(1).max(1);
    let peak_usage = samples
        .iter()
        .filter_map(|s| s.utilization)
        .chain(line.target_utilization.map(|t| t * 2))
        .max()
        .unwrap_or(100)
        .max(1);
    let replicas_y = |n: i32| HEIGHT - f64::from(n) / f64::from(peak_replicas) * (HEIGHT - 10.0);
    let usage_y = |u: i32| HEIGHT - f64::from(u) / f64::from(peak_usage) * (HEIGHT - 10.0);
    let end = axis.x(now);
    let current = steps(samples, &axis, end, |s| Some(replicas_y(s.current)));
    let desired = steps(samples, &axis, end, |s| Some(replicas_y(s.desired)));
    let usage = steps(samples, &axis, end, |s| s.utilization.map(usage_y));
    let target = line.target_utilization.map(|t| {
        let y = usage_y(t);
        view! { <line class="target" x1="0" y1=y x2=WIDTH y2=y stroke="#9aa0a6" stroke-dasharray="2 3" /> }
    });
    let last = samples.last();
    let (now_current, now_desired) = last.map_or((0, 0), |s| (s.current, s.desired));
    let utilization = last.and_then(|s| s.utilization).map_or("<unknown>".to_string(), |u| format!("{u}%"));
    let target_text = line.target_utilization.map_or("?".to_string(), |t| format!("{t}%"));
    let summary = format!(
        "hpa/{} → {}: {now_current} replicas, desired {now_desired} (min {}, max {}), utilisation {utilization}/{target_text}",
        line.name, line.target, line.min_replicas, line.max_replicas
    );
    let decisions = samples.iter().rev().take(LISTED).rev().map(|s| decision(s, line.created)).collect_view();
    view! {
        <figure class="autoscaling-chart" data-hpa=line.name.clone() data-current=now_current data-desired=now_desired
            data-peak-desired=samples.iter().map(|s| s.desired).max().unwrap_or(0) data-decisions=samples.len()>
            <svg viewBox=format!("0 0 {WIDTH} {HEIGHT}") role="img" aria-label=summary.clone()>
                <line x1="0" y1=HEIGHT x2=WIDTH y2=HEIGHT class="axis" />
                {target}
                <polyline class="utilization" points=usage fill="none" stroke="#e8710a" stroke-width="1.5" />
                <polyline class="current" points=current fill="none" stroke="#2f6fde" stroke-width="2" />
                <polyline class="desired" points=desired fill="none" stroke="#1f9d74" stroke-width="2" stroke-dasharray="5 3" />
                <text x="4" y="12" class="axis-label">{format!("{peak_replicas} replicas · {peak_usage}%")}</text>
            </svg>
            <figcaption>
                <span class="autoscaling-summary">{summary}</span>
                <ul class="traffic-legend">
                    <li><span class="swatch" style="background:#2f6fde"></span>"current replicas"</li>
                    <li><span class="swatch" style="background:#1f9d74"></span>"desired (dashed)"</li>
                    <li><span class="swatch" style="background:#e8710a"></span>"utilisation"</li>
                    <li><span class="swatch" style="background:#9aa0a6"></span>"target"</li>
                </ul>
                <ol class="autoscaling-decisions">{decisions}</ol>
            </figcaption>
        </figure>
    }
}

/// A step line through the samples' values, held until `end`; a sample without a value
/// breaks nothing (the last value is held).
fn steps(samples: &[Sample], axis: &Axis, end: f64, value: impl Fn(&Sample) -> Option<f64>) -> String {
    let mut points = Vec::new();
    let mut held: Option<f64> = None;
    for sample in samples {
        let x = axis.x(sample.at);
        let Some(y) = value(sample) else { continue };
        if let Some(previous) = held {
            points.push(format!("{x:.1},{previous:.1}"));
        }
        points.push(format!("{x:.1},{y:.1}"));
        held = Some(y);
    }
    if let Some(y) = held {
        points.push(format!("{end:.1},{y:.1}"));
    }
    points.join(" ")
}

fn decision(sample: &Sample, start: SimTime) -> impl IntoView + use<> {
    let seconds = sample.at.since(start).as_secs();
    let when = format!("{}m{:02}s", seconds / 60, seconds % 60);
    view! { <li data-desired=sample.desired><span class="when">{when}</span>" "{sample.formula.clone()}</li> }
}
