//! busybox `sh` (ash) and the applets a learner reaches for, as one interpreter: a container's
//! command, an exec probe, `kubectl exec` and `preStop` all run through it. What touches the
//! world outside the container's text (time, the network, processes) is asked of a [`Host`],
//! so the kubelet can lay a script out on a timeline and `kubectl exec` can reach Services.

mod applets;
mod arithmetic;
mod identity;
mod interpreter;
mod syntax;
#[cfg(test)]
mod tests;

pub use identity::Identity;
pub use interpreter::Shell;
pub use syntax::parse;

use crate::sim::time::Duration;

/// A container's files, by path.
pub type Files = std::collections::BTreeMap<String, String>;

/// busybox's banner line, which its applets print above their usage.
pub const BUSYBOX_BANNER: &str = "BusyBox v1.37.0 (2024-09-26 21:31:42 UTC) multi-call binary.";

/// What an applet reads and writes: stdin in; stdout and stderr out, in the order written
/// (a terminal shows them interleaved); files out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Io {
    pub stdin: String,
    /// What was written, in order: (`true` for stderr, text).
    pub written: Vec<(bool, String)>,
    /// Bytes written to stdout so far.
    pub stdout_len: usize,
    /// Files the applet wrote (`wget` without `-O-`), by path.
    pub files: Vec<(String, String)>,
}

impl Io {
    pub fn out(&mut self, text: impl AsRef<str>) {
        self.write(false, text.as_ref());
        self.stdout_len += text.as_ref().len();
    }

    pub fn err(&mut self, text: impl AsRef<str>) {
        self.write(true, text.as_ref());
    }

    fn write(&mut self, stderr: bool, text: &str) {
        match self.written.last_mut() {
            Some((last, buffer)) if *last == stderr => buffer.push_str(text),
            _ => self.written.push((stderr, text.to_string())),
        }
    }
}

/// A change to the container's files, for a host that records them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileChange {
    Write { path: String, content: String },
    Append { path: String, text: String },
    Remove(String),
}

/// Where the shell runs: the kubelet's timeline of a container, or a live exec session.
pub trait Host {
    /// Output that reaches the terminal (or the container's log).
    fn terminal(&mut self, text: &str);
    /// `sleep`: `None` is forever. False stops the script there, as if it never returned.
    fn sleep(&mut self, duration: Option<Duration>) -> bool;
    /// True once loops should stop unrolling (the kubelet's horizon); the script then runs on
    /// forever as far as anyone can tell.
    fn past_horizon(&self) -> bool;
    /// A file was written or removed.
    fn file_changed(&mut self, change: FileChange);
    /// An applet the host answers itself (`wget`, `nslookup`, `ps`…): its exit code, or `None`
    /// to leave it to the shell's own applets.
    fn applet(&mut self, name: &str, args: &[String], io: &mut Io) -> Option<i32>;
    /// What `date` prints.
    fn date(&self) -> String {
        "Thu Jan  1 00:00:00 UTC 1970".into()
    }
}

/// How a script ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    Exited(i32),
    /// Still running (a `sleep infinity`, a loop past the horizon, `tail -f`).
    Forever,
}

/// Whether busybox has an applet of this name (the image's `$PATH`).
pub fn is_applet(name: &str) -> bool {
    applets::APPLETS.contains(&name)
}
