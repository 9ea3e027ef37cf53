//! The app shell: the header, then the page the URL's hash names. Pages are swapped whole
//! when the hash changes; each lab lives as long as its page.

use crate::about_page::AboutPage;
use crate::catalogue_page::CataloguePage;
use crate::error_panel::ErrorPanel;
use crate::header::Header;
use crate::lesson_page::LessonPage;
use crate::route::Route;
use crate::sandbox_page::SandboxPage;
use leptos::prelude::*;

fn current_hash() -> String {
    web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default()
}

#[component]
pub fn App() -> impl IntoView {
    let hash = RwSignal::new(current_hash());
    let listener = window_event_listener(leptos::ev::hashchange, move |_| hash.set(current_hash()));
    on_cleanup(move || listener.remove());
    let route = Memo::new(move |_| Route::parse(&hash.get()));
    Effect::new(move |_| {
        route.track();
        if let Some(window) = web_sys::window() {
            window.scroll_to_with_x_and_y(0.0, 0.0);
        }
    });
    view! {
        <Header route=route />
        <main id="main" tabindex="-1">
            // Keyed on the whole hash: opening a permalink for the page already shown restarts it.
            {move || page(Route::parse(&hash.get()))}
        </main>
    }
}

fn page(route: Route) -> AnyView {
    match route {
        Route::Catalogue => view! { <CataloguePage /> }.into_any(),
        Route::Lesson(id) => view! { <LessonPage id=id /> }.into_any(),
        Route::Sandbox => view! { <SandboxPage /> }.into_any(),
        Route::About => view! { <AboutPage /> }.into_any(),
        Route::NotFound(path) => view! {
            <ErrorPanel title="Page not found".to_string() message=format!("Nothing lives at #/{path}.") />
            <p><a href="#/">"Back to the lessons"</a></p>
        }
        .into_any(),
    }
}
