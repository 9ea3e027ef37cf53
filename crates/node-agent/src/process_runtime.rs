//! The opt-in runtime for GPU exercises (`--allow-process CMD`): a container whose command is an
//! allow-listed program (`nvidia-smi`) runs as a process on the host, kept to the devices the
//! kubelet's device manager gave its pod; every other container goes to the runtime it wraps
//! (the wasmtime one), as a CRI shim hands a RuntimeClass's pods to another OCI runtime.

use crate::runtime::{ContainerRuntime, ContainerSpec, ContainerState, RUN_ERROR_PREFIX, RunningContainer};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::io::{BufRead, BufReader, Read};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, mpsc};
use std::time::{Duration, Instant, SystemTime};

/// The longest a host process may run: a runaway exercise (`nvidia-smi -l 1`) is killed then.
pub const WALL_CLOCK_CAP: Duration = Duration::from_secs(600);
/// How often the waiter looks for the process's exit. Polling (not a blocking `wait`) keeps the
/// process unreaped while a signal is sent, so its group ID can never be another's.
const POLL: Duration = Duration::from_millis(20);
/// The lines a container keeps (the wasm runtime's bound), and the longest line.
const MAX_LOG_LINES: usize = 10_000;
const MAX_LINE_BYTES: u64 = 16 * 1024;
/// The most output an exec returns.
const MAX_EXEC_OUTPUT: u64 = 1024 * 1024;
/// How long an exited process's last lines may take to arrive before its state says so.
const DRAIN_WAIT: Duration = Duration::from_secs(1);
/// How long `kill` waits for the exit it caused.
const KILL_WAIT: Duration = Duration::from_secs(10);
/// containerd's exit codes for an exec that could not start and one that timed out.
const EXIT_CANNOT_EXEC: i32 = 126;
const EXIT_TIMED_OUT: i32 = 124;
/// The search path when the agent has none.
const DEFAULT_PATH: &str = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
const NVIDIA_SMI: &str = "nvidia-smi";

/// Dispatches each container by its command: an allowed program runs on the host, the rest go
/// to `fallback`.
///
/// Images: `pull` has no command to dispatch on, so it asks the fallback first (which pulls an
/// unknown repository such as `nvidia/cuda:12.4.0-base-ubuntu22.04` as the catalogue's default
/// image) and, when that refuses one (an official image the catalogue lacks, a misspelt tag),
/// takes it as present: a host process needs nothing from an image, which stays whatever the
/// pod names. A container of such an image whose command is not allowed is refused at start
/// with the pull's error (`CreateContainerError`).
///
/// Processes: the program is looked up on the agent's search path (never the pod's `PATH`, so a
/// pod cannot put its own `nvidia-smi` first) and runs in a process group of its own, with the
/// pod's environment only (after `PATH` and `HOME=/`, which an image's config would give and
/// the pod's own variables override) and `/` as its working directory. Its output lines are
/// its logs. `stop` sends SIGTERM to the group and SIGKILL after the grace period; exits and
/// signals become exit codes as runc reports them (128 + signal). `WALL_CLOCK_CAP` kills a
/// process that runs too long.
///
/// Devices: the NVIDIA container toolkit exposes only `NVIDIA_VISIBLE_DEVICES`' devices inside a
/// container; a host process sees every GPU, so the runtime confines it itself. `nvidia-smi`
/// talks to NVML, which ignores the variable, so it runs with `--id=<the pod's UUIDs>` (a `-i`
/// the pod gives is mapped as inside a container: index N is the pod's Nth device), and a pod
/// with no device may not run it. CUDA programs read `CUDA_VISIBLE_DEVICES`, which the kubelet
/// sets to the same UUIDs, and which is set empty for a pod with no device. The devices are the
/// `NVIDIA_VISIBLE_DEVICES` the kubelet appends last to the environment; they must be UUIDs of
/// this machine (`with_devices`). A pod that names a device of this machine in its own
/// `NVIDIA_VISIBLE_DEVICES` without asking for one is the toolkit's
/// `accept-nvidia-visible-devices-envvar-when-unprivileged` case, which this runtime cannot tell
/// apart until the container spec carries the allocation.
pub struct ProcessRuntime {
    settings: Arc<Settings>,
    fallback: Option<Arc<dyn ContainerRuntime>>,
    /// Images the fallback refused, taken as present for host processes: the refusal by image.
    host_only: Mutex<BTreeMap<String, String>>,
}

impl std::fmt::Debug for ProcessRuntime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProcessRuntime").field("allowed", &self.settings.allowed).finish_non_exhaustive()
    }
}

/// What deciding and starting a host process takes (its containers keep it for their execs).
#[derive(Clone, Debug)]
struct Settings {
    allowed: BTreeSet<String>,
    search_path: String,
    known_devices: Option<BTreeSet<String>>,
    wall_clock_cap: Duration,
}

impl ProcessRuntime {
    /// Runs `allowed` programs (bare names, found on the agent's `PATH`) as host processes and
    /// everything else through `fallback`; without one, every other container is refused.
    pub fn new(
        allowed: impl IntoIterator<Item = String>,
        fallback: Option<Arc<dyn ContainerRuntime>>,
    ) -> Result<ProcessRuntime, String> {
        let allowed: BTreeSet<String> = allowed.into_iter().collect();
        for name in &allowed {
            if name.is_empty() || name.contains('/') || name == "." || name == ".." {
                return Err(format!("--allow-process {name:?}: give a program's name (as nvidia-smi), not a path"));
            }
        }
        let search_path = std::env::var("PATH").ok().filter(|p| !p.is_empty()).unwrap_or(DEFAULT_PATH.to_string());
        let settings = Settings { allowed, search_path, known_devices: None, wall_clock_cap: WALL_CLOCK_CAP };
        Ok(ProcessRuntime { settings: Arc::new(settings), fallback, host_only: Mutex::default() })
    }

    /// Where allowed programs are looked up (and the processes' `PATH`).
    pub fn with_search_path(mut self, path: &str) -> ProcessRuntime {
        Arc::make_mut(&mut self.settings).search_path = path.to_string();
        self
    }

    /// The device UUIDs of this machine (GPUs and MIG devices): a container may be given only these.
    pub fn with_devices(mut self, uuids: impl IntoIterator<Item = String>) -> ProcessRuntime {
        Arc::make_mut(&mut self.settings).known_devices = Some(uuids.into_iter().collect());
        self
    }

    /// Overrides [`WALL_CLOCK_CAP`].
    pub fn with_wall_clock_cap(mut self, cap: Duration) -> ProcessRuntime {
        Arc::make_mut(&mut self.settings).wall_clock_cap = cap;
        self
    }

    /// Whether `argv` runs on the host.
    pub fn runs_on_host(&self, argv: &[String]) -> bool {
        self.settings.runs_on_host(argv)
    }
}

impl Settings {
    fn runs_on_host(&self, argv: &[String]) -> bool {
        argv.first().is_some_and(|program| self.allowed.contains(program))
    }

    /// The program's file on the search path.
    fn find(&self, program: &str) -> Option<PathBuf> {
        self.search_path
            .split(':')
            .filter(|dir| !dir.is_empty())
            .map(|dir| PathBuf::from(dir).join(program))
            .find(|path| std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0))
    }

    /// What runs for `argv` in a container with `env`, or why it may not.
    fn launch(&self, argv: &[String], env: &[(String, String)]) -> Result<Launch, Refusal> {
        let program = argv.first().cloned().unwrap_or_default();
        let devices = self.devices(env).map_err(Refusal::Policy)?;
        let mut args = argv[1..].to_vec();
        if program == NVIDIA_SMI {
            args = confine_nvidia_smi(args, &devices).map_err(Refusal::Policy)?;
        }
        let file = self.find(&program).ok_or_else(|| Refusal::NotFound(program.clone()))?;
        let mut full = vec![("PATH".to_string(), self.search_path.clone()), ("HOME".to_string(), "/".to_string())];
        full.extend(env.iter().cloned());
        if devices.is_empty() {
            // The toolkit gives a container without devices none; CUDA reads this variable.
            full.push(("CUDA_VISIBLE_DEVICES".to_string(), String::new()));
        }
        Ok(Launch { file, args, env: full })
    }

    /// The pod's devices: the last `NVIDIA_VISIBLE_DEVICES` (the kubelet appends its own last).
    fn devices(&self, env: &[(String, String)]) -> Result<Vec<String>, String> {
        let value = env.iter().rev().find(|(name, _)| name == "NVIDIA_VISIBLE_DEVICES").map(|(_, v)| v.trim());
        let Some(value) = value.filter(|v| !v.is_empty()) else { return Ok(Vec::new()) };
        let ids: Vec<String> = value.split(',').map(|id| id.trim().to_string()).collect();
        for id in &ids {
            if !(id.starts_with("GPU-") || id.starts_with("MIG-")) {
                return Err(format!(
                    "NVIDIA_VISIBLE_DEVICES={value}: a host process gets only device UUIDs the device plugin \
                     allocated (not all, none, void or indexes)"
                ));
            }
            if self.known_devices.as_ref().is_some_and(|known| !known.contains(id)) {
                return Err(format!("NVIDIA_VISIBLE_DEVICES={value}: {id} is not a device of this machine"));
            }
        }
        Ok(ids)
    }
}

/// A program to run, resolved.
struct Launch {
    file: PathBuf,
    args: Vec<String>,
    env: Vec<(String, String)>,
}

impl Launch {
    fn command(&self) -> Command {
        let mut command = Command::new(&self.file);
        command.args(&self.args).env_clear().envs(self.env.iter().map(|(k, v)| (k, v)));
        command.current_dir("/").stdin(Stdio::null()).process_group(0);
        command
    }
}

enum Refusal {
    /// The program is allowed but not on this machine (runc's start error).
    NotFound(String),
    /// The runtime will not run it as asked.
    Policy(String),
}

/// `nvidia-smi`'s arguments, kept to `devices`: the pod's `-i`/`--id` mapped to its devices, or
/// `--id=<all of them>` appended.
fn confine_nvidia_smi(args: Vec<String>, devices: &[String]) -> Result<Vec<String>, String> {
    if devices.is_empty() {
        return Err(
            "nvidia-smi runs on the host only for a pod that was given GPUs (resources.limits: nvidia.com/gpu or a \
             MIG resource): without one it would list every GPU on this machine"
                .to_string(),
        );
    }
    let map = |list: &str| -> Result<String, String> {
        let mapped: Result<Vec<String>, String> = list
            .split(',')
            .map(|id| {
                let id = id.trim();
                if devices.iter().any(|d| d == id) {
                    return Ok(id.to_string());
                }
                match id.parse::<usize>().ok().and_then(|index| devices.get(index)) {
                    Some(device) => Ok(device.clone()),
                    None => Err(format!(
                        "nvidia-smi -i {id}: this container's devices are {} (by index 0 to {})",
                        devices.join(","),
                        devices.len() - 1
                    )),
                }
            })
            .collect();
        Ok(mapped?.join(","))
    };
    let mut out = Vec::with_capacity(args.len() + 1);
    let mut given = false;
    let mut words = args.into_iter();
    while let Some(word) = words.next() {
        if word == "-i" || word == "--id" {
            let list = words.next().ok_or_else(|| format!("nvidia-smi {word}: a device is missing"))?;
            out.push(word);
            out.push(map(&list)?);
            given = true;
        } else if let Some(list) = word.strip_prefix("--id=").or_else(|| word.strip_prefix("-i=")) {
            out.push(format!("--id={}", map(list)?));
            given = true;
        } else {
            out.push(word);
        }
    }
    if !given {
        out.push(format!("--id={}", devices.join(",")));
    }
    Ok(out)
}

impl ContainerRuntime for ProcessRuntime {
    fn pull(&self, image: &str) -> Result<(), String> {
        let refusal = match &self.fallback {
            Some(fallback) => match fallback.pull(image) {
                Ok(()) => return Ok(()),
                Err(refusal) => refusal,
            },
            None => String::new(),
        };
        lock(&self.host_only).insert(image.to_string(), refusal);
        Ok(())
    }

    fn start(&self, spec: ContainerSpec) -> Result<Box<dyn RunningContainer>, String> {
        if !self.runs_on_host(&spec.argv) {
            if let Some(refusal) = lock(&self.host_only).get(&spec.image).filter(|r| !r.is_empty()) {
                return Err(refusal.clone());
            }
            let Some(fallback) = &self.fallback else {
                let allowed: Vec<&str> = self.settings.allowed.iter().map(String::as_str).collect();
                return Err(format!(
                    "this node runs only the commands {} (--allow-process), not {:?}",
                    allowed.join(", "),
                    spec.argv.first().map(String::as_str).unwrap_or("the image's entry point")
                ));
            };
            return fallback.start(spec);
        }
        let launch = match self.settings.launch(&spec.argv, &spec.env) {
            Ok(launch) => launch,
            Err(Refusal::Policy(message)) => return Err(message),
            Err(Refusal::NotFound(program)) => {
                return Err(format!(
                    "{RUN_ERROR_PREFIX}{START_ERROR}: exec: {program:?}: executable file not found in $PATH: unknown"
                ));
            }
        };
        // Host processes are the privileged path: each start is said in the agent's log, with
        // the devices it was kept to (the device check reads the UUIDs from this line).
        let devices = self.settings.devices(&spec.env).unwrap_or_default();
        eprintln!(
            "kubelab-agent: {}/{} container {}: running {} on this machine (devices: {})",
            spec.namespace,
            spec.pod_name,
            spec.container,
            std::iter::once(launch.file.display().to_string())
                .chain(launch.args.iter().cloned())
                .collect::<Vec<_>>()
                .join(" "),
            if devices.is_empty() { "none".to_string() } else { devices.join(",") }
        );
        let process = HostProcess::start(&launch, self.settings.wall_clock_cap)
            .map_err(|e| format!("{RUN_ERROR_PREFIX}{START_ERROR}: {e}"))?;
        Ok(Box::new(HostContainer { process, env: spec.env, settings: self.settings.clone() }))
    }

    fn has_image(&self, image: &str) -> bool {
        let fallback = self.fallback.as_ref().is_some_and(|f| f.has_image(image));
        fallback || lock(&self.host_only).contains_key(image)
    }

    fn image_id(&self, image: &str) -> String {
        self.fallback.as_ref().map(|f| f.image_id(image)).unwrap_or_default()
    }

    fn image_size(&self, image: &str) -> u64 {
        self.fallback.as_ref().map(|f| f.image_size(image)).unwrap_or_default()
    }

    fn version(&self) -> String {
        match &self.fallback {
            Some(fallback) => fallback.version(),
            None => "process://0.1.0".to_string(),
        }
    }
}

/// runc's words for a process that could not start.
const START_ERROR: &str = "failed to create containerd task: failed to create shim task: OCI runtime create failed: \
                           runc create failed: unable to start container process";

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// How a process ended, as the runtime reports it.
#[derive(Clone)]
struct Exit {
    code: i32,
    message: Option<String>,
    finished_at: SystemTime,
}

/// The exit code runc reports: the process's, or 128 + the signal that ended it.
fn exit_code(status: ExitStatus) -> i32 {
    status.code().or_else(|| status.signal().map(|signal| 128 + signal)).unwrap_or(255)
}

struct Inner {
    child: Child,
    /// Set when the process has been reaped: no signal may be sent after.
    reaped: Option<(ExitStatus, SystemTime)>,
    capped: bool,
    exit: Option<Exit>,
    logs: VecDeque<(SystemTime, String)>,
    drained: bool,
}

struct Shared {
    inner: Mutex<Inner>,
    changed: Condvar,
    started_at: SystemTime,
}

/// One host process in its own process group, its output read line by line.
#[derive(Clone)]
struct HostProcess(Arc<Shared>);

impl HostProcess {
    fn start(launch: &Launch, cap: Duration) -> std::io::Result<HostProcess> {
        let (reader, writer) = std::io::pipe()?;
        let mut command = launch.command();
        command.stdout(writer.try_clone()?).stderr(writer);
        let child = command.spawn()?;
        // The command holds the pipe's write end: dropped, the reader sees the end of output
        // once the process (and whatever it started) has exited.
        drop(command);
        let started = Instant::now();
        let inner = Inner { child, reaped: None, capped: false, exit: None, logs: VecDeque::new(), drained: false };
        let shared =
            Arc::new(Shared { inner: Mutex::new(inner), changed: Condvar::new(), started_at: SystemTime::now() });
        let process = HostProcess(shared);
        let lines = process.clone();
        std::thread::spawn(move || lines.read_logs(reader));
        let waiter = process.clone();
        std::thread::spawn(move || waiter.wait_for_exit(started, cap));
        Ok(process)
    }

    fn read_logs(&self, reader: std::io::PipeReader) {
        let mut reader = BufReader::new(reader);
        let mut line = Vec::new();
        loop {
            line.clear();
            match (&mut reader).take(MAX_LINE_BYTES).read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let text = String::from_utf8_lossy(&line).trim_end_matches(['\n', '\r']).to_string();
            let mut inner = lock(&self.0.inner);
            if inner.logs.len() == MAX_LOG_LINES {
                inner.logs.pop_front();
            }
            inner.logs.push_back((SystemTime::now(), text));
        }
        lock(&self.0.inner).drained = true;
        self.0.changed.notify_all();
    }

    fn wait_for_exit(&self, started: Instant, cap: Duration) {
        loop {
            {
                let mut inner = lock(&self.0.inner);
                match inner.child.try_wait() {
                    Ok(Some(status)) => {
                        inner.reaped = Some((status, SystemTime::now()));
                        break;
                    }
                    Ok(None) => {}
                    Err(_) => {
                        inner.reaped = Some((ExitStatus::from_raw(255 << 8), SystemTime::now()));
                        break;
                    }
                }
                if !inner.capped && started.elapsed() >= cap {
                    inner.capped = true;
                    signal(&mut inner.child, "KILL");
                }
            }
            std::thread::sleep(POLL);
        }
        // Its last lines first, so a finished container's logs are whole when its state says so.
        let deadline = Instant::now() + DRAIN_WAIT;
        let mut inner = lock(&self.0.inner);
        while !inner.drained {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            inner = self.0.changed.wait_timeout(inner, left).map(|(g, _)| g).unwrap_or_else(|e| e.into_inner().0);
        }
        let Some((status, finished_at)) = inner.reaped else { return };
        let message = inner
            .capped
            .then(|| format!("killed after running {}s, the agent's limit for host processes", cap.as_secs()));
        inner.exit = Some(Exit { code: exit_code(status), message, finished_at });
        drop(inner);
        self.0.changed.notify_all();
    }

    fn exit(&self) -> Option<Exit> {
        lock(&self.0.inner).exit.clone()
    }

    /// Sends `name` (TERM, KILL) to the process's group unless it has been reaped.
    fn signal(&self, name: &str) {
        let mut inner = lock(&self.0.inner);
        if inner.reaped.is_none() {
            signal(&mut inner.child, name);
        }
    }

    /// Waits until the exit is recorded or `timeout` passes; whether it is.
    fn wait(&self, timeout: Duration) -> bool {
        let inner = lock(&self.0.inner);
        let (inner, _) = self
            .0
            .changed
            .wait_timeout_while(inner, timeout, |inner| inner.exit.is_none())
            .unwrap_or_else(|e| e.into_inner());
        inner.exit.is_some()
    }
}

/// `kill -SIGNAL -- -PGID` to the group `child` leads, while it is unreaped (std sends no
/// signal but SIGKILL, and the workspace has no unsafe code); SIGKILL falls back to the leader.
fn signal(child: &mut Child, name: &str) {
    let group = format!("-{}", child.id());
    let sent = Command::new("kill")
        .args([&format!("-{name}"), "--", &group])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !sent && name == "KILL" {
        let _ = child.kill();
    }
}

/// A container that is a host process.
struct HostContainer {
    process: HostProcess,
    /// The container's environment, for execs.
    env: Vec<(String, String)>,
    settings: Arc<Settings>,
}

impl RunningContainer for HostContainer {
    fn state(&self) -> ContainerState {
        let started_at = self.process.0.started_at;
        match self.process.exit() {
            None => ContainerState::Running { started_at },
            Some(exit) => ContainerState::Exited {
                exit_code: exit.code,
                reason: if exit.code == 0 { "Completed" } else { "Error" }.to_string(),
                message: exit.message,
                started_at,
                finished_at: exit.finished_at,
            },
        }
    }

    fn logs(&self) -> Vec<(SystemTime, String)> {
        lock(&self.process.0.inner).logs.iter().cloned().collect()
    }

    /// An allowed program with the container's environment; another is not in the "image".
    fn exec(&self, argv: &[String], timeout: Duration) -> (String, i32) {
        if self.process.exit().is_some() {
            let message = "rpc error: code = Unknown desc = failed to exec in container: container is in \
                           CONTAINER_EXITED state";
            return (message.to_string(), EXIT_CANNOT_EXEC);
        }
        let program = argv.first().map(String::as_str).unwrap_or_default();
        if !self.settings.runs_on_host(argv) {
            return (exec_not_found(program), EXIT_CANNOT_EXEC);
        }
        match self.settings.launch(argv, &self.env) {
            Ok(launch) => run_exec(&launch, timeout),
            Err(Refusal::NotFound(program)) => (exec_not_found(&program), EXIT_CANNOT_EXEC),
            Err(Refusal::Policy(message)) => (message, EXIT_CANNOT_EXEC),
        }
    }

    fn stop(&self, grace: Duration) {
        self.process.signal("TERM");
        if !self.process.wait(grace) {
            self.kill();
        }
    }

    fn kill(&self) {
        self.process.signal("KILL");
        self.process.wait(KILL_WAIT);
    }
}

/// containerd's answer to an exec of a program the container lacks.
fn exec_not_found(program: &str) -> String {
    format!(
        "OCI runtime exec failed: exec failed: unable to start container process: exec: {program:?}: \
         executable file not found in $PATH: unknown"
    )
}

/// Runs an exec to its end or `timeout` (then its group is killed): output and exit code.
fn run_exec(launch: &Launch, timeout: Duration) -> (String, i32) {
    let started = Instant::now();
    let spawned = std::io::pipe().and_then(|(reader, writer)| {
        let mut command = launch.command();
        command.stdout(writer.try_clone()?).stderr(writer);
        let child = command.spawn()?;
        Ok((reader, child))
    });
    let (reader, mut child) = match spawned {
        Ok(spawned) => spawned,
        Err(e) => return (format!("failed to start exec: {e}"), EXIT_CANNOT_EXEC),
    };
    let (sender, output) = mpsc::channel();
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = reader.take(MAX_EXEC_OUTPUT).read_to_end(&mut bytes);
        let _ = sender.send(bytes);
    });
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if started.elapsed() < timeout => std::thread::sleep(POLL),
            _ => {
                signal(&mut child, "KILL");
                let _ = child.wait();
                break None;
            }
        }
    };
    let bytes = output.recv_timeout(DRAIN_WAIT).unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    match status {
        Some(status) => (text, exit_code(status)),
        None => (text, EXIT_TIMED_OUT),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    const A: &str = "GPU-11111111-2222-3333-4444-555555555555";
    const B: &str = "GPU-66666666-2222-3333-4444-555555555555";

    #[test]
    fn nvidia_smi_is_kept_to_the_pods_devices() {
        let devices = [A.to_string(), B.to_string()];
        assert_eq!(confine_nvidia_smi(words("-L"), &devices).unwrap(), words(&format!("-L --id={A},{B}")));
        assert_eq!(confine_nvidia_smi(words("-L -i 1"), &devices).unwrap(), words(&format!("-L -i {B}")));
        assert_eq!(
            confine_nvidia_smi(words(&format!("-q --id={A}")), &devices).unwrap(),
            words(&format!("-q --id={A}"))
        );
        let other = "GPU-99999999-2222-3333-4444-555555555555";
        let refused = confine_nvidia_smi(words(&format!("-q -i {other}")), &devices).unwrap_err();
        assert!(refused.contains("this container's devices are"), "{refused}");
        assert!(confine_nvidia_smi(words("-i 2"), &devices).is_err());
        assert!(confine_nvidia_smi(words("-L"), &[]).unwrap_err().contains("every GPU on this machine"));
    }

    #[test]
    fn only_this_machines_device_uuids_are_accepted() {
        let runtime = ProcessRuntime::new(["nvidia-smi".to_string()], None).unwrap().with_devices([A.to_string()]);
        let runtime = &runtime.settings;
        let env = |value: &str| vec![("NVIDIA_VISIBLE_DEVICES".to_string(), value.to_string())];
        assert_eq!(runtime.devices(&env(A)).unwrap(), [A]);
        assert!(runtime.devices(&env("all")).unwrap_err().contains("not all, none"));
        assert!(runtime.devices(&env(B)).unwrap_err().contains("not a device of this machine"));
        assert!(runtime.devices(&[]).unwrap().is_empty());
        assert!(ProcessRuntime::new(["/usr/bin/nvidia-smi".to_string()], None).unwrap_err().contains("not a path"));
    }
}
