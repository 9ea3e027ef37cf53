//! Whether a kubelab server is behind this page and who is signed in to it. The app asks
//! `GET /api/health` once at start: on plain static hosting that fails, `available` becomes
//! false, and every server feature stays hidden so the app works as it does with no server.
//! It asks `GET /api/me` only when this browser signed in before (a hint in `localStorage`):
//! the server answers an anonymous visitor 401, which browsers log as an error on every visit.

use crate::api_client;
use crate::api_types::{Me, Resume};
use leptos::prelude::*;
use leptos::task::spawn_local;
use serde::Deserialize;

#[derive(Deserialize)]
struct Health {
    ok: bool,
}

/// Shared by every page through leptos' context.
#[derive(Clone, Copy)]
pub struct ServerContext {
    /// None while asking; Some(false) with no server.
    pub available: RwSignal<Option<bool>>,
    /// The signed-in person; None when signed out (or no server).
    pub me: RwSignal<Option<Me>>,
    /// Where a learner left off, until a lesson page takes it.
    pub resume: RwSignal<Option<Resume>>,
}

impl ServerContext {
    /// Creates the context and starts asking the server who we are.
    pub fn start() -> ServerContext {
        let server =
            ServerContext { available: RwSignal::new(None), me: RwSignal::new(None), resume: RwSignal::new(None) };
        spawn_local(async move {
            let healthy = matches!(api_client::get::<Health>("/api/health").await, Ok(Health { ok: true }));
            server.available.set(Some(healthy));
            if healthy {
                server.refresh_me().await;
            }
        });
        server
    }

    /// Reads `GET /api/me` when this browser may hold a session.
    pub async fn refresh_me(self) {
        if !session_hint() {
            return;
        }
        match api_client::get::<Me>("/api/me").await {
            Ok(me) => self.set_me(Some(me)),
            Err(error) if error.status == 401 => self.set_me(None),
            // Unreachable or failing: keep the hint, and try again on the next start.
            Err(_) => {}
        }
    }

    /// Records who is signed in (None: signed out), remembering whether to ask next time.
    pub fn set_me(&self, me: Option<Me>) {
        set_session_hint(me.is_some());
        self.me.set(me);
    }

    /// The context the app provides; None outside it (native tests).
    pub fn get() -> Option<ServerContext> {
        use_context::<ServerContext>()
    }

    /// True once the server answered and the session is a learner's.
    pub fn is_learner(&self) -> bool {
        self.me.with(|me| me.as_ref().is_some_and(Me::is_learner))
    }

    pub fn is_learner_untracked(&self) -> bool {
        self.me.with_untracked(|me| me.as_ref().is_some_and(Me::is_learner))
    }
}

/// The `localStorage` key saying this browser signed in (the cookie itself is HttpOnly).
const SESSION_HINT_KEY: &str = "kubelab.signed-in";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

fn session_hint() -> bool {
    storage().and_then(|s| s.get_item(SESSION_HINT_KEY).ok().flatten()).is_some()
}

fn set_session_hint(signed_in: bool) {
    if let Some(storage) = storage() {
        let _ = if signed_in { storage.set_item(SESSION_HINT_KEY, "1") } else { storage.remove_item(SESSION_HINT_KEY) };
    }
}
