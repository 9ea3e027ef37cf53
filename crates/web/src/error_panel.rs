//! A readable error box: what went wrong, in words, with any detail in a monospace block.

use leptos::prelude::*;

#[component]
pub fn ErrorPanel(title: String, message: String) -> impl IntoView {
    view! {
        <section class="error-panel" role="alert">
            <h2>{title}</h2>
            <pre>{message}</pre>
        </section>
    }
}
