//! A container's process over time: runs its command through the busybox shell
//! ([`crate::shell`]) with a clock that only `sleep` moves, and lays out what it does (log
//! lines, files, exit) as a timeline, so the kubelet computes when things happen instead of
//! running anything.

use crate::shell::{self, Ending, FileChange, Host, Io, Shell};
use crate::sim::time::Duration;
use std::collections::BTreeMap;

/// Most effects one run records: loops stop unrolling here (every loop is bounded).
const MAX_EFFECTS: usize = 10_000;
/// Most bytes of log lines and file writes one run records: a busy loop that prints or appends
/// stops unrolling here, so a timeline never grows past a megabyte whatever its script.
const MAX_EFFECT_BYTES: usize = 1 << 20;
#[cfg(test)]
const MAX_FILE_BYTES: usize = 64 << 10;

/// Something a script does at a moment of its life.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Effect {
    Log(String),
    WriteFile {
        path: String,
        content: String,
    },
    /// `>>` and `touch`: only what is added, so a log file written line by line costs its
    /// lines, not every version of the whole file.
    AppendFile {
        path: String,
        text: String,
    },
    RemoveFile(String),
}

/// What a script does over time: effects in time order, then how it ends.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Timeline {
    pub effects: Vec<(Duration, Effect)>,
    /// `Some((at, code))` when the script exits on its own; `None` when it runs forever
    /// (`sleep infinity`, `while true`) or past the horizon it was unrolled to.
    pub exit: Option<(Duration, i32)>,
}

impl Timeline {
    /// The files the script has written and not removed by `at` (inclusive), over `initial`.
    pub fn files_at(&self, initial: &BTreeMap<String, String>, at: Duration) -> BTreeMap<String, String> {
        let mut files = initial.clone();
        for (_, effect) in self.effects.iter().take_while(|(when, _)| *when <= at) {
            match effect {
                Effect::WriteFile { path, content } => {
                    files.insert(path.clone(), content.clone());
                }
                Effect::AppendFile { path, text } => files.entry(path.clone()).or_default().push_str(text),
                Effect::RemoveFile(path) => {
                    files.remove(path);
                }
                Effect::Log(_) => {}
            }
        }
        files
    }

    /// Log lines with the moment each was printed.
    pub fn timed_logs(&self) -> Vec<(Duration, String)> {
        let lines = self.effects.iter().filter_map(|(when, effect)| match effect {
            Effect::Log(line) => Some((*when, line.clone())),
            _ => None,
        });
        lines.collect()
    }

    /// Log lines printed by `at` (inclusive).
    pub fn logs_until(&self, at: Duration) -> Vec<String> {
        self.timed_logs().into_iter().take_while(|(when, _)| *when <= at).map(|(_, line)| line).collect()
    }
}

/// A command the image cannot run: runc's `exec: "X": executable file not found in $PATH`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct NotFound(pub String);

/// Runs `argv` as PID 1 (or as an exec) in a busybox image with environment `env` (the
/// image's `PATH` and `HOME` alone when empty), starting with `files`, unrolling loops until
/// `horizon`.
pub(crate) fn run(
    argv: &[String],
    env: &[(String, String)],
    files: &BTreeMap<String, String>,
    horizon: Duration,
) -> Result<Timeline, NotFound> {
    let Some(program) = argv.first() else {
        return Err(NotFound(String::new()));
    };
    let applet = program.rsplit('/').next().unwrap_or(program);
    if !shell::is_applet(applet) {
        return Err(NotFound(program.clone()));
    }
    let mut host =
        Recorder { now: Duration::ZERO, horizon, out: Timeline::default(), effect_bytes: 0, line: String::new() };
    let image_env = [("PATH".to_string(), PATH.to_string()), ("HOME".to_string(), "/root".to_string())];
    let env = if env.is_empty() { &image_env[..] } else { env };
    let ending = Shell::new(&mut host, env, files.clone()).run_argv(argv);
    if !host.line.is_empty() {
        let line = std::mem::take(&mut host.line);
        host.emit(Effect::Log(line));
    }
    if let Ending::Exited(code) = ending {
        host.out.exit = Some((host.now, code));
    }
    Ok(host.out)
}

/// busybox images' `$PATH`.
pub const PATH: &str = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/// The shell's host on the kubelet's timeline: `sleep` moves a private clock, output becomes
/// log lines at the moment it is printed.
struct Recorder {
    now: Duration,
    horizon: Duration,
    out: Timeline,
    /// What `out.effects` holds in all (`MAX_EFFECT_BYTES`).
    effect_bytes: usize,
    /// Output printed since the last newline.
    line: String,
}

impl Recorder {
    fn emit(&mut self, effect: Effect) {
        if self.recording_is_full() {
            return;
        }
        self.effect_bytes += match &effect {
            Effect::Log(text) | Effect::RemoveFile(text) => text.len(),
            Effect::WriteFile { path, content: text } | Effect::AppendFile { path, text } => path.len() + text.len(),
        };
        self.out.effects.push((self.now, effect));
    }

    /// Past either cap nothing more is recorded, and loops stop unrolling.
    fn recording_is_full(&self) -> bool {
        self.out.effects.len() >= MAX_EFFECTS || self.effect_bytes >= MAX_EFFECT_BYTES
    }
}

impl Host for Recorder {
    fn terminal(&mut self, text: &str) {
        self.line.push_str(text);
        while let Some(at) = self.line.find('\n') {
            let line: String = self.line.drain(..=at).collect();
            self.emit(Effect::Log(line[..line.len() - 1].to_string()));
        }
    }

    fn sleep(&mut self, duration: Option<Duration>) -> bool {
        match duration {
            Some(duration) => {
                self.now = Duration(self.now.0.saturating_add(duration.0));
                true
            }
            None => false,
        }
    }

    fn past_horizon(&self) -> bool {
        self.now > self.horizon || self.recording_is_full()
    }

    fn file_changed(&mut self, change: FileChange) {
        self.emit(match change {
            FileChange::Write { path, content } => Effect::WriteFile { path, content },
            FileChange::Append { path, text } => Effect::AppendFile { path, text },
            FileChange::Remove(path) => Effect::RemoveFile(path),
        });
    }

    fn applet(&mut self, _name: &str, _args: &[String], _io: &mut Io) -> Option<i32> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn the_liveness_exec_story_writes_then_removes_its_file() {
        let script = "touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600";
        let timeline =
            run(&argv(&["/bin/sh", "-c", script]), &[], &BTreeMap::new(), Duration::from_secs(3600)).unwrap();
        assert_eq!(timeline.exit, Some((Duration::from_secs(630), 0)));
        let none = BTreeMap::new();
        assert!(timeline.files_at(&none, Duration::from_secs(29)).contains_key("/tmp/healthy"));
        assert!(!timeline.files_at(&none, Duration::from_secs(30)).contains_key("/tmp/healthy"));
    }

    #[test]
    fn commands_run_as_busybox_runs_them() {
        let none = BTreeMap::new();
        let horizon = Duration::from_secs(60);
        for (words, exit, logs) in [
            (vec!["sh"], Some((0, 0)), vec![]),
            (vec!["sleep", "3600"], Some((3_600_000, 0)), vec![]),
            (vec!["sleep", "infinity"], None, vec![]),
            (vec!["sh", "-c", "echo hi && sleep 2; exit 3"], Some((2_000, 3)), vec!["hi"]),
            (vec!["sh", "-c", "frobnicate --now"], Some((0, 127)), vec!["sh: frobnicate: not found"]),
            (vec!["sh", "-c", "false || echo rescued"], Some((0, 0)), vec!["rescued"]),
            (vec!["sh", "-c", "cat /nope"], Some((0, 1)), vec!["cat: can't open '/nope': No such file or directory"]),
            (vec!["sh", "-c", "echo ok > /tmp/f; cat /tmp/f"], Some((0, 0)), vec!["ok"]),
        ] {
            let timeline = run(&argv(&words), &[], &none, horizon).unwrap();
            let actual_exit = timeline.exit.map(|(at, code)| (at.as_millis(), code));
            let actual_logs = timeline.logs_until(Duration::from_secs(3600));
            assert_eq!((actual_exit, actual_logs), (exit, logs.iter().map(|l| l.to_string()).collect()), "{words:?}");
        }
        assert_eq!(run(&argv(&["frobnicate"]), &[], &none, horizon), Err(NotFound("frobnicate".into())));
    }

    #[test]
    fn hostile_scripts_stay_bounded() {
        let deep = "while true; do ".repeat(100) + &"done; ".repeat(100);
        let nested = (0..40).fold("true".to_string(), |inner, _| format!("sh -c '{inner}'"));
        let tiny_sleeps = "while true; do sleep 0.001; done";
        for script in [deep.as_str(), nested.as_str(), tiny_sleeps, "> ", "echo 'unterminated", "while true; do"] {
            let timeline = run(&argv(&["sh", "-c", script]), &[], &BTreeMap::new(), Duration::from_secs(86_400));
            assert!(timeline.is_ok(), "{script}");
        }
    }

    /// What a timeline holds, in bytes: its log lines and what it wrote.
    fn recorded_bytes(timeline: &Timeline) -> usize {
        let size = |effect: &Effect| match effect {
            Effect::Log(text) | Effect::RemoveFile(text) => text.len(),
            Effect::WriteFile { content: text, .. } | Effect::AppendFile { text, .. } => text.len(),
        };
        timeline.effects.iter().map(|(_, effect)| size(effect)).sum()
    }

    #[test]
    fn a_busy_loop_appending_to_a_file_records_each_line_once_not_the_whole_file_each_time() {
        // Found by fuzzing (exec_shell): every append recorded the whole file again, so ten
        // thousand turns of this loop held 600 MB and took seconds per kubelet sync.
        let script = "while true; do echo a >> /\u{1}\0\0\0\0\0\0\0 sl e /ch1; done";
        let timeline = run(&argv(&["sh", "-c", script]), &[], &BTreeMap::new(), Duration::from_secs(120)).unwrap();
        assert_eq!(timeline.exit, None);
        assert!(recorded_bytes(&timeline) <= MAX_EFFECT_BYTES, "{} bytes", recorded_bytes(&timeline));
        let files = timeline.files_at(&BTreeMap::new(), Duration::from_secs(120));
        let file = &files["/\u{1}\0\0\0\0\0\0\0"];
        assert!(file.starts_with("a sl e /ch1\na sl e /ch1\n") && file.len() <= MAX_FILE_BYTES, "{}", file.len());
    }

    #[test]
    fn a_file_that_appends_itself_to_itself_fills_the_disk_and_the_write_fails() {
        let script = "echo 0123456789abcdef > /tmp/f; ".to_string() + &"cat /tmp/f >> /tmp/f; ".repeat(40);
        let timeline = run(&argv(&["sh", "-c", &script]), &[], &BTreeMap::new(), Duration::from_secs(60)).unwrap();
        assert_eq!(timeline.exit, Some((Duration::ZERO, 1)));
        let logs = timeline.logs_until(Duration::from_secs(60));
        assert_eq!(logs.first().map(String::as_str), Some("sh: write error: No space left on device"));
        let files = timeline.files_at(&BTreeMap::new(), Duration::from_secs(60));
        assert!(files["/tmp/f"].len() <= MAX_FILE_BYTES);
        // Overwriting a file frees what it held.
        let rewrite = "while true; do echo 0123456789abcdef > /tmp/f; sleep 1; done";
        let timeline = run(&argv(&["sh", "-c", rewrite]), &[], &BTreeMap::new(), Duration::from_secs(3600)).unwrap();
        assert!(timeline.logs_until(Duration::from_secs(3600)).is_empty());
    }

    #[test]
    fn loops_unroll_to_the_horizon_and_never_exit() {
        let script = "while true; do echo tick; sleep 10; done";
        let timeline = run(&argv(&["sh", "-c", script]), &[], &BTreeMap::new(), Duration::from_secs(35)).unwrap();
        assert_eq!(timeline.exit, None);
        assert_eq!(timeline.logs_until(Duration::from_secs(35)).len(), 4);
        let busy = run(&argv(&["sh", "-c", "while true; do :; done"]), &[], &BTreeMap::new(), Duration::from_secs(35));
        assert_eq!(busy.unwrap().exit, None);
    }
}
