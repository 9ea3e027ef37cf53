//! The machines a learner can drag into the cluster: a CPU node and GPU servers (8 × A100,
//! H100 or H200, a small L4). A drop on the cluster runs `lab node add` as if typed, so the
//! new machine is in the history the timeline replays and lesson checks read.

use crate::lab::drag_commands::{self, MACHINES};
use crate::lab::lab_handle::LabHandle;
use leptos::ev::DragEvent;
use leptos::prelude::*;

/// The drag's data type: which palette entry is being carried.
pub const MACHINE_TYPE: &str = "application/x-kubelab-machine";

#[component]
pub fn NodePalette(lab: LabHandle) -> impl IntoView {
    view! {
        <div class="node-palette" role="group" aria-label="Machines to add">
            <span class="palette-label">"Add a machine: drag it onto the cluster, or press it"</span>
            {MACHINES.iter().enumerate().map(|(kind, (label, _, _))| {
                let on_dragstart = move |ev: DragEvent| {
                    if let Some(transfer) = ev.data_transfer() {
                        let _ = transfer.set_data(MACHINE_TYPE, &kind.to_string());
                        let _ = transfer.set_data("text/plain", label);
                    }
                };
                view! {
                    <button type="button" class="machine" draggable="true" data-machine=kind.to_string()
                        on:dragstart=on_dragstart on:click=move |_| add_machine(lab, kind)>{*label}</button>
                }
            }).collect_view()}
        </div>
    }
}

/// Whether a drag carries a palette machine (its data is readable only on drop).
pub fn carries_machine(ev: &DragEvent) -> bool {
    ev.data_transfer().is_some_and(|t| t.types().includes(&MACHINE_TYPE.into(), 0))
}

/// Handles a drop on the cluster: adds the carried machine; true if it was one.
pub fn drop_machine(lab: LabHandle, ev: &DragEvent) -> bool {
    let kind = ev.data_transfer().and_then(|t| t.get_data(MACHINE_TYPE).ok()).and_then(|k| k.parse::<usize>().ok());
    match kind {
        Some(kind) => {
            add_machine(lab, kind);
            true
        }
        None => false,
    }
}

fn add_machine(lab: LabHandle, kind: usize) {
    let existing = lab.peek(|session| session.node_names());
    if let Some(command) = drag_commands::add_machine_command(kind, &existing)
        && let Some(entry) = lab.run_typed(&command)
    {
        lab.announcement.set(entry.output.lines().next().unwrap_or_default().to_string());
    }
}
