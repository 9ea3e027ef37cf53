//! The inspector: the pod last clicked in the cluster view, as `kubectl describe` prints it,
//! with the scheduler's per-node verdicts ("why") beside it. Follows the lab as it changes,
//! the past included, and closes with its button or Escape.

use crate::lab::lab_handle::LabHandle;
use leptos::prelude::*;

/// `(namespace, name)` of the pod being inspected.
pub type Inspected = RwSignal<Option<(String, String)>>;

#[component]
pub fn InspectorView(lab: LabHandle, inspected: Inspected) -> impl IntoView {
    let content = move || {
        let (namespace, name) = inspected.get()?;
        let (described, why) =
            lab.with(|session| (session.describe_pod(&namespace, &name), session.why(&namespace, &name)));
        Some(view! {
            <section class="inspector" aria-labelledby="inspector-heading">
                <header>
                    <h3 id="inspector-heading">{format!("pod/{name}")}</h3>
                    <button type="button" class="inspector-close" on:click=move |_| inspected.set(None)>"Close"</button>
                </header>
                <Show when={let empty = why.is_empty(); move || !empty}>
                    <h4>"Why here (the scheduler's last decision)"</h4>
                    <ul class="inspector-why">{why.clone().into_iter().map(|line| view! { <li>{line}</li> }).collect_view()}</ul>
                </Show>
                <pre class="inspector-describe">{described}</pre>
            </section>
        })
    };
    view! { {content} }
}
