//! A lab the server hosts: the core running natively on its own thread, one thread owning one
//! simulation. Scripts come in through a bounded channel; what each printed goes out on a
//! broadcast channel to every watching WebSocket. Clients replay the lesson, seed and scripts
//! with their own copy of the core (deterministic), so they draw the same cluster. Closing a
//! lab stops its thread within moments, even mid-script: the core asks the lab's `cancelled`
//! flag between units of work. A script that runs past its wall-clock deadline is cut off the
//! same way and undone: the lab goes back to how it was before it, the script is not kept
//! (watchers replay only what was kept, so every copy stays identical), and everyone is told.
//! A lab's log of scripts has a size cap, and a lab no one uses is closed (`HostedLabs::expire_idle`).

use crate::hosted_api::{self, Recorder, WallClock};
use crate::kube_api::ServedLab;
use crate::kube_api::agents::Agents;
use crate::kube_api::cpu_quota;
use crate::kube_api::lab::{ApiLab, Stopped, Work};
use crate::kube_api::tokens::{TokenLimits, Tokens};
use crate::wall_clock_script;
use kubelab_core::lesson::{Lesson, LessonLab};
use kubelab_core::sim::interrupt::Interrupt;
pub use kubelab_wire::Entry;
use kubelab_wire::LabMessage;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
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
    script_bytes: usize,
    transcript: Vec<Entry>,
}

/// A hosted lab's bounds; `Default` is what `kubelab serve` uses.
#[derive(Clone, Copy, Debug)]
pub struct LabBounds {
    /// Wall-clock time one script may take.
    pub script_deadline: Duration,
    /// The scripts a lab keeps (newcomers replay them all), in bytes.
    pub max_log_bytes: usize,
}

impl Default for LabBounds {
    fn default() -> LabBounds {
        LabBounds { script_deadline: Duration::from_secs(10), max_log_bytes: 1024 * 1024 }
    }
}

/// Why a script was not queued.
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    Busy,
    LogFull(usize),
    /// A script would wait by running ahead the clock of a lab whose real machines live on
    /// the wall clock: the machines, and the command.
    RealNodes(Vec<String>, String),
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::Busy => f.write_str("the lab is busy; try again in a moment"),
            Refused::RealNodes(names, command) => write!(
                f,
                "this lab has real nodes ({}): its clock runs with the wall clock, so `{command}` cannot run it ahead here; run it from your own kubectl (\"Use your own kubectl\"), which waits in wall time",
                names.join(", ")
            ),
            Refused::LogFull(most) => {
                write!(f, "this lab's log is full ({} KiB of scripts, its limit); start a new lab", most / 1024)
            }
        }
    }
}

pub struct HostedLab {
    pub id: String,
    pub owner_id: String,
    pub lesson_id: String,
    pub seed: u64,
    inbox: mpsc::UnboundedSender<Input>,
    /// Scripts queued and not yet run (at most `INBOX`; the API's work queues apart).
    queued: Arc<AtomicUsize>,
    /// Who may use the lab's Kubernetes API (`hosted_api.rs`).
    pub tokens: Arc<Tokens>,
    /// The real machines that joined the lab as nodes (`kube_api/agents.rs`).
    pub agents: Arc<Agents>,
    updates: broadcast::Sender<String>,
    history: Arc<Mutex<History>>,
    closed: watch::Sender<bool>,
    /// Set when the lab closes; its thread stops at the next unit of work.
    cancelled: Arc<AtomicBool>,
    bounds: LabBounds,
    last_used: Mutex<Instant>,
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

/// Keeps a lab with real nodes on the wall clock even when no one uses its API: once a second,
/// while any machine has joined, an empty turn lets the lab's clock catch up (`hosted_api.rs`),
/// so a machine that went silent is marked NotReady on time. Ends when the lab closes.
fn start_ticker(
    inbox: mpsc::UnboundedSender<Input>,
    agents: Arc<Agents>,
    closed: Arc<AtomicBool>,
) -> std::io::Result<()> {
    std::thread::Builder::new().name("lab-ticker".into()).spawn(move || {
        while !closed.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_secs(1));
            if agents.any() && inbox.send(Input::Api(Work::OnThread(Box::new(|_| ())))).is_err() {
                return;
            }
        }
    })?;
    Ok(())
}

/// Holds the lab to its quota of CPU-seconds on real machines (`kube_api/cpu_quota.rs`): reads
/// the machines' counters every few seconds while any has joined, on a thread of its own so a
/// slow machine never delays the clock's ticks; taints go in as script lines, kept and replayed
/// with the lab's others.
fn start_quota_keeper(
    (inbox, queued): (mpsc::UnboundedSender<Input>, Arc<AtomicUsize>),
    agents: Arc<Agents>,
    closed: Arc<AtomicBool>,
) -> std::io::Result<()> {
    std::thread::Builder::new().name("lab-cpu-quota".into()).spawn(move || {
        while !closed.load(Ordering::SeqCst) {
            std::thread::sleep(cpu_quota::READ_EVERY);
            if !agents.any() {
                continue;
            }
            if let Some(line) = cpu_quota::keep(&agents) {
                queued.fetch_add(1, Ordering::SeqCst);
                if inbox.send(Input::Script(line)).is_err() {
                    return;
                }
            }
        }
    })?;
    Ok(())
}

impl Drop for LiveThread {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl HostedLab {
    /// Starts the lab's thread with the lesson's setup run; `live` counts it while it runs.
    pub fn start(
        (id, owner_id): (String, String),
        lesson: Lesson,
        bounds: LabBounds,
        live: &Arc<AtomicUsize>,
    ) -> std::io::Result<HostedLab> {
        let (inbox, scripts) = mpsc::unbounded_channel();
        let queued = Arc::new(AtomicUsize::new(0));
        let thread_queued = Arc::clone(&queued);
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
            let log = Log { updates: thread_updates, history: thread_history, max_bytes: bounds.max_log_bytes };
            run(lesson, (scripts, thread_queued), log, thread_cancelled, bounds.script_deadline)
        })?;
        let closed = watch::channel(false).0;
        let last_used = Mutex::new(Instant::now());
        let tokens = Arc::new(Tokens::new(TokenLimits::default()));
        let agents = Arc::new(Agents::default());
        start_ticker(inbox.clone(), Arc::clone(&agents), Arc::clone(&cancelled))?;
        start_quota_keeper((inbox.clone(), Arc::clone(&queued)), Arc::clone(&agents), Arc::clone(&cancelled))?;
        Ok(HostedLab {
            id,
            owner_id,
            lesson_id,
            seed,
            inbox,
            queued,
            tokens,
            agents,
            updates,
            history,
            closed,
            cancelled,
            bounds,
            last_used,
        })
    }

    /// The lab's Kubernetes API: its requests run on the lab's thread (`hosted_api.rs`).
    pub fn served(&self) -> ServedLab {
        let inbox = self.inbox.clone();
        let lab = ApiLab::recording(move |work| inbox.send(Input::Api(work)).map_err(|_| Stopped));
        self.touch();
        ServedLab { lab, tokens: Arc::clone(&self.tokens), agents: Arc::clone(&self.agents) }
    }

    /// Queues a script, unless the lab is busy (its inbox is full) or its log is full.
    pub fn submit(&self, script: String) -> Result<(), Refused> {
        let real_nodes: Vec<String> = self.agents.list().into_iter().map(|a| a.name).collect();
        if !real_nodes.is_empty() {
            let pieces = wall_clock_script::plan(&script).map_err(|command| Refused::RealNodes(real_nodes, command))?;
            if pieces.len() > 1 || pieces.first().is_some_and(|(wait, _)| !wait.is_zero()) {
                return self.submit_over_time(&script, pieces);
            }
        }
        let kept = self.history.lock().map(|h| h.script_bytes).unwrap_or_default();
        if kept + script.len() > self.bounds.max_log_bytes {
            return Err(Refused::LogFull(self.bounds.max_log_bytes));
        }
        self.touch();
        if self.queued.fetch_add(1, Ordering::SeqCst) >= INBOX {
            self.queued.fetch_sub(1, Ordering::SeqCst);
            return Err(Refused::Busy);
        }
        self.inbox.send(Input::Script(script)).map_err(|_| Refused::Busy)
    }

    /// Queues the first piece of a script now and each later one when its wait is over (a lab
    /// with real nodes: `wall_clock_script.rs`), unless the lab closes first.
    fn submit_over_time(&self, script: &str, pieces: wall_clock_script::Pieces) -> Result<(), Refused> {
        let kept = self.history.lock().map(|h| h.script_bytes).unwrap_or_default();
        if kept + script.len() > self.bounds.max_log_bytes {
            return Err(Refused::LogFull(self.bounds.max_log_bytes));
        }
        self.touch();
        let (inbox, queued, closed) = (self.inbox.clone(), Arc::clone(&self.queued), Arc::clone(&self.cancelled));
        let spawned = std::thread::Builder::new().name("lab-sleep".into()).spawn(move || {
            for (wait, piece) in pieces {
                std::thread::sleep(wait);
                if closed.load(Ordering::SeqCst) {
                    return;
                }
                queued.fetch_add(1, Ordering::SeqCst);
                if inbox.send(Input::Script(piece)).is_err() {
                    return;
                }
            }
        });
        spawned.map(drop).map_err(|_| Refused::Busy)
    }

    fn touch(&self) {
        *self.last_used.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Instant::now();
    }

    /// How long since anyone ran a script or came to watch, when no one watches now.
    pub fn idle_for(&self, now: Instant) -> Option<Duration> {
        if self.updates.receiver_count() > 0 {
            return None;
        }
        let last = *self.last_used.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        Some(now.saturating_duration_since(last))
    }

    pub fn subscribe(&self) -> (broadcast::Receiver<String>, watch::Receiver<bool>) {
        self.touch();
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

/// What reaches the lab's thread: a script from its page, or work from its Kubernetes API.
pub(crate) enum Input {
    Script(String),
    Api(Work),
}

/// The lab's kept scripts and its watchers.
struct Log {
    updates: broadcast::Sender<String>,
    history: Arc<Mutex<History>>,
    max_bytes: usize,
}

impl Recorder for Log {
    fn has_room(&self, bytes: usize) -> bool {
        let kept = self.history.lock().map(|h| h.script_bytes).unwrap_or_default();
        kept + bytes <= self.max_bytes
    }

    fn keep(&self, script: String, entries: Vec<Entry>) {
        let message = LabMessage::Ran { script: script.clone(), entries: entries.clone() }.to_json();
        keep(&self.history, Some(script), entries);
        // No watcher is not an error: the lab keeps running for the next one.
        let _ = self.updates.send(message);
    }
}

/// The lab's thread: runs each script as the learner would and broadcasts what it printed,
/// and serves the lab's Kubernetes API between scripts.
fn run(
    lesson: Lesson,
    (mut inbox, queued): (mpsc::UnboundedReceiver<Input>, Arc<AtomicUsize>),
    log: Log,
    cancelled: Arc<AtomicBool>,
    script_deadline: Duration,
) {
    let mut lab = LessonLab::new(&lesson);
    // The core asks between units of work; the answer is yes once the lab closes or the
    // script in hand passes its deadline.
    let deadline = Arc::new(Mutex::new(None::<Instant>));
    let (asked, due) = (Arc::clone(&cancelled), Arc::clone(&deadline));
    lab.set_interrupt(Interrupt::new(move || {
        let past = due.lock().ok().and_then(|d| *d).is_some_and(|d| Instant::now() >= d);
        past || asked.load(Ordering::SeqCst)
    }));
    if let Err(error) = lab.setup(&lesson) {
        tracing::error!(lesson = %lesson.id, %error, "hosted lab: the lesson's setup does not parse");
    }
    let mut wall = WallClock::default();
    while let Some(input) = inbox.blocking_recv() {
        if cancelled.load(Ordering::SeqCst) {
            return;
        }
        let script = match input {
            Input::Script(script) => {
                queued.fetch_sub(1, Ordering::SeqCst);
                script
            }
            Input::Api(work) => {
                let served = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    hosted_api::turn(&mut lab, &mut wall, work, &log);
                }));
                if served.is_err() {
                    return stop_after_panic(&lesson, "an API request", &log.updates);
                }
                continue;
            }
        };
        let before = lab.clone();
        set(&deadline, Some(Instant::now() + script_deadline));
        let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| lab.run_as_learner(&script)));
        let cut_off = lab.interrupted();
        set(&deadline, None);
        if cancelled.load(Ordering::SeqCst) {
            return;
        }
        let entries = match ran {
            _ if cut_off => {
                lab = before;
                let _ = log.updates.send(refusal(&script, script_deadline, &log.history));
                continue;
            }
            Ok(Ok(ran)) => ran
                .into_iter()
                .map(|r| Entry { command: r.written, output: r.output, succeeded: r.succeeded })
                .collect(),
            Ok(Err(error)) => {
                vec![Entry { command: script.clone(), output: format!("{}\n", error.message), succeeded: false }]
            }
            Err(_) => return stop_after_panic(&lesson, &script, &log.updates),
        };
        log.keep(script, entries);
    }
}

/// A panic in the core stops this lab only; its watchers are told.
fn stop_after_panic(lesson: &Lesson, what: &str, updates: &broadcast::Sender<String>) {
    tracing::error!(lesson = %lesson.id, %what, "hosted lab: the simulator panicked; the lab stops");
    let message = "the simulator stopped after an internal error".to_string();
    let _ = updates.send(LabMessage::Error { message }.to_json());
}

fn set(deadline: &Mutex<Option<Instant>>, value: Option<Instant>) {
    *deadline.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = value;
}

/// Adds to the history: the script when it is kept (replayed by newcomers), and its output.
fn keep(history: &Mutex<History>, script: Option<String>, entries: Vec<Entry>) {
    let mut history = history.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(script) = script {
        history.script_bytes += script.len();
        history.scripts.push(script);
    }
    history.transcript.extend(entries);
    let excess = history.transcript.len().saturating_sub(TRANSCRIPT_KEPT);
    history.transcript.drain(..excess);
}

/// A script cut off at its deadline: in the transcript as refused, not among the scripts.
fn refusal(script: &str, deadline: Duration, history: &Mutex<History>) -> String {
    let message = format!(
        "error: this script took more than {} s, this lab's limit; it was undone and the lab is as it was before it",
        deadline.as_secs_f64()
    );
    let entries = vec![Entry { command: script.to_string(), output: format!("{message}\n"), succeeded: false }];
    keep(history, None, entries);
    LabMessage::Refused { script: script.to_string(), message }.to_json()
}
