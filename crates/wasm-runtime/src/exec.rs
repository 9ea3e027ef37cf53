//! `exec` in a running container: a new process of the same image, as runc's `exec` starts
//! one beside PID 1 — a fresh instance of the guest module under the container's limits,
//! over the container's files as the main process has changed them by now.

use crate::guest::{Guest, HostState, Limits};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::thread;
use std::time::Duration;
use wasmtime::{Linker, Module};

/// containerd's exit code for an exec that could not start (no such program, container gone).
pub const EXIT_CANNOT_EXEC: i32 = 126;
/// An exec still running when its timeout ran out (as coreutils' `timeout` reports it).
pub const EXIT_TIMED_OUT: i32 = 124;

/// What starting a process in the container's image takes.
pub struct Context {
    pub linker: Linker<HostState>,
    pub module: Module,
    /// The container's configuration, as `kl_init` reads it.
    pub config: Vec<u8>,
    pub limits: Limits,
}

/// Runs `argv` `since_ms` after the container started: output and exit code. Its `sleep`s
/// take real time, cut off at `timeout`.
pub fn run(context: &Context, argv: &[String], since_ms: u64, timeout: Duration) -> (String, i32) {
    let limits = Limits { wall_clock_cap: context.limits.wall_clock_cap.min(timeout), ..context.limits.clone() };
    let killed = Arc::new(AtomicBool::new(false));
    let mut guest = match Guest::instantiate(&context.linker, &context.module, &limits, killed) {
        Ok(guest) => guest,
        Err(err) => return (format!("failed to start exec: {err:?}"), EXIT_CANNOT_EXEC),
    };
    let answer = guest.init(&context.config).and_then(|_| guest.exec(argv, since_ms));
    let text = match answer {
        Ok(text) => text,
        Err(failure) => {
            let ending = failure.ending();
            return (ending.message.unwrap_or_default(), ending.exit_code);
        }
    };
    let (head, output) = text.split_once('\n').unwrap_or((&text, ""));
    let mut words = head.split(' ');
    match (words.next(), words.next().and_then(|c| c.parse::<i32>().ok()), words.next()) {
        (Some("exit"), Some(code), Some(took)) => {
            let took = Duration::from_millis(took.parse().unwrap_or(0));
            thread::sleep(took.min(timeout));
            if took > timeout { (output.to_string(), EXIT_TIMED_OUT) } else { (output.to_string(), code) }
        }
        (Some("notfound"), ..) => (output.to_string(), EXIT_CANNOT_EXEC),
        _ => {
            thread::sleep(timeout);
            (output.to_string(), EXIT_TIMED_OUT)
        }
    }
}
