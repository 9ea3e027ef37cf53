//! The runtime (containerd with a wasm shim, as krustlet's wasi provider): one wasmtime engine,
//! each module compiled once and kept, and a container started per `start` on a thread of its
//! own. A ticker thread advances the engine's epoch, which is when running guests are
//! throttled, checked for SIGKILL and cut off past their wall-clock cap.

use crate::container::{Container, Shared};
use crate::exec;
use crate::guest::{self, Guest, HostState, InstantiateError, Limits};
use crate::shim::Shim;
use crate::spec::ContainerSpec;
use crate::state::{EXIT_START_ERROR, Ending};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use wasmtime::{Config, Engine, Linker, Module};

/// How often the epoch advances: the granularity of CPU throttling and of killing a guest
/// that is busy computing.
pub const EPOCH_TICK: Duration = Duration::from_millis(2);
/// Requests queued for one container's process before new ones get 503.
const INBOX: usize = 64;

pub struct Runtime {
    inner: Arc<Inner>,
    guest: PathBuf,
}

struct Inner {
    engine: Engine,
    linker: Linker<HostState>,
    modules: Mutex<HashMap<PathBuf, Module>>,
}

impl std::fmt::Debug for Runtime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Runtime({})", self.guest.display())
    }
}

impl Runtime {
    /// A runtime whose containers run `guest_wasm` (compiled now, so a bad module fails here).
    pub fn new(guest_wasm: &Path) -> Result<Runtime, String> {
        let mut config = Config::new();
        config.epoch_interruption(true);
        let engine = Engine::new(&config).map_err(|err| format!("wasmtime: {err:#}"))?;
        let linker = guest::linker(&engine).map_err(|err| format!("wasmtime: {err:#}"))?;
        let inner = Arc::new(Inner { engine, linker, modules: Mutex::new(HashMap::new()) });
        spawn_ticker(Arc::downgrade(&inner)).map_err(|err| format!("epoch ticker: {err}"))?;
        let runtime = Runtime { inner, guest: guest_wasm.to_path_buf() };
        runtime.module(guest_wasm)?;
        Ok(runtime)
    }

    /// Starts a container of the guest workload.
    pub fn start(&self, spec: ContainerSpec) -> Result<Container, String> {
        self.start_module(&self.guest, spec)
    }

    /// Starts a container running another module (compiled once per path). Fails for a module
    /// that will not instantiate as a guest, or a behaviour the guest cannot read.
    pub fn start_module(&self, wasm: &Path, spec: ContainerSpec) -> Result<Container, String> {
        let module = self.module(wasm)?;
        let limits = Limits {
            memory_bytes: spec.memory_limit_bytes,
            cpu_millicores: spec.cpu_limit_millicores,
            wall_clock_cap: spec.wall_clock_cap,
        };
        let config = spec.guest_config();
        let killed = Arc::new(AtomicBool::new(false));
        let instance = Guest::instantiate(&self.inner.linker, &module, &limits, killed.clone());
        let (outbox, inbox) = mpsc::sync_channel(INBOX);
        let exec = exec::Context { linker: self.inner.linker.clone(), module, config: config.clone(), limits };
        let (started, started_at) = (Instant::now(), SystemTime::now());
        let shared = Arc::new(Shared::new(
            spec.pod_name.clone(),
            spec.container.clone(),
            started,
            started_at,
            outbox.clone(),
            killed,
            exec,
            self.inner.clone(),
        ));
        let container = Container { shared: shared.clone() };
        let mut guest = match instance {
            Ok(guest) => guest,
            // The kernel would have started it and killed it at once.
            Err(InstantiateError::OutOfMemory) => {
                shared.finish(Ending::oom_killed());
                return Ok(container);
            }
            Err(InstantiateError::Invalid(err)) => return Err(format!("{}: {err}", wasm.display())),
        };
        match guest.init(&config) {
            Ok(Ok(())) => {}
            Ok(Err(err)) => return Err(format!("container {:?}: {err}", spec.container)),
            Err(failure) => return Err(format!("container {:?}: {:?}", spec.container, failure.ending())),
        }
        let start_unix_ms = started_at.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64);
        match guest.start(start_unix_ms) {
            Ok(Ok(())) => {}
            Ok(Err(message)) => {
                shared.finish(Ending { exit_code: EXIT_START_ERROR, reason: "StartError", message: Some(message) });
                return Ok(container);
            }
            Err(failure) => {
                shared.finish(failure.ending());
                return Ok(container);
            }
        }
        let shim = Shim {
            guest,
            shared,
            inbox,
            outbox,
            ip: spec.ip,
            wall_clock_cap: spec.wall_clock_cap,
            listeners: Vec::new(),
        };
        thread::Builder::new()
            .name(format!("ctr-{}-{}", spec.pod_name, spec.container))
            .spawn(move || shim.run())
            .map_err(|err| format!("starting the container's thread: {err}"))?;
        Ok(container)
    }

    /// The module at `path`, compiled on first use.
    fn module(&self, path: &Path) -> Result<Module, String> {
        let mut modules = self.inner.modules.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(module) = modules.get(path) {
            return Ok(module.clone());
        }
        let bytes = std::fs::read(path).map_err(|err| format!("{}: {err}", path.display()))?;
        let module = Module::new(&self.inner.engine, bytes).map_err(|err| format!("{}: {err:#}", path.display()))?;
        modules.insert(path.to_path_buf(), module.clone());
        Ok(module)
    }
}

/// Advances the engine's epoch every tick while the runtime lives.
fn spawn_ticker(inner: Weak<Inner>) -> std::io::Result<()> {
    let spawned = thread::Builder::new().name("wasm-epoch".into()).spawn(move || {
        while let Some(inner) = inner.upgrade() {
            inner.engine.increment_epoch();
            drop(inner);
            thread::sleep(EPOCH_TICK);
        }
    });
    spawned.map(|_| ())
}
