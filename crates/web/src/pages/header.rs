//! The site header: the name, the main navigation (marking the current page), who is signed in
//! (with a server), and a link that skips to the content for keyboard users.

use crate::pages::route::Route;
use crate::server::server_context::ServerContext;
use kubelab_wire::Me;
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
                <ServerLinks route=route />
            </nav>
            <SignedIn />
        </header>
    }
}

/// "Join a class" and "Teach", only when a server is there to join or teach on.
#[component]
fn ServerLinks(route: Memo<Route>) -> impl IntoView {
    let server = ServerContext::get();
    let available = move || server.is_some_and(|s| s.available.get() == Some(true));
    let current = move |section: Route| {
        move || {
            let here = route.get();
            let teach = matches!(here, Route::TeachClass(_) | Route::Replay(..)) && section == Route::Teach;
            (here == section || teach).then_some("page")
        }
    };
    view! {
        <Show when=available>
            <a href=Route::Join.href() aria-current=current(Route::Join)>"Join a class"</a>
            <a href=Route::Teach.href() aria-current=current(Route::Teach)>"Teach"</a>
        </Show>
    }
}

/// Who is signed in: a learner's name and class, or an instructor's name.
#[component]
fn SignedIn() -> impl IntoView {
    let server = ServerContext::get();
    let text = move || {
        server.and_then(|s| s.me.get()).map(|me| match me {
            Me::Learner { display_name, class_name, .. } => format!("{display_name} · {class_name}"),
            Me::Instructor { display_name, .. } => format!("{display_name} · instructor"),
        })
    };
    view! {
        <p class="signed-in-as" aria-label="Signed in as">{text}</p>
    }
}
