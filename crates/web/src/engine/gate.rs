//! Pages with a lab wait for the simulator's chunk (`engine::load`): until it is there they
//! show "Starting the simulator…"; if it cannot be fetched they say so and offer a retry, and
//! the page around them keeps working.

use crate::engine::{self, Engine};
use crate::pages::error_panel::ErrorPanel;
use leptos::prelude::*;
use leptos::task::spawn_local;

/// Renders `page` with the engine: at once when it is loaded, otherwise once it has loaded.
pub fn with_engine(page: impl Fn(&'static dyn Engine) -> AnyView + Send + Sync + 'static) -> AnyView {
    if let Some(engine) = engine::get() {
        return page(engine);
    }
    let state = RwSignal::new(None::<Result<(), String>>);
    fetch(state);
    let retry = move |_| {
        state.set(None);
        fetch(state);
    };
    (move || match state.get() {
        None => view! { <p class="loading" role="status">"Starting the simulator…"</p> }.into_any(),
        Some(Ok(())) => engine::get().map_or_else(|| ().into_any(), &page),
        Some(Err(why)) => view! {
            <ErrorPanel title="The simulator did not load".to_string()
                message=format!("{why}. Check the connection and try again.") />
            <button type="button" on:click=retry>"Try again"</button>
        }
        .into_any(),
    })
    .into_any()
}

/// Starts fetching the engine's chunk while the learner reads the first page, so a lab opens
/// without waiting later. A failure is left for the lab page to report.
pub fn prefetch() {
    spawn_local(async {
        let _ = engine::load().await;
    });
}

fn fetch(state: RwSignal<Option<Result<(), String>>>) {
    spawn_local(async move {
        let loaded = engine::load().await.map(|_| ());
        // The page may have been left while the chunk loaded.
        let _ = state.try_set(Some(loaded));
    });
}
