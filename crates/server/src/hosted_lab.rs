//! A lab the server hosts: the core running natively on its own thread, one thread owning one
//! simulation. Scripts come in through a bounded channel; what each printed goes out on a
//! broadcast channel to every watching WebSocket. Clients replay the lesson, seed and scripts
//! with their own copy of the core (deterministic), so they draw the same cluster. Closing a
//! lab stops its thread within moments, even mid-script: the core asks the lab's `cancelled`
//! flag between units of work.

use kubelab_core::lesson::{Lesson, LessonLab};
use kubelab_core::sim::interrupt::Interrupt;
pub use kubelab_wire::Entry;
use kubelab_wire::LabMessage;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::{broadcast, mpsc, watch};

/// Scripts waiting to run before `submit` refuses more.
const INBOX: usize = 16;
/// Updates a watcher may fall behind before it is dropped as too slow.
pub const OUTBOX: usize = 64;
/// The transcript entries a newcomer is sent.
const TRANSCRIPT_KEPT: usize = 200;

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
    /// Set when the lab closes; its thread stops at the next unit of work.
    cancelled: Arc<AtomicBool>,
}

/// Counts the lab threads still running (a closed lab's included until its thread has ended),
/// so the server's cap on labs counts threads, not map entries.
struct LiveThread(Arc<AtomicUsize>);

impl LiveThread {
    fn enter(live: &Arc<AtomicUsize>) -> LiveThread {
        live.fetch_add(1, Ordering::SeqCst);
        LiveThread(Arc::clone(live))
    }
}

impl Drop for LiveThread {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl HostedLab {
    /// Starts the lab's thread with the lesson's setup run; `live` counts it while it runs.
    pub fn start(id: String, owner_id: String, lesson: Lesson, live: &Arc<AtomicUsize>) -> std::io::Result<HostedLab> {
        let (inbox, scripts) = mpsc::channel(INBOX);
        let (updates, _) = broadcast::channel(OUTBOX);
        let history = Arc::new(Mutex::new(History::default()));
        let seed = lesson.seed.unwrap_or(1);
        let lesson_id = lesson.id.clone();
        let (thread_updates, thread_history) = (updates.clone(), Arc::clone(&history));
        let cancelled = Arc::new(AtomicBool::new(false));
        let thread_cancelled = Arc::clone(&cancelled);
        let running = LiveThread::enter(live);
        std::thread::Builder::new().name(format!("lab-{}", &id[..8.min(id.len())])).spawn(move || {
            let _running = running;
            run(lesson, scripts, (thread_updates, thread_history), thread_cancelled)
        })?;
        let closed = watch::channel(false).0;
        Ok(HostedLab { id, owner_id, lesson_id, seed, inbox, updates, history, closed, cancelled })
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
        LabMessage::State {
            id: self.id.clone(),
            lesson: self.lesson_id.clone(),
            seed: self.seed,
            may_run,
            scripts: history.scripts.clone(),
            transcript: history.transcript.clone(),
        }
        .to_json()
    }

    /// Closes every watcher's socket and stops the lab's thread, mid-script if need be.
    pub fn close(&self) {
        self.cancelled.store(true, Ordering::SeqCst);
        self.closed.send_replace(true);
    }
}

impl Drop for HostedLab {
    fn drop(&mut self) {
        self.cancelled.store(true, Ordering::SeqCst);
    }
}

/// The lab's thread: runs each script as the learner would and broadcasts what it printed.
fn run(
    lesson: Lesson,
    mut scripts: mpsc::Receiver<String>,
    (updates, history): (broadcast::Sender<String>, Arc<Mutex<History>>),
    cancelled: Arc<AtomicBool>,
) {
    let mut lab = LessonLab::new(&lesson);
    let asked = Arc::clone(&cancelled);
    lab.set_interrupt(Interrupt::new(move || asked.load(Ordering::SeqCst)));
    if let Err(error) = lab.setup(&lesson) {
        tracing::error!(lesson = %lesson.id, %error, "hosted lab: the lesson's setup does not parse");
    }
    while let Some(script) = scripts.blocking_recv() {
        if cancelled.load(Ordering::SeqCst) {
            return;
        }
        let entries: Vec<Entry> =
            match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| lab.run_as_learner(&script))) {
                Ok(Ok(ran)) => ran
                    .into_iter()
                    .map(|r| Entry { command: r.written, output: r.output, succeeded: r.succeeded })
                    .collect(),
                Ok(Err(error)) => {
                    vec![Entry { command: script.clone(), output: format!("{}\n", error.message), succeeded: false }]
                }
                Err(_) => {
                    tracing::error!(lesson = %lesson.id, %script, "hosted lab: the simulator panicked; the lab stops");
                    let message = "the simulator stopped after an internal error".to_string();
                    let _ = updates.send(LabMessage::Error { message }.to_json());
                    return;
                }
            };
        let message = LabMessage::Ran { script: script.clone(), entries: entries.clone() }.to_json();
        if let Ok(mut history) = history.lock() {
            history.scripts.push(script);
            history.transcript.extend(entries);
            let excess = history.transcript.len().saturating_sub(TRANSCRIPT_KEPT);
            history.transcript.drain(..excess);
        }
        if cancelled.load(Ordering::SeqCst) {
            return;
        }
        // No watcher is not an error: the lab keeps running for the next one.
        let _ = updates.send(message);
    }
}
