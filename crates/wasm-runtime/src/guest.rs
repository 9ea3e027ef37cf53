//! One instance of the guest module and the host's side of its ABI (crates/guest/ABI.md):
//! the imports it calls, the exports the runtime calls, and every call made under the
//! container's limits — memory growth checked, CPU throttled and a stuck call cut off at each
//! epoch tick. What a failed call means (OOM, kill, trap) is decided here, once.

use crate::limits::{MemoryLimiter, Throttle};
use crate::state::{EXIT_TRAP, Ending};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime};
use wasmtime::{
    Caller, Engine, Extern, Linker, Memory, Module, Result, Store, Trap, TypedFunc, UpdateDeadline, format_err,
};

/// A log line longer than this is cut (the CRI log format splits lines at 16 KiB).
const MAX_LINE: u32 = 16 * 1024;
/// The most a reply (an HTTP body, exec output) may hold.
const MAX_REPLY: u64 = 16 << 20;

/// The store's data: the limits and what the guest asked of the host during a call.
pub struct HostState {
    pub memory: MemoryLimiter,
    pub throttle: Throttle,
    pub logs: Vec<(SystemTime, String)>,
    pub listens: Vec<u16>,
    pub exit: Option<i32>,
    /// Set from outside (`kill`, a grace period run out): the next epoch tick ends the guest.
    pub killed: Arc<AtomicBool>,
    /// The current call must end by then (the wall-clock cap).
    deadline: Option<Instant>,
    cap_hit: bool,
}

/// Why a call into the guest failed: the guest is gone.
#[derive(Debug)]
pub enum Failure {
    OutOfMemory,
    Killed,
    /// One call ran past the wall-clock cap.
    Stuck(Duration),
    Trap(String),
}

impl Failure {
    pub fn ending(&self) -> Ending {
        match self {
            Failure::OutOfMemory => Ending::oom_killed(),
            Failure::Killed => Ending::killed(None),
            Failure::Stuck(cap) => Ending::killed(Some(format!(
                "killed: one call into the guest ran past the wall-clock cap of {:.1}s",
                cap.as_secs_f64()
            ))),
            Failure::Trap(message) => Ending { exit_code: EXIT_TRAP, reason: "Error", message: Some(message.clone()) },
        }
    }
}

/// The imports every guest gets (module `kubelab`).
pub fn linker(engine: &Engine) -> Result<Linker<HostState>> {
    let mut linker = Linker::new(engine);
    linker.func_wrap("kubelab", "kl_log", |mut caller: Caller<'_, HostState>, ptr: u32, len: u32| -> Result<()> {
        let bytes = read(&mut caller, ptr, len.min(MAX_LINE))?;
        let line = String::from_utf8_lossy(&bytes).into_owned();
        caller.data_mut().logs.push((SystemTime::now(), line));
        Ok(())
    })?;
    linker.func_wrap("kubelab", "kl_listen", |mut caller: Caller<'_, HostState>, port: u32| {
        if let Ok(port) = u16::try_from(port) {
            caller.data_mut().listens.push(port);
        }
    })?;
    linker.func_wrap("kubelab", "kl_exit", |mut caller: Caller<'_, HostState>, code: i32| {
        caller.data_mut().exit = Some(code);
    })?;
    Ok(linker)
}

fn read(caller: &mut Caller<'_, HostState>, ptr: u32, len: u32) -> Result<Vec<u8>> {
    let memory = caller.get_export("memory").and_then(Extern::into_memory).ok_or(format_err!("no memory export"))?;
    let mut bytes = vec![0; len as usize];
    memory.read(&*caller, ptr as usize, &mut bytes)?;
    Ok(bytes)
}

/// The limits an instance runs under.
#[derive(Clone, Debug)]
pub struct Limits {
    pub memory_bytes: Option<u64>,
    pub cpu_millicores: Option<u64>,
    pub wall_clock_cap: Duration,
}

pub struct Guest {
    store: Store<HostState>,
    memory: Memory,
    alloc: TypedFunc<u32, u32>,
    init: TypedFunc<(u32, u32), i64>,
    start: TypedFunc<i64, i64>,
    tick: TypedFunc<i64, i64>,
    http: TypedFunc<(u32, u32, i64), i64>,
    sigterm: TypedFunc<i64, ()>,
    exec: TypedFunc<(u32, u32, i64), i64>,
    cap: Duration,
}

/// Instantiating failed: the module is not a guest, or its first memory is over the limit.
#[derive(Debug)]
pub enum InstantiateError {
    OutOfMemory,
    Invalid(String),
}

impl Guest {
    pub fn instantiate(
        linker: &Linker<HostState>,
        module: &Module,
        limits: &Limits,
        killed: Arc<AtomicBool>,
    ) -> Result<Guest, InstantiateError> {
        let state = HostState {
            memory: MemoryLimiter::new(limits.memory_bytes),
            throttle: Throttle::new(limits.cpu_millicores),
            logs: Vec::new(),
            listens: Vec::new(),
            exit: None,
            killed,
            deadline: Some(Instant::now() + limits.wall_clock_cap),
            cap_hit: false,
        };
        let mut store = Store::new(module.engine(), state);
        store.limiter(|state| &mut state.memory);
        store.set_epoch_deadline(1);
        store.epoch_deadline_callback(on_epoch);
        let instance = match linker.instantiate(&mut store, module) {
            Ok(instance) => instance,
            Err(_) if store.data().memory.oom => return Err(InstantiateError::OutOfMemory),
            Err(err) => return Err(InstantiateError::Invalid(format!("{err:#}"))),
        };
        let invalid = |err: wasmtime::Error| InstantiateError::Invalid(format!("not a kubelab guest: {err:#}"));
        let memory =
            instance.get_memory(&mut store, "memory").ok_or(format_err!("no `memory` export")).map_err(invalid)?;
        Ok(Guest {
            memory,
            alloc: instance.get_typed_func(&mut store, "kl_alloc").map_err(invalid)?,
            init: instance.get_typed_func(&mut store, "kl_init").map_err(invalid)?,
            start: instance.get_typed_func(&mut store, "kl_start").map_err(invalid)?,
            tick: instance.get_typed_func(&mut store, "kl_tick").map_err(invalid)?,
            http: instance.get_typed_func(&mut store, "kl_http").map_err(invalid)?,
            sigterm: instance.get_typed_func(&mut store, "kl_sigterm").map_err(invalid)?,
            exec: instance.get_typed_func(&mut store, "kl_exec").map_err(invalid)?,
            store,
            cap: limits.wall_clock_cap,
        })
    }

    /// What the guest asked of the host since the last look: log lines, ports, its exit.
    pub fn take_requests(&mut self) -> (Vec<(SystemTime, String)>, Vec<u16>, Option<i32>) {
        let state = self.store.data_mut();
        (std::mem::take(&mut state.logs), std::mem::take(&mut state.listens), state.exit)
    }

    pub fn peak_memory_bytes(&self) -> usize {
        self.store.data().memory.peak_bytes.max(self.memory.data_size(&self.store))
    }

    /// The CPU time the guest's code has used.
    pub fn cpu_usage(&self) -> Duration {
        self.store.data().throttle.usage
    }

    /// Runs `f` under the wall-clock cap and the CPU throttle; a failure says why.
    fn call<R>(&mut self, f: impl FnOnce(&mut Self) -> Result<R>) -> Result<R, Failure> {
        let state = self.store.data_mut();
        state.deadline = Some(Instant::now() + self.cap);
        state.throttle.resume();
        let result = f(self);
        let state = self.store.data_mut();
        state.throttle.pause();
        state.deadline = None;
        result.map_err(|err| self.failure(err))
    }

    fn failure(&self, err: wasmtime::Error) -> Failure {
        let state = self.store.data();
        if state.memory.oom {
            Failure::OutOfMemory
        } else if state.killed.load(Ordering::SeqCst) {
            Failure::Killed
        } else if state.cap_hit {
            Failure::Stuck(self.cap)
        } else if let Some(trap) = err.downcast_ref::<Trap>() {
            Failure::Trap(format!("wasm trap: {trap}"))
        } else {
            Failure::Trap(format!("{err:#}"))
        }
    }

    /// Copies `bytes` into a buffer the guest allocates for them.
    fn pass(&mut self, bytes: &[u8]) -> Result<(u32, u32)> {
        let len = u32::try_from(bytes.len())?;
        if len == 0 {
            return Ok((0, 0));
        }
        let ptr = self.alloc.call(&mut self.store, len)?;
        self.memory.write(&mut self.store, ptr as usize, bytes)?;
        Ok((ptr, len))
    }

    /// Reads a reply (`ptr << 32 | len`; 0 is empty).
    fn reply(&mut self, packed: i64) -> Result<String> {
        let packed = packed as u64;
        let (ptr, len) = (packed >> 32, (packed & 0xffff_ffff).min(MAX_REPLY));
        let mut bytes = vec![0; len as usize];
        self.memory.read(&self.store, ptr as usize, &mut bytes)?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    /// `kl_init`: the configuration; `Ok(Err)` is the guest's complaint about it.
    pub fn init(&mut self, config: &[u8]) -> Result<Result<(), String>, Failure> {
        self.call(|g| {
            let (ptr, len) = g.pass(config)?;
            let packed = g.init.call(&mut g.store, (ptr, len))?;
            Ok(if packed == 0 { Ok(()) } else { Err(g.reply(packed)?) })
        })
    }

    /// `kl_start`; `Ok(Err)` is the start error (no such command).
    pub fn start(&mut self, start_unix_ms: i64) -> Result<Result<(), String>, Failure> {
        self.call(|g| {
            let packed = g.start.call(&mut g.store, start_unix_ms)?;
            Ok(if packed == 0 { Ok(()) } else { Err(g.reply(packed)?) })
        })
    }

    /// `kl_tick`: when the guest next wants a tick (ms since start).
    pub fn tick(&mut self, now_ms: u64) -> Result<Option<u64>, Failure> {
        self.call(|g| Ok(u64::try_from(g.tick.call(&mut g.store, ms(now_ms))?).ok()))
    }

    pub fn sigterm(&mut self, now_ms: u64) -> Result<(), Failure> {
        self.call(|g| g.sigterm.call(&mut g.store, ms(now_ms)))
    }

    /// `kl_http`: status, latency and body for the request target.
    pub fn http(&mut self, target: &str, now_ms: u64) -> Result<(u16, Duration, String), Failure> {
        let text = self.call(|g| {
            let (ptr, len) = g.pass(target.as_bytes())?;
            let packed = g.http.call(&mut g.store, (ptr, len, ms(now_ms)))?;
            g.reply(packed)
        })?;
        let (head, body) = text.split_once('\n').unwrap_or((&text, ""));
        let mut fields = head.split(' ').map(|f| f.parse::<u64>().unwrap_or(0));
        let status = u16::try_from(fields.next().unwrap_or(500)).unwrap_or(500);
        let latency = Duration::from_millis(fields.next().unwrap_or(0));
        Ok((status, latency, body.to_string()))
    }

    /// `kl_exec`: the guest's answer, as ABI.md words it.
    pub fn exec(&mut self, argv: &[String], since_ms: u64) -> Result<String, Failure> {
        let argv = serde_json::to_vec(argv).unwrap_or_default();
        self.call(|g| {
            let (ptr, len) = g.pass(&argv)?;
            let packed = g.exec.call(&mut g.store, (ptr, len, ms(since_ms)))?;
            g.reply(packed)
        })
    }
}

/// Every epoch tick while guest code runs: end it if killed or stuck, else charge its CPU.
fn on_epoch(mut ctx: wasmtime::StoreContextMut<'_, HostState>) -> Result<UpdateDeadline> {
    let state = ctx.data_mut();
    if state.killed.load(Ordering::SeqCst) {
        return Err(format_err!("killed"));
    }
    if state.deadline.is_some_and(|deadline| Instant::now() >= deadline) {
        state.cap_hit = true;
        return Err(format_err!("ran past the wall-clock cap"));
    }
    state.throttle.charge();
    Ok(UpdateDeadline::Continue(1))
}

fn ms(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}
