//! Saves a learner's lab to the server (`PUT /api/lab`: lesson, seed, every script) so their
//! instructor can replay it. Debounced: a burst of commands is one save, a second after the
//! last; leaving the page saves what is still unsaved.

use crate::lab::lab_handle::LabHandle;
use crate::server::api_client;
use crate::server::server_context::ServerContext;
use kubelab_core::version::BEHAVIOUR_VERSION;
use kubelab_wire::LabLog;
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::time::Duration;

/// How long the lab must stay quiet before it is saved.
const QUIET_BEFORE_SAVE: Duration = Duration::from_millis(1_000);

/// Keeps the server's copy of `lab` current while the calling component lives.
pub fn save_while_open(lab: LabHandle, server: ServerContext) {
    // The newest unsaved log; a timer or the page's cleanup takes and sends it.
    let pending = StoredValue::new_local(None::<LabLog>);
    let generation = StoredValue::new_local(0u64);
    Effect::new(move |_| {
        let log = lab.with(|session| {
            let (lesson, seed, scripts) = session.replay_log();
            LabLog { lesson: lesson.to_string(), seed, scripts: scripts.to_vec(), behaviour: BEHAVIOUR_VERSION }
        });
        if log.scripts.is_empty() || !server.is_learner_untracked() {
            return;
        }
        pending.set_value(Some(log));
        generation.update_value(|g| *g += 1);
        let mine = generation.get_value();
        set_timeout(
            move || {
                if generation.try_get_value() == Some(mine) {
                    send(pending.try_update_value(Option::take).flatten());
                }
            },
            QUIET_BEFORE_SAVE,
        );
    });
    on_cleanup(move || send(pending.try_update_value(Option::take).flatten()));
}

/// Best effort: a failed save is retried by the next command's save.
fn send(log: Option<LabLog>) {
    if let Some(log) = log {
        spawn_local(async move {
            let _ = api_client::send_no_answer("PUT", "/api/lab", Some(&log)).await;
        });
    }
}
