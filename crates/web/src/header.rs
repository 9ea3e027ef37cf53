//! The site header: the name, the main navigation (marking the current page) and a link that
//! skips to the content for keyboard users.

use crate::route::Route;
use leptos::prelude::*;

#[component]
pub fn Header(route: Memo<Route>) -> impl IntoView {
    let current = move |section: Route| {
        move || {
            let here = route.get();
            let matches = here == section || matches!((&here, &section), (Route::Lesson(_), Route::Catalogue));
            matches.then_some("page")
        }
    };
    let skip = move |ev: leptos::ev::MouseEvent| {
        ev.prevent_default();
        let main = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("main"));
        if let Some(main) = main.and_then(|m| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(m).ok()) {
            let _ = main.focus();
        }
    };
    view! {
        <a class="skip-link" href="#/" on:click=skip>"Skip to content"</a>
        <header class="site-header">
            <a class="brand" href="#/">"kubelab"</a>
            <nav aria-label="Main">
                <a href=Route::Catalogue.href() aria-current=current(Route::Catalogue)>"Lessons"</a>
                <a href=Route::Sandbox.href() aria-current=current(Route::Sandbox)>"Sandbox"</a>
                <a href=Route::About.href() aria-current=current(Route::About)>"About"</a>
            </nav>
        </header>
    }
}
