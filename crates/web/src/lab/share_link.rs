//! "Copy link": the lab's permalink (lesson, seed and every script, see `permalink.rs`) put on
//! the clipboard and shown in a field, so it can be copied by hand where the clipboard is
//! refused. Opening the link replays the same cluster (`shared_lab.rs`).

use crate::lab::lab_handle::LabHandle;
use leptos::prelude::*;

#[component]
pub fn ShareLink(lab: LabHandle) -> impl IntoView {
    let link = RwSignal::new(None::<String>);
    let copy = move |_| {
        let hash = lab.peek(|session| session.permalink());
        let url = page_url_with(&hash);
        copy_to_clipboard(&url);
        link.set(Some(url));
        lab.announce("Link to this lab copied.");
    };
    view! {
        <div class="share">
            <button type="button" class="share-copy" on:click=copy>"Copy link"</button>
            <Show when=move || link.get().is_some()>
                <input id="permalink" class="share-url" type="text" readonly aria-label="Link to this lab"
                    prop:value=move || link.get().unwrap_or_default() />
            </Show>
        </div>
    }
}

/// This page's address with `hash` in place of its current one.
fn page_url_with(hash: &str) -> String {
    let location = web_sys::window().map(|w| w.location());
    let base = location.and_then(|l| Some(format!("{}{}", l.origin().ok()?, l.pathname().ok()?))).unwrap_or_default();
    format!("{base}{hash}")
}

/// Puts `text` on the clipboard; a refusal (no permission, an insecure page) is ignored, since
/// the link is shown in a field anyway, but handled so it never surfaces as an uncaught error.
fn copy_to_clipboard(text: &str) {
    let Some(window) = web_sys::window() else { return };
    let ignore = wasm_bindgen::closure::Closure::<dyn FnMut(wasm_bindgen::JsValue)>::new(|_| {});
    let _ = window.navigator().clipboard().write_text(text).catch(&ignore);
    ignore.forget();
}
