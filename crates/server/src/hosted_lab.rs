//! A lab the server hosts: the core running natively on its own thread, one thread owning one
//! simulation. Scripts come in through a bounded channel; what each printed goes out on a
//! broadcast channel to every watching WebSocket. Clients replay the lesson, seed and scripts
//! with their own copy of the core (deterministic), so they draw the same cluster.

use kubelab_core::lesson::{Lesson, LessonLab};
use serde::Serialize;
use serde_json::json;
use std::sync::{Arc, Mutex};
use tokio::sync::{broadcast, mpsc, watch};

/// Scripts waiting to run before `submit` refuses more.
const INBOX: usize = 16;
/// Updates a watcher may fall behind before it is dropped as too slow.
pub const OUTBOX: usize = 64;
/// The transcript entries a newcomer is sent.
const TRANSCRIPT_KEPT: usize = 200;

#[derive(Clone, Debug, Serialize)]
pub struct Entry {
    pub command: String,
    pub output: String,
    pub succeeded: bool,
}

#[derive(Default)]
struct History {
    scripts: Vec<String>,
    transcript: Vec<Entry>,
}

pub struct HostedLab {
    pub id: String,
    pub owner_id: String,
    pub lesson_id: String,
    pub seed: u64,
    inbox: mpsc::Sender<String>,
    updates: broadcast::Sender<String>,
    history: Arc<Mutex<History>>,
    closed: watch::Sender<bool>,
}

impl HostedLab {
    /// Starts the lab's thread with the lesson's setup run.
    pub fn start(id: String, owner_id: String, lesson: Lesson) -> std::io::Result<HostedLab> {
        let (inbox, scripts) = mpsc::channel(INBOX);
        let (updates, _) = broadcast::channel(OUTBOX);
        let history = Arc::new(Mutex::new(History::default()));
        let seed = lesson.seed.unwrap_or(1);
        let lesson_id = lesson.id.clone();
        let (thread_updates, thread_history) = (updates.clone(), Arc::clone(&history));
        std::thread::Builder::new()
            .name(format!("lab-{}", &id[..8.min(id.len())]))
            .spawn(move || run(lesson, scripts, thread_updates, thread_history))?;
        Ok(HostedLab { id, owner_id, lesson_id, seed, inbox, updates, history, closed: watch::channel(false).0 })
    }

    /// Queues a script; false when the lab is busy (its inbox is full) or closed.
    pub fn submit(&self, script: String) -> bool {
        self.inbox.try_send(script).is_ok()
    }

    pub fn subscribe(&self) -> (broadcast::Receiver<String>, watch::Receiver<bool>) {
        (self.updates.subscribe(), self.closed.subscribe())
    }

    /// The scripts run so far.
    pub fn scripts(&self) -> Vec<String> {
        self.history.lock().map(|h| h.scripts.clone()).unwrap_or_default()
    }

    /// The message a newcomer gets first: everything needed to replay the lab, and whether
    /// this newcomer may run scripts in it.
    pub fn state_message(&self, may_run: bool) -> String {
        let history = self.history.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        json!({
            "type": "state", "id": self.id, "lesson": self.lesson_id, "seed": self.seed, "may_run": may_run,
            "scripts": history.scripts, "transcript": history.transcript,
        })
        .to_string()
    }

    /// Closes every watcher's socket; the thread ends when the lab is dropped.
    pub fn close(&self) {
        self.closed.send_replace(true);
    }
}

/// The lab's thread: runs each script as the learner would and broadcasts what it printed.
fn run(
    lesson: Lesson,
    mut scripts: mpsc::Receiver<String>,
    updates: broadcast::Sender<String>,
    history: Arc<Mutex<History>>,
) {
    let mut lab = LessonLab::new(&lesson);
    if let Err(error) = lab.setup(&lesson) {
        tracing::error!(lesson = %lesson.id, %error, "hosted lab: the lesson's setup does not parse");
    }
    while let Some(script) = scripts.blocking_recv() {
        let entries: Vec<Entry> = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            lab.run_as_learner(&script)
        })) {
            Ok(Ok(ran)) => ran
                .into_iter()
                .map(|r| Entry { command: r.written, output: r.output, succeeded: r.succeeded })
                .collect(),
            Ok(Err(error)) => {
                vec![Entry { command: script.clone(), output: format!("{}\n", error.message), succeeded: false }]
            }
            Err(_) => {
                tracing::error!(lesson = %lesson.id, %script, "hosted lab: the simulator panicked; the lab stops");
                let _ = updates.send(
                    json!({"type": "error", "message": "the simulator stopped after an internal error"}).to_string(),
                );
                return;
            }
        };
        let message = json!({ "type": "ran", "script": script, "entries": entries }).to_string();
        if let Ok(mut history) = history.lock() {
            history.scripts.push(script);
            history.transcript.extend(entries);
            let excess = history.transcript.len().saturating_sub(TRANSCRIPT_KEPT);
            history.transcript.drain(..excess);
        }
        // No watcher is not an error: the lab keeps running for the next one.
        let _ = updates.send(message);
    }
}
