//! Picking a pod up and dropping it on a node or the bin, by mouse (HTML5 drag and drop) or
//! keyboard (Enter/Space picks up, arrows choose a target, Enter drops, Escape cancels). A drop
//! runs the same command the terminal would (`drag_commands.rs`), so it lands in the transcript
//! and the timeline; the outcome is shown and announced.

use crate::lab::drag_commands::{self, DropTarget, PodRef};
use crate::lab::lab_handle::LabHandle;
use leptos::ev::KeyboardEvent;
use leptos::prelude::*;

#[derive(Clone, Copy)]
pub struct PodDnd {
    pub held: RwSignal<Option<PodRef>>,
    /// The target the keyboard points at while a pod is held.
    pub aim: RwSignal<Option<DropTarget>>,
    /// What the last drop did: its message and whether it succeeded.
    pub outcome: RwSignal<Option<(String, bool)>>,
}

impl Default for PodDnd {
    fn default() -> PodDnd {
        PodDnd { held: RwSignal::new(None), aim: RwSignal::new(None), outcome: RwSignal::new(None) }
    }
}

impl PodDnd {
    pub fn pick_up(&self, lab: LabHandle, pod: PodRef) {
        lab.announce(format!(
            "Picked up pod {}. Arrow keys choose a node or the bin, Enter drops, Escape cancels.",
            pod.name
        ));
        self.held.set(Some(pod));
        self.aim.set(None);
    }

    pub fn cancel(&self, lab: LabHandle) {
        // `dragend` reaches a chip even after its page was left mid-drag: then it does nothing.
        if self.held.try_get_untracked().flatten().is_some() {
            lab.announce("Put the pod back.");
        }
        self.held.set(None);
        self.aim.set(None);
    }

    /// Drops the held pod on `target`: runs its command, shows and announces the outcome.
    pub fn drop_on(&self, lab: LabHandle, target: DropTarget) {
        let Some(pod) = self.held.get_untracked() else { return };
        self.held.set(None);
        self.aim.set(None);
        self.run_drop(lab, drag_commands::command_for(&pod, &target));
    }

    /// Runs a drop's command as if typed (or says why there is none), then shows and announces
    /// what it did. Node drops (`node_dnd.rs`) end here too.
    pub fn run_drop(&self, lab: LabHandle, command: Result<String, String>) {
        let (message, succeeded) = match command {
            Ok(command) => match lab.run_typed(&command) {
                Some(entry) => (format!("$ {command}\n{}", entry.output.trim_end()), entry.succeeded),
                None => (command, false),
            },
            Err(why) => (why, false),
        };
        lab.announce(message.lines().last().unwrap_or_default().to_string());
        self.outcome.set(Some((message, succeeded)));
    }

    /// Keys while a pod is held (the cluster section hears them as they bubble up).
    pub fn on_key(&self, lab: LabHandle, ev: &KeyboardEvent) {
        if self.held.get_untracked().is_none() {
            return;
        }
        match ev.key().as_str() {
            "Escape" => self.cancel(lab),
            "ArrowRight" | "ArrowDown" | "ArrowLeft" | "ArrowUp" => {
                let forward = matches!(ev.key().as_str(), "ArrowRight" | "ArrowDown");
                let next = next_target(&targets(lab), self.aim.get_untracked().as_ref(), forward);
                lab.announce(format!("Drop on {}?", next.describe()));
                self.aim.set(Some(next));
            }
            "Enter" | " " => match self.aim.get_untracked() {
                Some(target) => self.drop_on(lab, target),
                None => lab.announce("Choose a node or the bin with the arrow keys first."),
            },
            _ => return,
        }
        ev.prevent_default();
    }
}

/// Puts focus back on the held pod's chip after a redraw replaced it (a clock tick redraws the
/// cluster), so a keyboard drag survives time passing. It runs a frame after the redraw, when
/// the cluster view may be gone (the page was left): then it does nothing.
pub fn keep_focus_on_held(dnd: PodDnd) {
    let Some(pod) = dnd.held.try_get_untracked().flatten() else { return };
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let inside = document.active_element().and_then(|e| e.closest(".cluster").ok().flatten()).is_some();
    if inside {
        return;
    }
    let chip = document.query_selector(&format!(".pod[data-pod=\"{}\"]", pod.name)).ok().flatten();
    if let Some(chip) = chip.and_then(|c| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(c).ok()) {
        let _ = chip.focus();
    }
}

/// Every node in name order, then the bin.
fn targets(lab: LabHandle) -> Vec<DropTarget> {
    let mut names: Vec<String> = lab.peek(|session| session.node_names());
    names.sort();
    names.into_iter().map(DropTarget::Node).chain([DropTarget::Bin]).collect()
}

/// The target after (or before) `current`, wrapping around; the first one when none is aimed.
fn next_target(targets: &[DropTarget], current: Option<&DropTarget>, forward: bool) -> DropTarget {
    let count = targets.len();
    let index = match current.and_then(|c| targets.iter().position(|t| t == c)) {
        None => 0,
        Some(at) if forward => (at + 1) % count,
        Some(at) => (at + count - 1) % count,
    };
    targets[index].clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrows_cycle_through_nodes_and_the_bin() {
        let targets = vec![DropTarget::Node("a".into()), DropTarget::Node("b".into()), DropTarget::Bin];
        assert_eq!(next_target(&targets, None, true), targets[0]);
        assert_eq!(next_target(&targets, Some(&targets[0]), true), targets[1]);
        assert_eq!(next_target(&targets, Some(&targets[2]), true), targets[0]);
        assert_eq!(next_target(&targets, Some(&targets[0]), false), targets[2]);
    }
}
