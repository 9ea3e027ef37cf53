//! The MIG board: each GPU node's GPUs drawn as their 8 memory slices, each GPU instance as the
//! span it takes (its profile, compute slices, GI ID and the pod that holds it), the node's
//! profiles to drag onto a slot, and what the device plugin publishes. A drop runs
//! `nvidia-smi mig -cgi PROFILE:START -C` on the node, as a learner would type it; a drop the
//! geometry refuses runs nothing and says the rule.

use crate::lab::drag_commands;
use crate::lab::lab_handle::LabHandle;
use kubelab_core::view::gpus::{GpuCard, GpuNode, InstanceSpan};
use leptos::ev::DragEvent;
use leptos::prelude::*;

#[component]
pub fn MigBoard(lab: LabHandle) -> impl IntoView {
    // The profile being dragged (its name, and the node whose model it belongs to).
    let held: RwSignal<Option<(String, String)>> = RwSignal::new(None);
    let outcome: RwSignal<Option<(String, bool)>> = RwSignal::new(None);
    let nodes = move || lab.with(|session| session.gpus());
    view! {
        <Show when=move || !nodes().is_empty()>
            <section class="mig-board" aria-labelledby="mig-heading">
                <h2 id="mig-heading">"GPUs and MIG slices"</h2>
                <p class="cluster-hint">"Each GPU is 8 memory slices (7 compute slices). Drag a profile onto the slot where its instance should start; the board runs nvidia-smi on the node, and the device plugin publishes the new slices."</p>
                {move || outcome.get().map(|(message, ok)| view! { <pre class="drop-outcome" class:refused=!ok>{message}</pre> })}
                {move || nodes().into_iter().map(|node| gpu_node(lab, held, outcome, node)).collect_view()}
            </section>
        </Show>
    }
}

type Held = RwSignal<Option<(String, String)>>;
type Outcome = RwSignal<Option<(String, bool)>>;

fn gpu_node(lab: LabHandle, held: Held, outcome: Outcome, node: GpuNode) -> impl IntoView {
    let allocatable: Vec<String> = node.allocatable.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    let allocatable = if allocatable.is_empty() { "nothing yet".to_string() } else { allocatable.join(", ") };
    let name = node.name_for_view();
    let chips = node.profiles.iter().map(|p| {
        let (profile, owner) = (p.name.clone(), node.node.clone());
        let title = format!("{}: {} compute and {} memory slices, {} MiB", p.name, p.compute_slices, p.memory_slices, p.memory_mib);
        let on_dragstart = move |ev: DragEvent| {
            if let Some(transfer) = ev.data_transfer() {
                let _ = transfer.set_data("text/plain", &profile);
            }
            held.set(Some((owner.clone(), profile.clone())));
        };
        view! {
            <li class="mig-profile" draggable="true" data-profile=p.name.clone() title=title
                style=format!("--slices: {}", p.memory_slices) on:dragstart=on_dragstart on:dragend=move |_| held.set(None)>
                {p.name.clone()}
            </li>
        }
    }).collect_view();
    let (owner, capable) = (node.node.clone(), node.mig_capable);
    let gpus =
        node.gpus.into_iter().map(move |gpu| gpu_card(lab, held, outcome, owner.clone(), capable, gpu)).collect_view();
    view! {
        <article class="gpu-node" data-node=node.node.clone()>
            <h3>{name}</h3>
            <p class="allocatable" data-allocatable=allocatable.clone()>"Allocatable: "{allocatable.clone()}</p>
            <ul class="mig-profiles" aria-label="MIG profiles">{chips}</ul>
            <div class="gpus">{gpus}</div>
        </article>
    }
}

fn gpu_card(lab: LabHandle, held: Held, outcome: Outcome, node: String, capable: bool, gpu: GpuCard) -> impl IntoView {
    let index = gpu.index;
    let toggle = capable.then(|| {
        let (label, mode) = if gpu.mig_enabled { ("Disable MIG", 0) } else { ("Enable MIG", 1) };
        let command = format!("lab node exec {node} -- nvidia-smi -i {index} -mig {mode}");
        view! { <button type="button" class="mig-toggle" title=command.clone() on:click=move |_| run(lab, outcome, &command)>{label}</button> }
    });
    let clear = (!gpu.instances.is_empty()).then(|| {
        let command = format!("lab node exec {node} -- nvidia-smi mig -i {index} -dci\nlab node exec {node} -- nvidia-smi mig -i {index} -dgi");
        view! { <button type="button" class="mig-clear" title=command.clone() on:click=move |_| run(lab, outcome, &command)>"Clear"</button> }
    });
    let slots = (0..gpu.memory_slices)
        .map(|slot| {
            let drops = gpu.drops.clone();
            let node = node.to_string();
            let on_drop = move |ev: DragEvent| {
                ev.prevent_default();
                let Some((owner, profile)) = held.get_untracked() else { return };
                held.set(None);
                if owner != node {
                    outcome.set(Some((format!("{profile} is a profile of {owner}'s GPUs, not {node}'s."), false)));
                    return;
                }
                let refusal = drops.get(&(profile.clone(), slot)).cloned().flatten();
                match drag_commands::mig_drop_command(&node, index, &profile, slot, refusal.as_deref()) {
                    Ok(command) => run(lab, outcome, &command),
                    Err(rule) => outcome.set(Some((rule, false))),
                }
            };
            view! {
                <div class="slot" data-slot=slot.to_string() style=format!("grid-column: {}", slot + 1)
                    on:dragover=move |ev: DragEvent| ev.prevent_default() on:drop=on_drop></div>
            }
        })
        .collect_view();
    let spans = gpu.instances.into_iter().map(instance_span).collect_view();
    let holders = (!gpu.holders.is_empty()).then(|| format!(" · whole GPU held by {}", gpu.holders.join(", ")));
    let mode = if !capable {
        "no MIG"
    } else if gpu.mig_enabled {
        "MIG on"
    } else {
        "MIG off"
    };
    view! {
        <div class="gpu" data-gpu=index.to_string() class:mig-off=!gpu.mig_enabled>
            <div class="gpu-head"><span>{format!("GPU {index} · {mode}")}{holders}</span>{toggle}{clear}</div>
            <div class="slices" style=format!("grid-template-columns: repeat({}, 1fr)", gpu.memory_slices.max(1))>
                {slots}{spans}
            </div>
        </div>
    }
}

fn instance_span(span: InstanceSpan) -> impl IntoView {
    let holder = span.holders.first().cloned();
    let is_held = holder.is_some();
    let text = format!(
        "GI {} · {} at {}:{} · {} compute slice(s){}{}",
        span.gpu_instance,
        span.profile,
        span.start,
        span.size,
        span.compute_slices,
        if span.device { "" } else { " · no compute instance yet" },
        holder.as_ref().map(|h| format!(" · held by {h}")).unwrap_or_default()
    );
    view! {
        <div class="instance" class:held=is_held class:no-device=!span.device data-gi=span.gpu_instance.to_string()
            title=text.clone() aria-label=text
            style=format!("grid-column: {} / span {}; grid-row: 1", span.start + 1, span.size)>
            <strong>{span.profile}</strong>
            <span class="compute">{"▮".repeat(usize::from(span.compute_slices))}</span>
            {holder.map(|h| view! { <span class="holder">{h}</span> })}
        </div>
    }
}

fn run(lab: LabHandle, outcome: Outcome, command: &str) {
    let mut last = None;
    for line in command.lines() {
        last = lab.run_typed(line);
        if last.as_ref().is_some_and(|e| !e.succeeded) {
            break;
        }
    }
    if let Some(entry) = last {
        outcome.set(Some((entry.output.trim_end().to_string(), entry.succeeded)));
    }
}

trait NodeTitle {
    fn name_for_view(&self) -> String;
}

impl NodeTitle for GpuNode {
    /// `h100-1 · 8 × NVIDIA H100 80GB HBM3 · mixed strategy`.
    fn name_for_view(&self) -> String {
        format!("{} · {} × {} · {} strategy", self.node, self.gpus.len(), self.product, self.strategy)
    }
}
