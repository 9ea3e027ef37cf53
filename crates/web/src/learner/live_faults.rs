//! The learner's line from their instructor: while a learner is signed in, the app keeps
//! `GET /api/live` open, and each `fault` it sends runs in the lab on screen through the same
//! path as the terminal, marked in the transcript as the instructor's and announced to screen
//! readers (and on screen) through a live region.

use crate::lab::lab_handle::LabHandle;
use crate::server::api_client;
use crate::server::live_socket::LiveSocket;
use crate::server::server_context::ServerContext;
use kubelab_wire::LiveMessage;
use leptos::prelude::*;

#[derive(Clone, Copy)]
pub struct LiveFaults {
    /// The lab on screen, with the token of the page that registered it.
    active: StoredValue<Option<(u64, LabHandle)>, LocalStorage>,
    next_token: StoredValue<u64, LocalStorage>,
    socket: StoredValue<Option<LiveSocket>, LocalStorage>,
    /// The latest thing the instructor did, for the live region.
    pub announcement: RwSignal<String>,
}

impl LiveFaults {
    /// Opens the socket whenever the session is a learner's, and closes it otherwise.
    pub fn new(server: ServerContext) -> LiveFaults {
        let faults = LiveFaults {
            active: StoredValue::new_local(None),
            next_token: StoredValue::new_local(0),
            socket: StoredValue::new_local(None),
            announcement: RwSignal::new(String::new()),
        };
        Effect::new(move |_| {
            let learner = server.is_learner();
            if let Some(old) = faults.socket.try_update_value(Option::take).flatten() {
                old.close();
            }
            if learner && let Some(url) = api_client::socket_url("/api/live") {
                let socket = LiveSocket::open(url, move |text| faults.receive(&text), |_| {});
                faults.socket.set_value(Some(socket));
            }
        });
        faults
    }

    /// The context the app provides; None outside it.
    pub fn get() -> Option<LiveFaults> {
        use_context::<LiveFaults>()
    }

    /// Makes `lab` the one faults run in, until the calling component is cleaned up.
    pub fn register(&self, lab: LabHandle) {
        let token = self.next_token.get_value() + 1;
        self.next_token.set_value(token);
        self.active.set_value(Some((token, lab)));
        let active = self.active;
        on_cleanup(move || {
            active.try_update_value(|slot| {
                if slot.as_ref().is_some_and(|(t, _)| *t == token) {
                    *slot = None;
                }
            });
        });
    }

    fn receive(&self, text: &str) {
        let Some(LiveMessage::Fault { command, from }) = LiveMessage::parse(text) else { return };
        match self.active.get_value() {
            Some((_, lab)) => {
                lab.run_from(&command, &from);
                self.announcement.set(format!("Your instructor {from} ran “{command}” in your lab."));
            }
            None => self.announcement.set(format!(
                "Your instructor {from} ran “{command}”; open a lesson or the sandbox to follow along next time."
            )),
        }
    }
}

/// The live region where instructor actions are announced.
#[component]
pub fn FaultAnnouncer() -> impl IntoView {
    let faults = LiveFaults::get();
    let text = move || faults.map(|f| f.announcement.get()).unwrap_or_default();
    view! {
        <div class="instructor-notice" role="status" aria-live="assertive" class:empty=move || text().is_empty()>
            {text}
        </div>
    }
}
