//! The app shell: the header, then the page the URL's hash names. Pages are swapped whole
//! when the hash changes; each lab lives as long as its page. The shell also owns what lives
//! across pages when a server is there: who is signed in, the progress sender and the
//! learner's line to their instructor.

use crate::engine::gate::with_engine;
use crate::instructor::dashboard_page::DashboardPage;
use crate::instructor::hosted_lab_page::HostedLabPage;
use crate::instructor::replay_page::ReplayPage;
use crate::instructor::teach_page::TeachPage;
use crate::learner::join_page::JoinPage;
use crate::learner::live_faults::{FaultAnnouncer, LiveFaults};
use crate::learner::progress_sync::{ProgressNotice, ProgressSync};
use crate::pages::about_page::AboutPage;
use crate::pages::catalogue_page::CataloguePage;
use crate::pages::challenge_page::{ChallengePage, NewChallenge};
use crate::pages::error_panel::ErrorPanel;
use crate::pages::header::Header;
use crate::pages::lesson_page::LessonPage;
use crate::pages::route::Route;
use crate::pages::sandbox_page::SandboxPage;
use crate::server::server_context::ServerContext;
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
    let server = ServerContext::start();
    provide_context(server);
    provide_context(ProgressSync::new(server));
    provide_context(LiveFaults::new(server));
    resume_from_catalogue(server, route);
    Effect::new(move |_| {
        route.track();
        if let Some(window) = web_sys::window() {
            window.scroll_to_with_x_and_y(0.0, 0.0);
        }
    });
    view! {
        <Header route=route />
        <FaultAnnouncer />
        <ProgressNotice />
        <main id="main" tabindex="-1">
            // Keyed on the whole hash: opening a permalink for the page already shown restarts it.
            {move || page(Route::parse(&hash.get()))}
        </main>
    }
}

/// A returning learner who opens the app at the catalogue is taken to the lesson they were in
/// (the lesson page then opens their step); a finished challenge is not somewhere to go back to.
fn resume_from_catalogue(server: ServerContext, route: Memo<Route>) {
    Effect::new(move |_| {
        let Some(resume) = server.resume.get() else { return };
        if resume.lesson == kubelab_core::lesson::challenge::CHALLENGE_ID {
            return;
        }
        if route.get_untracked() == Route::Catalogue
            && let Some(window) = web_sys::window()
        {
            let _ = window.location().set_hash(&Route::Lesson(resume.lesson).href());
        }
    });
}

fn page(route: Route) -> AnyView {
    match route {
        Route::Catalogue => view! { <CataloguePage /> }.into_any(),
        Route::Lesson(id) => with_engine(move |engine| view! { <LessonPage id=id.clone() engine=engine /> }.into_any()),
        Route::Sandbox => with_engine(|engine| view! { <SandboxPage engine=engine /> }.into_any()),
        Route::About => view! { <AboutPage /> }.into_any(),
        Route::Challenge(None) => view! { <NewChallenge /> }.into_any(),
        Route::Challenge(Some(seed)) => {
            with_engine(move |engine| view! { <ChallengePage seed=seed engine=engine /> }.into_any())
        }
        Route::Join => view! { <JoinPage /> }.into_any(),
        Route::Teach => view! { <TeachPage /> }.into_any(),
        Route::TeachClass(id) => view! { <DashboardPage class_id=id /> }.into_any(),
        Route::Replay(id, learner) => with_engine(move |engine| {
            view! { <ReplayPage class_id=id.clone() learner=learner.clone() engine=engine /> }.into_any()
        }),
        Route::HostedLab(id) => {
            with_engine(move |engine| view! { <HostedLabPage id=id.clone() engine=engine /> }.into_any())
        }
        Route::NotFound(path) => view! {
            <ErrorPanel title="Page not found".to_string() message=format!("Nothing lives at #/{path}.") />
            <p><a href="#/">"Back to the lessons"</a></p>
        }
        .into_any(),
    }
}
