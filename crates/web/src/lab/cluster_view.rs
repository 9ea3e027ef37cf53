//! The cluster at a glance: nodes as cards in one lane per zone (readiness, power, requested vs
//! allocatable CPU and memory, a menu to cordon, drain, power, move or remove the node) holding
//! their pods as chips (status by colour, shape and text, READY). Chips can be dragged onto a
//! node or the bin, by mouse or keyboard (`pod_dnd.rs`); a node, by its grip, onto another
//! zone's lane or the bin (`node_dnd.rs`). Redrawn after every change. Past `CARDS_UP_TO` nodes
//! the cluster is drawn on a canvas instead (`node_canvas.rs`).

use crate::lab::drag_commands::{self, DropTarget, NodeDrop, PodRef};
use crate::lab::inspector_view::{Inspected, InspectorView};
use crate::lab::lab_handle::LabHandle;
use crate::lab::node_canvas::NodeCanvas;
use crate::lab::node_dnd;
use crate::lab::node_palette::{self, NodePalette};
use crate::lab::pod_dnd::{self, PodDnd};
use kubelab_core::view::cluster::{self as cluster_model, NodeCard, PodChip};
use leptos::ev::{DragEvent, KeyboardEvent};
use leptos::prelude::*;

/// The most nodes drawn as DOM cards.
pub const CARDS_UP_TO: usize = 60;

#[component]
pub fn ClusterView(lab: LabHandle) -> impl IntoView {
    let dnd = PodDnd::default();
    let inspected: Inspected = RwSignal::new(None);
    // Past `CARDS_UP_TO` nodes the cards give way to one canvas cell per node.
    let big = Memo::new(move |_| lab.with(|session| session.node_count() > CARDS_UP_TO));
    let picture = move || lab.with(|session| session.picture());
    Effect::new(move |_| {
        lab.with(|_| ());
        // The frame may come after the page is gone (left while the clock ticks), so it is
        // cancelled when the effect runs again or is disposed with the page.
        if let Ok(frame) = request_animation_frame_with_handle(move || pod_dnd::keep_focus_on_held(dnd)) {
            on_cleanup(move || frame.cancel());
        }
    });
    view! {
        <section class="cluster" aria-labelledby="cluster-heading" on:keydown=move |ev: KeyboardEvent| dnd.on_key(lab, &ev)
            on:dragover=move |ev: DragEvent| if node_palette::carries_machine(&ev) { ev.prevent_default() }
            on:drop=move |ev: DragEvent| if node_palette::drop_machine(lab, &ev) { ev.prevent_default() }>
            <h2 id="cluster-heading">"Cluster"</h2>
            <NodePalette lab=lab />
            <p class="cluster-hint">"Click a pod to inspect it. Drag it onto a node to bind it, or onto the bin to delete it. Keyboard: focus a pod, I inspects, Enter picks it up, arrows choose, Enter drops, Escape cancels. Drag a node by its grip onto another zone to relabel it, or onto the bin to remove it (or use its menu)."</p>
            {move || dnd.outcome.get().map(|(message, ok)| view! {
                <pre class="drop-outcome" class:refused=!ok>{message}</pre>
            })}
            {move || big.get().then(|| view! { <NodeCanvas lab=lab /> })}
            {move || (!big.get()).then(|| {
                let picture = picture();
                let unscheduled = picture.unscheduled;
                let lanes = zone_lanes(picture.nodes);
                let zones: Vec<Option<String>> = lanes.iter().map(|(zone, _)| zone.clone()).collect();
                let lanes: Vec<_> =
                    lanes.into_iter().map(|(zone, nodes)| zone_lane(lab, dnd, inspected, zone, nodes, &zones)).collect();
                view! {
                    <div class="nodes">{lanes}</div>
                    <Show when={let empty = unscheduled.is_empty(); move || !empty}>
                        <div class="unscheduled">
                            <h3>"Not on a node yet"</h3>
                            <ul class="pods">{unscheduled.clone().into_iter().map(|pod| pod_chip(lab, dnd, inspected, pod)).collect_view()}</ul>
                        </div>
                    </Show>
                }
            })}
            {bin(lab, dnd)}
            <InspectorView lab=lab inspected=inspected />
        </section>
    }
}

/// Lets a pod be dropped on an element: the HTML5 events a drop target needs.
fn drop_zone(
    lab: LabHandle,
    dnd: PodDnd,
    target: DropTarget,
) -> (impl Fn(DragEvent) + Copy, impl Fn(DragEvent) + Clone) {
    let allow = move |ev: DragEvent| ev.prevent_default();
    let drop = move |ev: DragEvent| {
        ev.prevent_default();
        dnd.drop_on(lab, target.clone());
    };
    (allow, drop)
}

fn bin(lab: LabHandle, dnd: PodDnd) -> impl IntoView {
    let (allow, drop) = drop_zone(lab, dnd, DropTarget::Bin);
    let on_drop = move |ev: DragEvent| {
        if !node_dnd::drop_node(lab, dnd, &ev, NodeDrop::Bin) {
            drop(ev);
        }
    };
    view! {
        <div class="bin" class:drop-aim=move || dnd.aim.get() == Some(DropTarget::Bin) data-target="bin"
            on:dragover=allow on:drop=on_drop>
            "Bin: drop a pod here to delete it, or a node to remove it"
        </div>
    }
}

/// The nodes grouped by their zone label, zones in name order and unzoned nodes last.
fn zone_lanes(nodes: Vec<NodeCard>) -> Vec<(Option<String>, Vec<NodeCard>)> {
    let mut lanes: Vec<(Option<String>, Vec<NodeCard>)> = Vec::new();
    for node in nodes {
        match lanes.iter_mut().find(|(zone, _)| *zone == node.zone) {
            Some((_, members)) => members.push(node),
            None => lanes.push((node.zone.clone(), vec![node])),
        }
    }
    lanes.sort_by(|a, b| (a.0.is_none(), &a.0).cmp(&(b.0.is_none(), &b.0)));
    lanes
}

/// One zone's nodes; a node dropped here is relabelled into the zone.
fn zone_lane(
    lab: LabHandle,
    dnd: PodDnd,
    inspected: Inspected,
    zone: Option<String>,
    nodes: Vec<NodeCard>,
    zones: &[Option<String>],
) -> impl IntoView + use<> {
    let heading = zone.clone().unwrap_or_else(|| "no zone".into());
    let lane_name = heading.clone();
    let target = zone.clone();
    let on_dragover = move |ev: DragEvent| {
        if target.is_some() && node_dnd::carries_node(&ev) {
            ev.prevent_default();
        }
    };
    let dropped = zone.clone();
    let on_drop = move |ev: DragEvent| {
        if let Some(zone) = dropped.clone()
            && node_dnd::drop_node(lab, dnd, &ev, NodeDrop::Zone(zone))
        {
            ev.prevent_default();
        }
    };
    let others: Vec<String> = zones.iter().flatten().filter(|z| Some(*z) != zone.as_ref()).cloned().collect();
    let cards: Vec<_> = nodes.into_iter().map(|node| node_card(lab, dnd, inspected, node, &others)).collect();
    view! {
        <section class="zone-lane" data-zone=lane_name on:dragover=on_dragover on:drop=on_drop>
            <h3 class="zone-name">{heading}</h3>
            <div class="zone-nodes">{cards}</div>
        </section>
    }
}

fn node_card(
    lab: LabHandle,
    dnd: PodDnd,
    inspected: Inspected,
    node: NodeCard,
    zones: &[String],
) -> impl IntoView + use<> {
    let state = match (node.ready, node.schedulable) {
        (true, true) => "Ready",
        (true, false) => "Ready, SchedulingDisabled",
        (false, true) => "NotReady",
        (false, false) => "NotReady, SchedulingDisabled",
    };
    let pod_count = node.pods.len();
    let target = DropTarget::Node(node.name.clone());
    let aimed = target.clone();
    let (allow, drop) = drop_zone(lab, dnd, target);
    let menu = node_menu(lab, dnd, &node, zones);
    let grip_node = node.name.clone();
    view! {
        <article class="node" class:not-ready=!node.ready class:powered-off=node.powered_off data-node=node.name.clone()
            class:drop-aim=move || dnd.aim.get().as_ref() == Some(&aimed) on:dragover=allow on:drop=drop>
            <header>
                <span class="node-grip" draggable="true" title="Drag onto another zone or the bin" aria-hidden="true"
                    on:dragstart=move |ev: DragEvent| node_dnd::start(&ev, &grip_node)>"⠿"</span>
                <h3>{node.name.clone()}</h3>
                <span class="node-state">{if node.ready { "✓ " } else { "✕ " }}{state}</span>
                {menu}
            </header>
            <p class="zone">{node.zone.clone().unwrap_or_else(|| "no zone".into())}{node.powered_off.then_some(" · powered off")}</p>
            {bar("CPU", node.cpu_requested_millis, node.cpu_allocatable_millis, format_cpu)}
            {bar("Memory", node.memory_requested_bytes, node.memory_allocatable_bytes, format_memory)}
            <ul class="pods" aria-label=format!("{pod_count} pods on {}", node.name)>
                {node.pods.into_iter().map(|pod| pod_chip(lab, dnd, inspected, pod)).collect_view()}
            </ul>
        </article>
    }
}

/// The node's actions as a disclosure menu; each runs its command as if typed. The moves a
/// drag of its grip makes (to another zone, to the bin) are here too, for the keyboard.
fn node_menu(lab: LabHandle, dnd: PodDnd, node: &NodeCard, zones: &[String]) -> impl IntoView + use<> {
    let actions = drag_commands::node_actions(&node.name, node.schedulable, node.powered_off);
    let mut moves: Vec<(String, NodeDrop)> =
        zones.iter().map(|zone| (format!("Move to {zone}"), NodeDrop::Zone(zone.clone()))).collect();
    moves.push(("Remove from the cluster".into(), NodeDrop::Bin));
    let name = node.name.clone();
    view! {
        <details class="node-menu">
            <summary aria-label=format!("Actions for {}", node.name)>"⋯"</summary>
            <div class="node-menu-items">
                {actions.into_iter().map(|(label, command)| view! {
                    <button type="button" title=command.clone() on:click=move |ev| {
                        close_menu(&ev);
                        lab.run_typed(&command);
                    }>{label}</button>
                }).collect_view()}
                {moves.into_iter().map(|(label, target)| {
                    let name = name.clone();
                    view! {
                        <button type="button" on:click=move |ev| {
                            close_menu(&ev);
                            node_dnd::move_node(lab, dnd, &name, target.clone());
                        }>{label}</button>
                    }
                }).collect_view()}
            </div>
        </details>
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

fn pod_chip(lab: LabHandle, dnd: PodDnd, inspected: Inspected, pod: PodChip) -> impl IntoView {
    let title = format!(
        "{}/{}: {}, {}/{} ready",
        pod.namespace, pod.name, pod.status, pod.ready_containers, pod.total_containers
    );
    let key = pod.name.clone();
    let label = format!("Pod {}, {}. Enter picks it up.", pod.name, pod.status);
    let held = PodRef { namespace: pod.namespace.clone(), name: pod.name.clone(), node: pod.node.clone() };
    let (dragged, keyed, compared) = (held.clone(), held.clone(), held);
    let inspect = (pod.namespace.clone(), pod.name.clone());
    let inspect_key = inspect.clone();
    let on_dragstart = move |ev: DragEvent| {
        if let Some(transfer) = ev.data_transfer() {
            // Firefox starts a drag only when data is set.
            let _ = transfer.set_data("text/plain", &format!("{}/{}", dragged.namespace, dragged.name));
        }
        dnd.pick_up(lab, dragged.clone());
    };
    let on_keydown = move |ev: KeyboardEvent| {
        if matches!(ev.key().as_str(), "Enter" | " ") && dnd.held.get_untracked().is_none() {
            ev.prevent_default();
            ev.stop_propagation();
            dnd.pick_up(lab, keyed.clone());
        } else if ev.key() == "i" && dnd.held.get_untracked().is_none() {
            inspected.set(Some(inspect_key.clone()));
        }
    };
    view! {
        <li class=format!("pod {}", pod.health.class()) title=title data-pod=key tabindex="0" draggable="true"
            role="button" aria-label=label
            class:held=move || dnd.held.get().as_ref() == Some(&compared)
            on:dragstart=on_dragstart on:dragend=move |_| dnd.cancel(lab) on:keydown=on_keydown
            on:click=move |_| inspected.set(Some(inspect.clone()))>
            <span class="pod-shape" aria-hidden="true">{pod.health.symbol()}</span>
            <span class="pod-name">{pod.name}</span>
            <span class="pod-status">{pod.status}</span>
            <span class="pod-ready">{format!("{}/{}", pod.ready_containers, pod.total_containers)}</span>
        </li>
    }
}

/// Closes the `<details>` menu a click came from.
fn close_menu(ev: &leptos::ev::MouseEvent) {
    use wasm_bindgen::JsCast;
    let target = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
    if let Some(menu) = target.and_then(|t| t.closest("details").ok().flatten()) {
        let _ = menu.remove_attribute("open");
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

    fn card(name: &str, zone: Option<&str>) -> NodeCard {
        NodeCard {
            name: name.into(),
            ready: true,
            schedulable: true,
            powered_off: false,
            zone: zone.map(str::to_string),
            cpu_requested_millis: 0,
            cpu_allocatable_millis: 4000,
            memory_requested_bytes: 0,
            memory_allocatable_bytes: 1 << 34,
            pods: Vec::new(),
        }
    }

    #[test]
    fn nodes_group_into_zone_lanes_in_name_order_with_the_unzoned_last() {
        let nodes = vec![
            card("gpu-1", None),
            card("node-2", Some("zone-b")),
            card("node-1", Some("zone-a")),
            card("node-4", Some("zone-b")),
        ];
        let lanes: Vec<(Option<String>, Vec<String>)> = zone_lanes(nodes)
            .into_iter()
            .map(|(zone, nodes)| (zone, nodes.into_iter().map(|n| n.name).collect()))
            .collect();
        assert_eq!(
            lanes,
            [
                (Some("zone-a".into()), vec!["node-1".to_string()]),
                (Some("zone-b".into()), vec!["node-2".into(), "node-4".into()]),
                (None, vec!["gpu-1".into()]),
            ]
        );
    }

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
