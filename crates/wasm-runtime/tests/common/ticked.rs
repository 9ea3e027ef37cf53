//! The guest on a virtual clock: `workload.wasm` instantiated directly in wasmtime and ticked
//! at exactly the moments it asks for, so a behaviour that takes a minute of real time (an
//! inference server loading its model) is compared with the simulation's virtual time in
//! milliseconds, through the same ABI the runtime uses.

use kubelab_wasm_runtime::ContainerSpec;
use std::sync::OnceLock;
use wasmtime::{Caller, Engine, Extern, Instance, Linker, Module, Store};

/// What the guest asked of its host, each with the virtual time it asked at.
#[derive(Debug, Default)]
pub struct Seen {
    pub now_ms: u64,
    pub logs: Vec<(u64, String)>,
    pub listens: Vec<(u16, u64)>,
    pub exit: Option<(u64, i32)>,
}

pub struct Ticked {
    store: Store<Seen>,
    instance: Instance,
    /// When the guest next wants a tick.
    next: Option<u64>,
}

fn module(engine: &Engine) -> &'static Module {
    static MODULE: OnceLock<Module> = OnceLock::new();
    MODULE.get_or_init(|| Module::from_file(engine, super::guest().expect("the guest is built")).expect("compiles"))
}

fn engine() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(Engine::default)
}

fn text(caller: &mut Caller<'_, Seen>, ptr: u32, len: u32) -> String {
    let memory = caller.get_export("memory").and_then(Extern::into_memory).expect("memory");
    let mut bytes = vec![0; len as usize];
    memory.read(&*caller, ptr as usize, &mut bytes).expect("in bounds");
    String::from_utf8_lossy(&bytes).into_owned()
}

fn linker() -> Linker<Seen> {
    let mut linker = Linker::new(engine());
    linker
        .func_wrap("kubelab", "kl_log", |mut c: Caller<'_, Seen>, ptr: u32, len: u32| {
            let line = text(&mut c, ptr, len);
            let now = c.data().now_ms;
            c.data_mut().logs.push((now, line));
        })
        .unwrap();
    linker
        .func_wrap("kubelab", "kl_listen", |mut c: Caller<'_, Seen>, port: u32| {
            let now = c.data().now_ms;
            c.data_mut().listens.push((port as u16, now));
        })
        .unwrap();
    linker
        .func_wrap("kubelab", "kl_exit", |mut c: Caller<'_, Seen>, code: i32| {
            let now = c.data().now_ms;
            c.data_mut().exit = Some((now, code));
        })
        .unwrap();
    linker
}

impl Ticked {
    /// `spec`'s container, configured as the runtime configures it and started at `start_unix_ms`.
    pub fn start(spec: &ContainerSpec, start_unix_ms: i64) -> Ticked {
        let mut store = Store::new(engine(), Seen::default());
        let instance = linker().instantiate(&mut store, module(engine())).expect("instantiates");
        let mut ticked = Ticked { store, instance, next: Some(0) };
        let (ptr, len) = ticked.pass(&spec.guest_config());
        let init = instance.get_typed_func::<(u32, u32), i64>(&mut ticked.store, "kl_init").unwrap();
        assert_eq!(init.call(&mut ticked.store, (ptr, len)).unwrap(), 0, "the configuration is valid");
        let start = instance.get_typed_func::<i64, i64>(&mut ticked.store, "kl_start").unwrap();
        assert_eq!(start.call(&mut ticked.store, start_unix_ms).unwrap(), 0, "it starts");
        ticked
    }

    /// Ticks at every moment the guest asks for, up to `end_ms` (or its exit).
    pub fn run_until(&mut self, end_ms: u64) -> &Seen {
        let tick = self.instance.get_typed_func::<i64, i64>(&mut self.store, "kl_tick").unwrap();
        while let Some(at) = self.next.filter(|at| *at <= end_ms && self.store.data().exit.is_none()) {
            self.store.data_mut().now_ms = at;
            self.next = u64::try_from(tick.call(&mut self.store, at as i64).unwrap()).ok();
        }
        self.store.data_mut().now_ms = end_ms;
        self.store.data()
    }

    /// `kl_http` at the current time: status and body.
    pub fn http(&mut self, target: &str) -> (u16, String) {
        let (ptr, len) = self.pass(target.as_bytes());
        let now = self.store.data().now_ms as i64;
        let http = self.instance.get_typed_func::<(u32, u32, i64), i64>(&mut self.store, "kl_http").unwrap();
        let packed = http.call(&mut self.store, (ptr, len, now)).unwrap() as u64;
        let memory = self.instance.get_memory(&mut self.store, "memory").unwrap();
        let mut bytes = vec![0; (packed & 0xffff_ffff) as usize];
        memory.read(&self.store, (packed >> 32) as usize, &mut bytes).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        let (head, body) = text.split_once('\n').unwrap_or((&text, ""));
        (head.split(' ').next().unwrap().parse().unwrap(), body.to_string())
    }

    fn pass(&mut self, bytes: &[u8]) -> (u32, u32) {
        let alloc = self.instance.get_typed_func::<u32, u32>(&mut self.store, "kl_alloc").unwrap();
        let ptr = alloc.call(&mut self.store, bytes.len() as u32).unwrap();
        let memory = self.instance.get_memory(&mut self.store, "memory").unwrap();
        memory.write(&mut self.store, ptr as usize, bytes).unwrap();
        (ptr, bytes.len() as u32)
    }
}
