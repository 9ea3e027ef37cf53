//! A lab served over the Kubernetes API: one thread owns the simulation, requests reach it
//! through a channel and their answers come back on a oneshot, so the core stays
//! single-threaded and deterministic. Its virtual clock follows the wall clock (1×) unless the
//! owner pauses it; watches are cursors the HTTP side holds and the thread advances.

use kubelab_core::api::Pod;
use kubelab_core::apiserver::impersonation::{Impersonation, RequestAttributes};
use kubelab_core::apiserver::rest::log::LogFollow;
use kubelab_core::apiserver::rest::watch::{EncodedEvents, WatchCursor};
use kubelab_core::apiserver::rest::{self, HttpRequest, HttpResponse};
use kubelab_core::cluster::ClusterSpec;
use kubelab_core::kubectl::MemoryFiles;
use kubelab_core::script;
use kubelab_core::sim::Sim;
use kubelab_core::sim::time::{Duration as SimDuration, SIM_EPOCH_UNIX_SECONDS, SimTime};
use kubelab_core::store::UserInfo;
use std::sync::Arc;
use std::sync::mpsc;
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

/// A request as the HTTP side read it, owned so it can cross to the lab's thread.
#[derive(Clone, Debug, Default)]
pub struct OwnedRequest {
    pub method: String,
    pub path: String,
    pub query: String,
    pub accept: String,
    pub content_type: String,
    pub body: Vec<u8>,
    /// Who the request asks to be served as (the `Impersonate-*` headers).
    pub impersonation: Box<Impersonation>,
}

impl OwnedRequest {
    pub(crate) fn borrow(&self) -> HttpRequest<'_> {
        HttpRequest {
            method: &self.method,
            path: &self.path,
            query: &self.query,
            accept: &self.accept,
            content_type: &self.content_type,
            body: &self.body,
        }
    }
}

/// The most virtual time a scripted lab lets pass for one wait on a watch (kubectl's own
/// `--timeout`s are longer; a client still waiting asks again).
const WAIT_LIMIT: SimDuration = SimDuration::from_secs(600);

/// Who asks to exec where.
pub struct ExecTarget {
    pub user: Arc<UserInfo>,
    pub namespace: String,
    pub pod: String,
    pub container: Option<String>,
    /// `attach` rather than `exec`.
    pub attach: bool,
}

/// One command to run in a container, and who asked.
pub struct ExecRun {
    pub user: Arc<UserInfo>,
    pub pod: Pod,
    pub container: String,
    pub argv: Vec<String>,
}

/// What the lab's thread is asked to do.
pub(crate) enum Work {
    Serve(OwnedRequest, Arc<UserInfo>, oneshot::Sender<HttpResponse>),
    /// Open a watch: the cursor, or the error to answer instead.
    Open(rest::WatchRequest, oneshot::Sender<Result<WatchCursor, HttpResponse>>),
    Poll(Box<WatchCursor>, oneshot::Sender<(Box<WatchCursor>, Vec<String>, bool)>),
    Close(kubelab_core::api::Kind),
    Follow(LogFollow, oneshot::Sender<(LogFollow, String, bool)>),
    ExecTarget(ExecTarget, oneshot::Sender<Result<(Pod, String), HttpResponse>>),
    Exec(Box<ExecRun>, oneshot::Sender<(String, serde_json::Value)>),
    /// Set how the clock runs; answers where virtual time stands.
    Clock(Option<Clock>, oneshot::Sender<(Clock, SimTime)>),
    /// Run scenario lines (lab verbs, sleep, the lab's own kubectl): the transcript.
    Script(String, oneshot::Sender<Result<String, String>>),
    /// Let this much virtual time pass now (a paused lab's only way forward).
    Step(SimDuration, oneshot::Sender<(Clock, SimTime)>),
    /// A step run with the simulation (a port-forward's, a node joining); it sends its own answer.
    OnThread(Box<dyn FnOnce(&mut Sim) + Send>),
}

/// How the lab's virtual clock moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Clock {
    /// Virtual time runs at this many times the wall clock's pace.
    Running(f64),
    Paused,
    /// Stopped, as `kubelab sim` keeps it: time passes at a `sleep` or a step, and while a
    /// client waits on a watch (kubectl's delete, rollout status, wait), timer to timer until
    /// what it watches changes, as the lab's own kubectl lets it pass while it waits.
    Scripted,
}

/// The handle the HTTP side holds; the thread stops when every handle is gone.
#[derive(Clone)]
pub struct ApiLab {
    inbox: Arc<dyn Fn(Work) -> Result<(), Stopped> + Send + Sync>,
    /// Whether everything that changes the lab is kept as its input (a hosted lab's thread):
    /// what cannot be kept yet (a port-forward's requests) is refused there.
    records: bool,
}

/// The lab has stopped (its thread ended).
#[derive(Debug)]
pub struct Stopped;

impl ApiLab {
    /// Starts a lab with `cluster`'s nodes from `seed`, ready (kube-system Running) on return.
    /// A scripted lab starts at the simulator's epoch, as `kubelab sim` does, so the same lines
    /// give the same transcript; the others start at the wall clock's time.
    pub fn start(seed: u64, cluster: &ClusterSpec, clock: Clock) -> std::io::Result<ApiLab> {
        let (inbox, work) = mpsc::channel();
        // kind hands a cluster over once kube-system is Ready, about ten seconds after its
        // nodes started: the lab starts that far back, so it is ready now, not in the future.
        let boot = SimDuration::from_secs(10).as_millis();
        let start = SimTime::from_millis(wall_clock_now().as_millis().saturating_sub(boot));
        let sim = match clock {
            Clock::Scripted => Sim::new(seed, cluster),
            Clock::Running(_) | Clock::Paused => Sim::starting_at(seed, cluster, start),
        };
        std::thread::Builder::new().name("api-lab".into()).spawn(move || run(sim, clock, &work))?;
        Ok(ApiLab { inbox: Arc::new(move |work| inbox.send(work).map_err(|_| Stopped)), records: false })
    }

    /// A handle whose work goes to a lab that keeps what changes it as input (a hosted lab's
    /// thread, `hosted_api.rs`).
    pub(crate) fn recording(inbox: impl Fn(Work) -> Result<(), Stopped> + Send + Sync + 'static) -> ApiLab {
        ApiLab { inbox: Arc::new(inbox), records: true }
    }

    pub fn records_input(&self) -> bool {
        self.records
    }

    async fn ask<T>(&self, work: impl FnOnce(oneshot::Sender<T>) -> Work) -> Result<T, Stopped> {
        let (reply, answer) = oneshot::channel();
        (self.inbox)(work(reply))?;
        answer.await.map_err(|_| Stopped)
    }

    pub async fn serve(&self, request: OwnedRequest, user: Arc<UserInfo>) -> Result<HttpResponse, Stopped> {
        self.ask(|reply| Work::Serve(request, user, reply)).await
    }

    pub async fn open(&self, request: rest::WatchRequest) -> Result<Result<WatchCursor, HttpResponse>, Stopped> {
        self.ask(|reply| Work::Open(request, reply)).await
    }

    pub async fn poll(&self, cursor: Box<WatchCursor>) -> Result<(Box<WatchCursor>, Vec<String>, bool), Stopped> {
        self.ask(|reply| Work::Poll(cursor, reply)).await
    }

    /// The pod and container an exec reaches, or the API's answer why not.
    pub async fn exec_target(&self, target: ExecTarget) -> Result<Result<(Pod, String), HttpResponse>, Stopped> {
        self.ask(|reply| Work::ExecTarget(target, reply)).await
    }

    /// Runs a command in the container: what it printed and the Status that ends the stream.
    pub async fn exec(&self, run: ExecRun) -> Result<(String, serde_json::Value), Stopped> {
        self.ask(|reply| Work::Exec(Box::new(run), reply)).await
    }

    pub async fn follow(&self, follow: LogFollow) -> Result<(LogFollow, String, bool), Stopped> {
        self.ask(|reply| Work::Follow(follow, reply)).await
    }

    pub fn close(&self, kind: kubelab_core::api::Kind) {
        let _ = (self.inbox)(Work::Close(kind));
    }

    /// Sets the clock (`None` only reads it); answers how it runs and the lab's time.
    pub async fn clock(&self, clock: Option<Clock>) -> Result<(Clock, SimTime), Stopped> {
        self.ask(|reply| Work::Clock(clock, reply)).await
    }

    pub async fn script(&self, text: String) -> Result<Result<String, String>, Stopped> {
        self.ask(|reply| Work::Script(text, reply)).await
    }

    pub async fn step(&self, by: SimDuration) -> Result<(Clock, SimTime), Stopped> {
        self.ask(|reply| Work::Step(by, reply)).await
    }

    /// Runs a step (a port-forward's, a node joining) on the lab's thread: what it returns.
    pub async fn on_thread<T: Send + 'static>(
        &self,
        step: impl FnOnce(&mut Sim) -> T + Send + 'static,
    ) -> Result<T, Stopped> {
        self.ask(|reply| Work::OnThread(Box::new(move |sim| drop(reply.send(step(sim)))))).await
    }
}

thread_local! {
    /// The watch lines this lab's thread has encoded, shared by all its watches (each lab,
    /// hosted or not, has a thread of its own, so this is per lab).
    static ENCODED: std::cell::RefCell<EncodedEvents> = std::cell::RefCell::new(EncodedEvents::default());
}

/// The wall clock's time as a lab time (milliseconds since the simulator's epoch).
fn wall_clock_now() -> SimTime {
    let unix = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let epoch = Duration::from_secs(SIM_EPOCH_UNIX_SECONDS.max(0) as u64);
    SimTime::from_millis(unix.saturating_sub(epoch).as_millis() as u64)
}

/// The lab's thread: keeps virtual time with the wall clock and serves what comes in.
fn run(mut sim: Sim, mut clock: Clock, work: &mpsc::Receiver<Work>) {
    // Where virtual time stood at a wall-clock instant; virtual time runs on from there.
    let mut anchor = (wall_clock_now().max(sim.now()), Instant::now());
    loop {
        let next = match work.recv_timeout(Duration::from_millis(100)) {
            Ok(next) => Some(next),
            Err(mpsc::RecvTimeoutError::Timeout) => None,
            Err(mpsc::RecvTimeoutError::Disconnected) => return,
        };
        // A panic in the core must not take the server with it: the lab stops (its callers
        // are answered 503) and the process goes on, as a hosted lab does.
        let turned = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            catch_up(&mut sim, clock, anchor);
            if let Some(next) = next {
                turn(&mut sim, (&mut clock, &mut anchor), next);
            }
        }));
        if turned.is_err() {
            tracing::error!("a served lab stopped after an internal error in the simulator");
            return;
        }
    }
}

/// One piece of work on the lab's thread.
pub(crate) fn turn(sim: &mut Sim, (clock, anchor): (&mut Clock, &mut (SimTime, Instant)), work: Work) {
    match work {
        Work::Serve(request, user, reply) => {
            // The impersonation filter runs before the handler, on what the request asks.
            let asked = RequestAttributes::of(&request.method, &request.path, &request.query);
            let response = match request.impersonation.resolve(sim.store(), &user, &asked) {
                Ok(user) => rest::serve(sim, user, &request.borrow()),
                Err(refused) => HttpResponse::from_error(refused),
            };
            let _ = reply.send(response);
        }
        Work::Open(request, reply) => {
            let opened = WatchCursor::new(request).map_err(rest::HttpResponse::from_error);
            if let Ok(cursor) = &opened {
                sim.store_mut().snapshots_mut().open(cursor.kind());
            }
            let _ = reply.send(opened);
        }
        Work::Poll(mut cursor, reply) => {
            if *clock == Clock::Scripted {
                let deadline = sim.now().plus(WAIT_LIMIT);
                sim.wait_until(deadline, |store| cursor.has_news(store));
            }
            let (lines, ended) = ENCODED.with_borrow_mut(|shared| cursor.poll_shared(sim.store(), sim.now(), shared));
            let _ = reply.send((cursor, lines, ended));
        }
        Work::Follow(mut follow, reply) => {
            let (text, ended) = rest::log::poll(sim, &mut follow);
            let _ = reply.send((follow, text, ended));
        }
        Work::ExecTarget(t, reply) => {
            let found = rest::exec::target(sim, &t.user, (&t.namespace, &t.pod), t.container.as_deref());
            let _ = reply.send(found.map_err(HttpResponse::from_error));
        }
        Work::Exec(run, reply) => {
            let _ = reply.send(rest::exec::run(sim, &run.pod, &run.container, &run.argv));
        }
        Work::Close(kind) => sim.store_mut().snapshots_mut().close(kind),
        Work::Clock(new, reply) => {
            if let Some(new) = new {
                *clock = new;
                *anchor = (sim.now(), Instant::now());
            }
            let _ = reply.send((*clock, sim.now()));
        }
        Work::Script(text, reply) => {
            // What each line printed, without `kubelab sim`'s echo of it: the caller sent them.
            let ran = script::parse(&text).map(|steps| {
                let files = MemoryFiles::new();
                steps.iter().map(|step| script::run_step(sim, step, &files).0).collect::<String>()
            });
            *anchor = (sim.now(), Instant::now());
            let _ = reply.send(ran.map_err(|e| e.to_string()));
        }
        Work::Step(by, reply) => {
            sim.advance(by);
            *anchor = (sim.now(), Instant::now());
            let _ = reply.send((*clock, sim.now()));
        }
        Work::OnThread(step) => step(sim),
    }
}

/// Advances virtual time to where the clock says it should be by now: the anchor's time plus
/// the wall time since, times the speed. Never backwards.
fn catch_up(sim: &mut Sim, clock: Clock, (at, since): (SimTime, Instant)) {
    let Clock::Running(speed) = clock else { return };
    let elapsed = (since.elapsed().as_secs_f64() * speed * 1000.0) as u64;
    let target = at.plus(SimDuration::from_millis(elapsed));
    if target > sim.now() {
        sim.advance(target.since(sim.now()));
    }
}
