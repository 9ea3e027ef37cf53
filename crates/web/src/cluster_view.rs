//! The cluster at a glance: nodes as cards (readiness, zone, requested vs allocatable CPU and
//! memory) holding their pods as chips (status by colour, shape and text, READY). Redrawn after
//! every command. Dragging and an inspector will hang off the chips and cards.

use crate::cluster_model::{self, NodeCard, PodChip};
use crate::lab_handle::LabHandle;
use leptos::prelude::*;

#[component]
pub fn ClusterView(lab: LabHandle) -> impl IntoView {
    let picture = move || lab.with(|session| cluster_model::picture(session.lab().sim().store()));
    view! {
        <section class="cluster" aria-labelledby="cluster-heading">
            <h2 id="cluster-heading">"Cluster"</h2>
            {move || {
                let picture = picture();
                let unscheduled = picture.unscheduled;
                view! {
                    <div class="nodes">{picture.nodes.into_iter().map(node_card).collect_view()}</div>
                    <Show when={let empty = unscheduled.is_empty(); move || !empty}>
                        <div class="unscheduled">
                            <h3>"Not on a node yet"</h3>
                            <ul class="pods">{unscheduled.clone().into_iter().map(pod_chip).collect_view()}</ul>
                        </div>
                    </Show>
                }
            }}
        </section>
    }
}

fn node_card(node: NodeCard) -> impl IntoView {
    let state = match (node.ready, node.schedulable) {
        (true, true) => "Ready",
        (true, false) => "Ready, SchedulingDisabled",
        (false, true) => "NotReady",
        (false, false) => "NotReady, SchedulingDisabled",
    };
    let pod_count = node.pods.len();
    view! {
        <article class="node" class:not-ready=!node.ready data-node=node.name.clone()>
            <header>
                <h3>{node.name.clone()}</h3>
                <span class="node-state">{if node.ready { "✓ " } else { "✕ " }}{state}</span>
            </header>
            <p class="zone">{node.zone.clone().unwrap_or_else(|| "no zone".into())}</p>
            {bar("CPU", node.cpu_requested_millis, node.cpu_allocatable_millis, format_cpu)}
            {bar("Memory", node.memory_requested_bytes, node.memory_allocatable_bytes, format_memory)}
            <ul class="pods" aria-label=format!("{pod_count} pods on {}", node.name)>
                {node.pods.into_iter().map(pod_chip).collect_view()}
            </ul>
        </article>
    }
}

fn bar(label: &'static str, requested: i64, allocatable: i64, format: fn(i64) -> String) -> impl IntoView {
    let percent = cluster_model::percent(requested, allocatable);
    let text = format!("{label} requested {} of {}", format(requested), format(allocatable));
    view! {
        <div class="bar" role="img" aria-label=text.clone() title=text>
            <span class="bar-label">{label}</span>
            <span class="bar-track"><span class="bar-fill" style=format!("width: {percent}%")></span></span>
            <span class="bar-value">{format!("{} / {}", format(requested), format(allocatable))}</span>
        </div>
    }
}

fn pod_chip(pod: PodChip) -> impl IntoView {
    let title = format!(
        "{}/{}: {}, {}/{} ready",
        pod.namespace, pod.name, pod.status, pod.ready_containers, pod.total_containers
    );
    let key = pod.name.clone();
    view! {
        <li class=format!("pod {}", pod.health.class()) title=title data-pod=key>
            <span class="pod-shape" aria-hidden="true">{pod.health.symbol()}</span>
            <span class="pod-name">{pod.name}</span>
            <span class="pod-status">{pod.status}</span>
            <span class="pod-ready">{format!("{}/{}", pod.ready_containers, pod.total_containers)}</span>
        </li>
    }
}

/// CPU as kubectl writes it: `250m`, or whole cores.
fn format_cpu(millis: i64) -> String {
    if millis % 1000 == 0 { (millis / 1000).to_string() } else { format!("{millis}m") }
}

/// Memory in Gi (one decimal) from 1Gi up, else in Mi.
fn format_memory(bytes: i64) -> String {
    const MI: i64 = 1024 * 1024;
    const GI: i64 = 1024 * MI;
    if bytes < GI {
        return if bytes == 0 { "0".into() } else { format!("{}Mi", (bytes + MI / 2) / MI) };
    }
    let tenths = (bytes * 10 + GI / 2) / GI;
    if tenths % 10 == 0 { format!("{}Gi", tenths / 10) } else { format!("{}.{}Gi", tenths / 10, tenths % 10) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantities_print_readably() {
        assert_eq!(format_cpu(4000), "4");
        assert_eq!(format_cpu(250), "250m");
        assert_eq!(format_memory(16 * 1024 * 1024 * 1024), "16Gi");
        assert_eq!(format_memory(256 * 1024 * 1024), "256Mi");
        assert_eq!(format_memory(1536 * 1024 * 1024), "1.5Gi");
        assert_eq!(format_memory(0), "0");
    }
}
