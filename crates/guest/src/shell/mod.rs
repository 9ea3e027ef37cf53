//! A small busybox `sh` for command-running images (busybox's `sleep 3600`, exec probes,
//! `kubectl exec`): the applets a probe or a first lesson reaches for, run on a private clock
//! that only `sleep` moves, laid out as a timeline (log lines, file changes, exit) as
//! kubelab-core's workload shell does; the guest then plays it out in real time.

mod applets;
mod interpreter;
mod syntax;

pub use interpreter::{Effect, Timeline, run};

/// Whether the image has this program: busybox's applets, found on `$PATH` or by path.
pub fn is_applet(program: &str) -> bool {
    let name = program.rsplit('/').next().unwrap_or(program);
    applets::APPLETS.contains(&name)
}

/// busybox images' `$PATH`.
pub const PATH: &str = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
