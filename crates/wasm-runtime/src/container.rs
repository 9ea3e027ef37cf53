//! The handle to a running container (the CRI's container id): its state, logs, exec and
//! stop, shared with the thread that runs it (`shim.rs`, containerd's shim).

use crate::exec;
use crate::http::Request;
use crate::state::{Ending, State};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::SyncSender;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime};

/// Log lines a container keeps (the kubelet rotates a container's log at 10 MiB).
const MAX_LOG_LINES: usize = 10_000;
/// How long `stop` and `kill` wait for the guest to end after SIGKILL (an epoch tick or two).
const KILL_WAIT: Duration = Duration::from_secs(5);

/// What the shim's loop is woken for.
pub enum Message {
    Http(Request),
    /// Look at the signals (`Signals`).
    Wake,
}

/// Signals sent to the process, read by the shim between calls into the guest.
#[derive(Debug, Default)]
pub struct Signals {
    /// SIGTERM sent, with when the grace period ends; the shim delivers it once.
    pub sigterm: Option<Instant>,
    pub sigterm_delivered: bool,
}

/// What a container handle and its shim share.
pub struct Shared {
    pub pod_name: String,
    pub container: String,
    pub started: Instant,
    pub started_at: SystemTime,
    state: Mutex<State>,
    ended: Condvar,
    logs: Mutex<VecDeque<(SystemTime, String)>>,
    pub signals: Mutex<Signals>,
    /// SIGKILL: checked at every epoch tick inside the guest and by the shim's loop.
    pub killed: Arc<AtomicBool>,
    pub wake: SyncSender<Message>,
    /// What an exec needs to start a process in the same image.
    pub exec: exec::Context,
    pub peak_memory_bytes: Mutex<usize>,
    /// CPU time the guest's code has used, in nanoseconds (the cgroup's `cpuacct.usage`).
    pub cpu_usage_nanos: AtomicU64,
    /// Keeps the runtime's epoch ticker going while the container lives.
    pub _runtime: Arc<dyn std::any::Any + Send + Sync>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Shared {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        pod_name: String,
        container: String,
        started: Instant,
        started_at: SystemTime,
        wake: SyncSender<Message>,
        killed: Arc<AtomicBool>,
        exec: exec::Context,
        runtime: Arc<dyn std::any::Any + Send + Sync>,
    ) -> Shared {
        Shared {
            pod_name,
            container,
            started,
            started_at,
            state: Mutex::new(State::Running { started_at }),
            ended: Condvar::new(),
            logs: Mutex::new(VecDeque::new()),
            signals: Mutex::new(Signals::default()),
            killed,
            wake,
            exec,
            peak_memory_bytes: Mutex::new(0),
            cpu_usage_nanos: AtomicU64::new(0),
            _runtime: runtime,
        }
    }

    pub fn log(&self, lines: Vec<(SystemTime, String)>) {
        let mut logs = lock(&self.logs);
        logs.extend(lines);
        while logs.len() > MAX_LOG_LINES {
            logs.pop_front();
        }
    }

    /// The process has ended: the container's final state.
    pub fn finish(&self, ending: Ending) {
        let mut state = lock(&self.state);
        if state.is_running() {
            *state = State::Exited {
                exit_code: ending.exit_code,
                reason: ending.reason.to_string(),
                message: ending.message,
                started_at: self.started_at,
                finished_at: SystemTime::now(),
            };
        }
        self.ended.notify_all();
    }

    /// Waits until the container has exited or `timeout` passes; whether it has.
    pub fn wait(&self, timeout: Duration) -> bool {
        let state = lock(&self.state);
        let (state, _) = self
            .ended
            .wait_timeout_while(state, timeout, |state| state.is_running())
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        !state.is_running()
    }

    pub fn since_start_ms(&self) -> u64 {
        u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX)
    }
}

/// A running (or exited) container. Cheap to clone; every clone is the same container.
#[derive(Clone)]
pub struct Container {
    pub(crate) shared: Arc<Shared>,
}

impl std::fmt::Debug for Container {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Container({}/{}: {:?})", self.shared.pod_name, self.shared.container, self.state())
    }
}

impl Container {
    pub fn state(&self) -> State {
        lock(&self.shared.state).clone()
    }

    /// Every line logged (the last 10,000), with when it was printed.
    pub fn logs(&self) -> Vec<(SystemTime, String)> {
        lock(&self.shared.logs).iter().cloned().collect()
    }

    /// Runs `argv` in the container (exec probes, `kubectl exec`): output and exit code.
    /// A program the image lacks: containerd's error and 126; no end within `timeout`: what it
    /// printed and 124; a container that is not running: containerd's error and 126.
    pub fn exec(&self, argv: &[String], timeout: Duration) -> (String, i32) {
        if !self.state().is_running() {
            let message = "rpc error: code = Unknown desc = failed to exec in container: container is in \
                           CONTAINER_EXITED state";
            return (message.to_string(), exec::EXIT_CANNOT_EXEC);
        }
        exec::run(&self.shared.exec, argv, self.shared.since_start_ms(), timeout)
    }

    /// SIGTERM now; SIGKILL (exit 137) if it has not exited when `grace` runs out, as the
    /// kubelet's `killContainer` does. Returns once the container has exited.
    pub fn stop(&self, grace: Duration) {
        {
            let mut signals = lock(&self.shared.signals);
            let deadline = Instant::now() + grace;
            signals.sigterm = Some(signals.sigterm.map_or(deadline, |d| d.min(deadline)));
        }
        let _ = self.shared.wake.try_send(Message::Wake);
        if !self.shared.wait(grace + Duration::from_millis(100)) {
            self.kill();
        }
    }

    /// SIGKILL: exit 137 at once (or within an epoch tick for a guest busy computing).
    pub fn kill(&self) {
        self.shared.killed.store(true, Ordering::SeqCst);
        let _ = self.shared.wake.try_send(Message::Wake);
        self.shared.wait(KILL_WAIT);
    }

    /// Waits until the container has exited or `timeout` passes; whether it has.
    pub fn wait(&self, timeout: Duration) -> bool {
        self.shared.wait(timeout)
    }

    /// The CPU time the container's process has used so far (the summary API's
    /// `usageCoreNanoSeconds`).
    pub fn cpu_usage(&self) -> Duration {
        Duration::from_nanos(self.shared.cpu_usage_nanos.load(Ordering::Relaxed))
    }

    /// The most linear memory the guest has had, in bytes (its working set's ceiling).
    pub fn peak_memory_bytes(&self) -> usize {
        *lock(&self.shared.peak_memory_bytes)
    }
}
