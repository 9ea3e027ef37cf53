//! A container's state as the CRI's `ContainerStatus` reports it.

use std::time::SystemTime;

/// Exit code of a container killed by SIGKILL (the grace period ran out, `kill`, OOM).
pub const EXIT_SIGKILL: i32 = 137;
/// Exit code of a guest that trapped (a wasm trap is the guest's crash; as a process that
/// aborts, 128 + SIGABRT).
pub const EXIT_TRAP: i32 = 134;
/// Exit code of a container whose command does not exist (runc's start error).
pub const EXIT_START_ERROR: i32 = 128;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum State {
    Running {
        started_at: SystemTime,
    },
    Exited {
        exit_code: i32,
        /// `Completed` (exit 0), `Error`, `OOMKilled` or `StartError`, as containerd reports it.
        reason: String,
        message: Option<String>,
        started_at: SystemTime,
        finished_at: SystemTime,
    },
}

impl State {
    pub fn is_running(&self) -> bool {
        matches!(self, State::Running { .. })
    }

    /// The exit code, once exited.
    pub fn exit_code(&self) -> Option<i32> {
        match self {
            State::Running { .. } => None,
            State::Exited { exit_code, .. } => Some(*exit_code),
        }
    }

    /// The reason, once exited.
    pub fn reason(&self) -> Option<&str> {
        match self {
            State::Running { .. } => None,
            State::Exited { reason, .. } => Some(reason),
        }
    }
}

/// How a container ended, before it is stamped with times.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    pub exit_code: i32,
    pub reason: &'static str,
    pub message: Option<String>,
}

impl Ending {
    /// The process exited on its own.
    pub fn exited(exit_code: i32) -> Ending {
        Ending { exit_code, reason: if exit_code == 0 { "Completed" } else { "Error" }, message: None }
    }

    /// SIGKILL: the kubelet's after a grace period, or `kill`.
    pub fn killed(message: Option<String>) -> Ending {
        Ending { exit_code: EXIT_SIGKILL, reason: "Error", message }
    }

    pub fn oom_killed() -> Ending {
        Ending { exit_code: EXIT_SIGKILL, reason: "OOMKilled", message: None }
    }
}
