//! The guest's side of the host ABI (ABI.md): the exports the node agent's runtime calls and
//! the imports it provides, over raw pointers into linear memory.
//!
//! `unsafe` is allowed here and only here: a WebAssembly export receives pointers the host
//! wrote into linear memory, and imports are foreign functions. Every pointer the host passes
//! came from `kl_alloc` with the length given back, which is what makes each use sound.
#![allow(unsafe_code)]

use crate::config::Config;
use crate::exec;
use crate::process::{Host, Process};
use std::alloc::{Layout, alloc};
use std::cell::RefCell;

#[link(wasm_import_module = "kubelab")]
unsafe extern "C" {
    fn kl_log(ptr: *const u8, len: usize);
    fn kl_listen(port: u32);
    fn kl_exit(code: i32);
}

thread_local! {
    static CONFIG: RefCell<Option<Config>> = const { RefCell::new(None) };
    static PROCESS: RefCell<Option<Process>> = const { RefCell::new(None) };
    /// The last reply, which the host copies out before its next call.
    static REPLY: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// The imports, as the process's host.
struct Imports;

impl Host for Imports {
    fn log(&mut self, line: &str) {
        // SAFETY: the host reads `len` bytes at `ptr`, which `line` holds for the call.
        unsafe { kl_log(line.as_ptr(), line.len()) }
    }

    fn listen(&mut self, port: u16) {
        // SAFETY: a plain value crosses.
        unsafe { kl_listen(u32::from(port)) }
    }

    fn exit(&mut self, code: i32) {
        // SAFETY: a plain value crosses.
        unsafe { kl_exit(code) }
    }
}

/// Keeps `bytes` as the reply and returns where it is: `ptr << 32 | len`; 0 when empty.
fn reply(bytes: Vec<u8>) -> i64 {
    if bytes.is_empty() {
        return 0;
    }
    REPLY.with(|slot| {
        let mut slot = slot.borrow_mut();
        *slot = bytes;
        ((slot.as_ptr() as i64) << 32) | slot.len() as i64
    })
}

/// Takes back a buffer the host filled after `kl_alloc(len)`.
fn take(ptr: *mut u8, len: usize) -> Vec<u8> {
    if len == 0 || ptr.is_null() {
        return Vec::new();
    }
    // SAFETY: `ptr` is `kl_alloc(len)`'s, an allocation of exactly `len` bytes with u8's
    // alignment, which the host has filled and hands over with this call.
    unsafe { Vec::from_raw_parts(ptr, len, len) }
}

/// A buffer of `len` bytes for the host to fill; the export it is passed to frees it.
#[unsafe(no_mangle)]
pub extern "C" fn kl_alloc(len: usize) -> *mut u8 {
    match Layout::array::<u8>(len) {
        // SAFETY: the layout is non-zero in size.
        Ok(layout) if len > 0 => unsafe { alloc(layout) },
        _ => std::ptr::null_mut(),
    }
}

/// The container's configuration (JSON); 0, or the error.
#[unsafe(no_mangle)]
pub extern "C" fn kl_init(ptr: *mut u8, len: usize) -> i64 {
    match Config::from_json(&take(ptr, len)) {
        Ok(config) => {
            CONFIG.with(|slot| *slot.borrow_mut() = Some(config));
            0
        }
        Err(err) => reply(err.into_bytes()),
    }
}

/// Starts the main process at `start_unix_ms`; 0, or the runtime's start error.
#[unsafe(no_mangle)]
pub extern "C" fn kl_start(start_unix_ms: i64) -> i64 {
    let Some(config) = CONFIG.with(|slot| slot.borrow().clone()) else {
        return reply(b"kl_start before kl_init".to_vec());
    };
    match Process::start(config, start_unix_ms) {
        Ok(process) => {
            PROCESS.with(|slot| *slot.borrow_mut() = Some(process));
            0
        }
        Err(err) => reply(err.into_bytes()),
    }
}

/// Does what is due `now_ms` after start; when the next thing is due, or -1.
#[unsafe(no_mangle)]
pub extern "C" fn kl_tick(now_ms: i64) -> i64 {
    let next = PROCESS.with(|slot| slot.borrow_mut().as_mut().and_then(|p| p.tick(ms(now_ms), &mut Imports)));
    next.map_or(-1, |at| i64::try_from(at).unwrap_or(i64::MAX))
}

/// Answers a request for the target (path and query) at `ptr`: `STATUS LATENCY_MS\nBODY`.
/// A target `grpc:SERVICE` is a gRPC health check: `200 0\nSTATUS`, or `404 0\n` while the
/// process speaks no gRPC.
#[unsafe(no_mangle)]
pub extern "C" fn kl_http(ptr: *mut u8, len: usize, now_ms: i64) -> i64 {
    let target = String::from_utf8_lossy(&take(ptr, len)).into_owned();
    if target.starts_with("grpc:") {
        let status = PROCESS.with(|slot| slot.borrow().as_ref()?.grpc_health(ms(now_ms)).map(str::to_string));
        let text = status.map_or("404 0\n".to_string(), |status| format!("200 0\n{status}"));
        return reply(text.into_bytes());
    }
    let answer = PROCESS.with(|slot| slot.borrow_mut().as_mut().map(|p| p.http(&target, ms(now_ms))));
    let text = match answer {
        Some(answer) => format!("{} {}\n{}", answer.status, answer.latency_ms, answer.body),
        None => "503 0\nnot started\n".to_string(),
    };
    reply(text.into_bytes())
}

/// SIGTERM, `now_ms` after start.
#[unsafe(no_mangle)]
pub extern "C" fn kl_sigterm(now_ms: i64) {
    PROCESS.with(|slot| {
        if let Some(process) = slot.borrow_mut().as_mut() {
            process.sigterm(ms(now_ms), &mut Imports);
        }
    });
}

/// Runs the command (a JSON list of strings at `ptr`) `since_ms` after the container started:
/// `exit CODE TOOK_MS\nOUTPUT`, `forever\nOUTPUT` or `notfound\nMESSAGE`.
#[unsafe(no_mangle)]
pub extern "C" fn kl_exec(ptr: *mut u8, len: usize, since_ms: i64) -> i64 {
    let argv: Vec<String> = match serde_json::from_slice::<serde_json::Value>(&take(ptr, len)) {
        Ok(serde_json::Value::Array(items)) => items.iter().filter_map(|v| v.as_str().map(str::to_string)).collect(),
        _ => Vec::new(),
    };
    let config = CONFIG.with(|slot| slot.borrow().clone()).unwrap_or_default();
    let text = match exec::exec(&config, &argv, ms(since_ms)) {
        Ok(exec::Exec { exit_code: Some(code), output, took_ms }) => format!("exit {code} {took_ms}\n{output}"),
        Ok(exec::Exec { exit_code: None, output, .. }) => format!("forever\n{output}"),
        Err(message) => format!("notfound\n{message}"),
    };
    reply(text.into_bytes())
}

fn ms(value: i64) -> u64 {
    u64::try_from(value).unwrap_or(0)
}
