//! A big cluster at a glance: every node one small cell on a `<canvas>` (colour for
//! readiness, a dark bar for how full of pods it is), redrawn after each change; hovering or
//! clicking a cell names the node and counts its pods. DOM cards for thousands of nodes would
//! cost seconds per redraw; the canvas costs a few draw calls per colour.

use crate::lab::lab_handle::LabHandle;
use crate::lab::node_grid::{self, CELL_PX, NodeCell};
use leptos::ev::MouseEvent;
use leptos::html::Canvas;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::CanvasRenderingContext2d;

#[component]
pub fn NodeCanvas(lab: LabHandle) -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    let cells = StoredValue::new_local(Vec::<NodeCell>::new());
    let pointed = RwSignal::new(None::<String>);
    Effect::new(move |_| {
        let fresh = lab.with(|session| session.cells());
        if let Some(element) = canvas.get() {
            draw(&element, &fresh);
        }
        cells.set_value(fresh);
    });
    let point = move |ev: MouseEvent| {
        let Some(element) = canvas.get_untracked() else { return };
        let scale = f64::from(element.width()) / f64::from(element.client_width().max(1));
        let (x, y) = (f64::from(ev.offset_x()) * scale, f64::from(ev.offset_y()) * scale);
        let text = cells.with_value(|cells| node_grid::cell_at(x, y, cells.len()).map(|i| cells[i].describe()));
        if text.is_some() {
            pointed.set(text);
        }
    };
    let summary = move || lab.with(|session| session.grid_summary());
    view! {
        <p class="node-canvas-summary">{summary}</p>
        <canvas node_ref=canvas class="node-canvas" role="img" aria-label="Every node as a cell: green Ready, red NotReady, amber cordoned; the dark bar is how full of pods it is"
            on:mousemove=point on:click=point></canvas>
        <p class="node-canvas-pointed" aria-live="polite">{move || pointed.get().unwrap_or_else(|| "Point at a node to see its name and pods.".into())}</p>
    }
}

/// Draws every cell: backgrounds grouped by colour, then the fill bars in one colour, so a
/// redraw switches styles a handful of times, not once per node.
fn draw(element: &web_sys::HtmlCanvasElement, cells: &[NodeCell]) {
    let (width, height) = node_grid::size_px(cells.len());
    if element.width() != width as u32 || element.height() != height as u32 {
        element.set_width(width as u32);
        element.set_height(height as u32);
    }
    let Some(context) = context_of(element) else { return };
    context.clear_rect(0.0, 0.0, width, height);
    for colour in ["#2e8b57", "#b7950b", "#c0392b"] {
        context.set_fill_style_str(colour);
        for (index, _) in cells.iter().enumerate().filter(|(_, cell)| node_grid::colour(cell) == colour) {
            let (x, y) = node_grid::origin_px(index);
            context.fill_rect(x, y, CELL_PX, CELL_PX);
        }
    }
    context.set_fill_style_str("rgba(0, 0, 0, 0.45)");
    for (index, cell) in cells.iter().enumerate().filter(|(_, cell)| cell.pods > 0) {
        let (x, y) = node_grid::origin_px(index);
        let bar = (CELL_PX * cell.fill()).max(1.0);
        context.fill_rect(x, y + CELL_PX - bar, CELL_PX, bar);
    }
}

fn context_of(element: &web_sys::HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    element.get_context("2d").ok().flatten()?.dyn_into().ok()
}
