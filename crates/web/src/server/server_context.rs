//! Whether a kubelab server is behind this page and who is signed in to it. The app asks
//! `GET /api/health` once at start; it answers both (`me` is null for a visitor, so nothing is
//! refused). On plain static hosting that fails, `available` becomes false, and every server
//! feature stays hidden so the app works as it does with no server.

use crate::server::api_client;
use kubelab_wire::{Me, Resume};
use leptos::prelude::*;
use leptos::task::spawn_local;
use serde::Deserialize;

#[derive(Deserialize)]
struct Health {
    ok: bool,
    #[serde(default)]
    me: Option<Me>,
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
            match api_client::get::<Health>("/api/health").await {
                Ok(Health { ok: true, me }) => {
                    server.available.set(Some(true));
                    server.set_me(me);
                }
                _ => server.available.set(Some(false)),
            }
        });
        server
    }

    /// Records who is signed in (None: signed out).
    pub fn set_me(&self, me: Option<Me>) {
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
