//! Sends a learner's progress events to the server without ever making the page wait: events
//! go into a `ProgressQueue`, and one background task posts them in order, retrying with
//! back-off while the server is unreachable. Also loads the learner's history at start to
//! resume where they left off.

use crate::learner::progress_event::{ProgressKind, event};
use crate::learner::progress_queue::ProgressQueue;
use crate::lesson::progress;
use crate::server::api_client::{self, ApiError};
use crate::server::server_context::ServerContext;
use kubelab_wire::{ProgressEvent, ProgressHistory};
use leptos::prelude::*;
use leptos::task::spawn_local;
use serde::de::IgnoredAny;

#[derive(Clone, Copy)]
pub struct ProgressSync {
    server: ServerContext,
    queue: StoredValue<ProgressQueue, LocalStorage>,
    sending: StoredValue<bool, LocalStorage>,
    /// The last refusal, shown to the learner (a bad event is dropped, not retried).
    pub last_error: RwSignal<Option<String>>,
}

impl ProgressSync {
    /// Starts sending once (and whenever) the session is a learner's.
    pub fn new(server: ServerContext) -> ProgressSync {
        let sync = ProgressSync {
            server,
            queue: StoredValue::new_local(ProgressQueue::default()),
            sending: StoredValue::new_local(false),
            last_error: RwSignal::new(None),
        };
        Effect::new(move |_| {
            if server.is_learner() {
                spawn_local(sync.load_history());
                sync.flush();
            }
        });
        sync
    }

    /// The context the app provides; None outside it.
    pub fn get() -> Option<ProgressSync> {
        use_context::<ProgressSync>()
    }

    /// Queues an event (ignored with no server, or when this page load sent it already).
    pub fn report(&self, event: ProgressEvent) {
        if self.server.available.get_untracked() == Some(false) {
            return;
        }
        if self.queue.try_update_value(|queue| queue.push(event)).unwrap_or(false) {
            self.flush();
        }
    }

    /// Starts the sender unless it is running or the session is not a learner's.
    fn flush(&self) {
        if self.sending.get_value() || !self.server.is_learner_untracked() {
            return;
        }
        self.sending.set_value(true);
        let sync = *self;
        spawn_local(async move {
            while let Some(event) = sync.queue.with_value(|queue| queue.front().cloned()) {
                sync.send_one(&event).await;
            }
            sync.sending.set_value(false);
        });
    }

    /// Posts one event: on success or a refusal it leaves the queue; otherwise waits.
    async fn send_one(&self, event: &ProgressEvent) {
        match api_client::send_json::<_, IgnoredAny>("POST", "/api/progress", event).await {
            Ok(_) => self.queue.update_value(ProgressQueue::pop_front),
            Err(error) if !error.is_transient() => self.refused(&error),
            Err(_) => {
                let delay = self.queue.try_update_value(|queue| queue.back_off()).unwrap_or(1_000);
                sleep_ms(delay).await;
            }
        }
    }

    fn refused(&self, error: &ApiError) {
        self.queue.update_value(ProgressQueue::pop_front);
        self.last_error.set(Some(format!("Your progress was not saved: {error}")));
    }

    /// Reads the learner's history: marks their finished steps done here too, remembers what
    /// the server has, and notes where to resume.
    async fn load_history(self) {
        let Ok(history) = api_client::get::<ProgressHistory>("/api/progress").await else { return };
        for event in &history.events {
            if event.kind == ProgressKind::StepCompleted {
                progress::mark_done(&event.lesson, event.step);
            }
        }
        self.queue.update_value(|queue| queue.remember(history.events.into_iter().map(|e| e.id)));
        self.server.resume.set(history.resume);
    }
}

/// A future that resolves after `ms` milliseconds (a `setTimeout` promise).
async fn sleep_ms(ms: u32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(window) = web_sys::window() {
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms as i32);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// What a lesson's parts use to report progress: the lesson's id and the app's sender (None
/// with no app context, e.g. natively). Provided as context by the lesson page.
#[derive(Clone, Copy)]
pub struct LessonReporter {
    lesson: &'static str,
    sync: Option<ProgressSync>,
}

impl LessonReporter {
    pub fn new(lesson: &'static str) -> LessonReporter {
        LessonReporter { lesson, sync: ProgressSync::get() }
    }

    /// The reporter the lesson page provides; None outside a lesson page.
    pub fn get() -> Option<LessonReporter> {
        use_context::<LessonReporter>()
    }

    pub fn report(&self, step: usize, kind: ProgressKind, item: Option<&str>, answer: Option<&str>) {
        if let Some(sync) = self.sync {
            sync.report(event(self.lesson, step, kind, item, answer));
        }
    }
}

/// A line shown when the server refused a progress event, with its reason.
#[component]
pub fn ProgressNotice() -> impl IntoView {
    let sync = ProgressSync::get();
    let text = move || sync.and_then(|s| s.last_error.get());
    view! {
        <Show when=move || text().is_some()>
            <p class="progress-notice" role="alert">{text}</p>
        </Show>
    }
}
