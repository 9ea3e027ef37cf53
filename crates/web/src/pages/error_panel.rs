//! Readable errors: a box saying what went wrong with any detail in a monospace block, and a
//! form's one-line error.

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

/// A form's error line: the server's `detail`, read out when it appears.
#[component]
pub fn FormError(error: RwSignal<Option<String>>) -> impl IntoView {
    view! {
        <p class="form-error" role="alert">{move || error.get()}</p>
    }
}
