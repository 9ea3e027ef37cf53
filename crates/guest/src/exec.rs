//! `exec` in a running container (exec probes, `kubectl exec`): a new process in the same
//! image, run by the guest's busybox shell over the container's files as they are now.

use crate::config::Config;
use crate::process::Process;
use crate::shell;

/// The kubelet keeps at most this much of an exec's output (probe output is capped at 10 KiB).
const MAX_OUTPUT: usize = 10 * 1024;
/// An exec that has not ended after this long is laid out no further: it runs on.
const HORIZON_MS: u64 = 24 * 3600 * 1000;

/// How an exec went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exec {
    /// `None`: it never ends (`sleep infinity`); the host's timeout ends it.
    pub exit_code: Option<i32>,
    pub output: String,
    /// How long it runs, in real time (its `sleep`s).
    pub took_ms: u64,
}

/// Runs `argv` `since_ms` after the container started; `Err` is containerd's error for a
/// program the image does not have.
pub fn exec(config: &Config, argv: &[String], since_ms: u64) -> Result<Exec, String> {
    let program = argv.first().cloned().unwrap_or_default();
    if !config.behaviour.shell || !shell::is_applet(&program) {
        return Err(not_found(&program));
    }
    let files = Process::files_at(config, since_ms);
    let timeline = shell::run(argv, &config.environment(), &files, HORIZON_MS).map_err(|p| not_found(&p))?;
    let mut output = timeline.output();
    let mut cap = output.len().min(MAX_OUTPUT);
    while !output.is_char_boundary(cap) {
        cap -= 1;
    }
    output.truncate(cap);
    let took_ms = timeline.exit.map_or(u64::MAX, |(at, _)| at);
    Ok(Exec { exit_code: timeline.exit.map(|(_, code)| code), output, took_ms })
}

/// containerd's answer to an exec of a program the image lacks.
pub fn not_found(program: &str) -> String {
    format!(
        "OCI runtime exec failed: exec failed: unable to start container process: exec: {program:?}: \
         executable file not found in $PATH: unknown"
    )
}
