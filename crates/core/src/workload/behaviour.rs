//! What an image's process does, as data (the `behaviour:` of a catalogue entry), and the pure
//! functions of time the kubelet asks of it: when it exits, what it uses, logs and answers.
//! The simulator's stand-in for the container runtime running a real process.

use super::inference::{GpuMemory, InferenceServer};
use super::shell::{self, Timeline};
use crate::api::container::Container;
use crate::sim::time::{Duration, SimTime};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

const MIB: u64 = 1024 * 1024;

/// A process's behaviour. Every field has a quiet default, so an entry states only what matters.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Behaviour {
    /// When set, the container's `command`/`args` are run by a busybox shell (`shell.rs`);
    /// this is the image's default command (`CMD`) when the container gives none.
    #[serde(default)]
    pub default_command: Option<Vec<String>>,
    /// Exits on its own this long after it starts.
    #[serde(default)]
    pub exit: Option<ExitSpec>,
    /// A config file it reads at start: without it, it does what `logs` and `exit` say; with
    /// it (mounted from a ConfigMap, say), it logs `found`'s lines and runs on.
    #[serde(default)]
    pub config_file: Option<ConfigFile>,
    #[serde(default)]
    pub memory_mi: u64,
    #[serde(default)]
    pub idle_millicores: u64,
    /// Extra CPU per request per second served (what the HPA sees under load).
    #[serde(default)]
    pub millicores_per_rps: u64,
    /// Memory the requests in flight hold, per request per second served, in KiB.
    #[serde(default)]
    pub memory_kib_per_rps: u64,
    /// A busier start (cache loading, JIT warm-up).
    #[serde(default)]
    pub startup: Option<Startup>,
    #[serde(default)]
    pub logs: Vec<LogLine>,
    /// Ports it opens, each from a moment after start.
    #[serde(default)]
    pub listen: Vec<Listen>,
    /// Also listens, at once, on every `containerPort` the container declares.
    #[serde(default)]
    pub listen_declared_ports: bool,
    /// HTTP handlers, matched as Go's `http.ServeMux` does (a pattern ending in `/` is a prefix).
    #[serde(default)]
    pub routes: Vec<Route>,
    /// The answer when no route matches.
    #[serde(default)]
    pub not_found: Option<Response>,
    /// `grpc.health.v1.Health/Check` answers over time; empty when it speaks no gRPC.
    #[serde(default)]
    pub grpc_health: Vec<GrpcHealth>,
    /// Has `/bin/sh` and busybox applets, so `exec` probes and `kubectl exec` can run.
    #[serde(default)]
    pub shell: bool,
    /// The image config's `USER` (`1000`, `1000:3000`, `memcache`); unset, it runs as root.
    #[serde(default)]
    pub user: Option<String>,
    /// Files in the image (path → content) that exec commands can read.
    #[serde(default)]
    pub files: BTreeMap<String, String>,
    #[serde(default)]
    pub sigterm: Sigterm,
    /// An inference server (`vllm serve MODEL`): its timings and models decide when it listens
    /// on its port, what it logs and whether the GPU it was given is large enough.
    #[serde(default)]
    pub inference: Option<InferenceServer>,
    /// An ingress controller (`k8s.io/ingress-nginx`): requests on its HTTP ports are routed
    /// by the Ingresses of the classes naming this controller (`network/ingress.rs`).
    #[serde(default)]
    pub ingress_controller: Option<String>,
    /// A Gateway API implementation (`gateway.nginx.org/nginx-gateway-controller`): requests
    /// on its HTTP ports are routed by the HTTPRoutes of its Gateways (`network/gateway.rs`).
    #[serde(default)]
    pub gateway_controller: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ExitSpec {
    pub after_ms: u64,
    pub exit_code: i32,
}

/// A file the process needs at start, and what it logs once it has read it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConfigFile {
    pub path: String,
    #[serde(default)]
    pub found: Vec<LogLine>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Startup {
    pub until_ms: u64,
    #[serde(default)]
    pub millicores: u64,
    #[serde(default)]
    pub memory_mi: u64,
}

/// A log line printed `afterMs` after start; `{pod}` is the pod's name (the hostname) and
/// `{time}` the moment, as Go's `log` and nginx print it (`2025/01/01 00:00:03`); `{klog}` an
/// info line's header as the control plane's klog prints it (`I0101 00:00:03.000000       1`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LogLine {
    #[serde(default)]
    pub after_ms: u64,
    pub text: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Listen {
    pub port: u16,
    #[serde(default)]
    pub after_ms: u64,
    /// The port speaks TLS (an HTTPS server): plain-HTTP clients get Go's 400, HTTPS ones an
    /// answer. Otherwise HTTPS clients fail their handshake.
    #[serde(default)]
    pub tls: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Route {
    pub path: String,
    /// Only this exact path (nginx's `location = /`), not the subtree.
    #[serde(default)]
    pub exact: bool,
    /// `/hog?mb=N`: allocates N MiB and keeps it.
    #[serde(default)]
    pub hog: bool,
    /// Answers over time: the last one whose `afterMs` has passed.
    #[serde(default)]
    pub responses: Vec<Response>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Response {
    #[serde(default)]
    pub after_ms: u64,
    pub status: u16,
    /// `{pod}` is the pod's name.
    #[serde(default)]
    pub body: String,
    /// How long it takes to answer (a probe with a shorter timeout fails).
    #[serde(default)]
    pub latency_ms: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GrpcHealth {
    #[serde(default)]
    pub after_ms: u64,
    /// `SERVING`, `NOT_SERVING`, `UNKNOWN`, `SERVICE_UNKNOWN`.
    pub status: String,
}

/// What SIGTERM does: exit after `exitAfterMs` (printing `logs`), or nothing (`ignore`), in
/// which case the kubelet's SIGKILL at the end of the grace period ends it (exit 137).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Sigterm {
    #[serde(default)]
    pub ignore: bool,
    #[serde(default)]
    pub exit_after_ms: u64,
    #[serde(default = "sigterm_exit_code")]
    pub exit_code: i32,
    #[serde(default)]
    pub logs: Vec<String>,
}

fn sigterm_exit_code() -> i32 {
    143
}

impl Default for Sigterm {
    fn default() -> Self {
        Sigterm { ignore: false, exit_after_ms: 0, exit_code: sigterm_exit_code(), logs: Vec::new() }
    }
}

/// What the kubelet injects into a running process: the rest is a function of time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProcessState {
    /// MiB allocated through `/hog?mb=N` since the container started.
    pub hog_mib: u64,
    /// When SIGTERM arrived, counted from the container's start.
    pub sigterm_after: Option<Duration>,
    /// The GPU memory the device plugin's devices give it, if any.
    pub gpu: Option<GpuMemory>,
    /// Its `configFile` was there when it started (a volume mounted it).
    pub config_found: bool,
}

/// How a process ended on its own: `state.terminated` of the container status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcessExit {
    /// Since the container started.
    pub after: Duration,
    pub exit_code: i32,
    /// `Completed` (exit 0), `Error`, or `StartError` when the runtime could not start it.
    pub reason: &'static str,
    /// The runtime's message (`StartError` only).
    pub message: Option<String>,
}

/// How a process answers SIGTERM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SigtermResponse {
    /// `None`: it keeps running until SIGKILL (busybox `sleep` as PID 1 ignores SIGTERM).
    pub exits_after: Option<Duration>,
    pub exit_code: i32,
}

/// An HTTP answer (`wget -qO-`, Services, probes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpResponse {
    pub status: u16,
    pub body: String,
    pub latency: Duration,
    /// MiB this request allocated (`/hog?mb=N`); the kubelet adds it to `ProcessState::hog_mib`.
    pub hog_mib: u64,
}

/// Nothing listens on the port: `connect: connection refused`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnectionRefused;

/// A resolved image's process: its behaviour, bound to the image it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Workload {
    /// The normalised reference (`docker.io/library/hello:v1`).
    pub image: String,
    pub behaviour: Behaviour,
}

impl Workload {
    /// What the container runs: `command` + `args`, else the image's default with `args`
    /// replacing it (as Kubernetes merges them with an image that has no ENTRYPOINT).
    pub fn argv(&self, container: &Container) -> Vec<String> {
        let default = self.behaviour.default_command.clone().unwrap_or_default();
        match (container.command.is_empty(), container.args.is_empty()) {
            (false, _) => container.command.iter().chain(&container.args).cloned().collect(),
            (true, false) => container.args.clone(),
            (true, true) => default,
        }
    }

    /// The shell timeline of the container's command (command-running images only), run with
    /// the process environment the container started with.
    fn timeline(
        &self,
        container: &Container,
        env: &[(String, String)],
        horizon: Duration,
    ) -> Option<Result<Timeline, shell::NotFound>> {
        self.behaviour.default_command.as_ref()?;
        Some(shell::run(&self.argv(container), env, &self.behaviour.files, horizon))
    }

    /// When the process exits on its own, if ever (its command given the image's environment
    /// alone).
    pub fn exit_at(&self, container: &Container, state: ProcessState) -> Option<ProcessExit> {
        self.exit_at_with_env(container, &[], state)
    }

    /// `exit_at` for a process started with environment `env`, which its command reads.
    pub fn exit_at_with_env(
        &self,
        container: &Container,
        env: &[(String, String)],
        state: ProcessState,
    ) -> Option<ProcessExit> {
        let exited = |after: Duration, exit_code: i32| ProcessExit {
            after,
            exit_code,
            reason: if exit_code == 0 { "Completed" } else { "Error" },
            message: None,
        };
        match self.timeline(container, env, Duration::ZERO) {
            Some(Ok(timeline)) => timeline.exit.map(|(after, code)| exited(after, code)),
            Some(Err(shell::NotFound(program))) => Some(ProcessExit {
                after: Duration::ZERO,
                exit_code: 128,
                reason: "StartError",
                message: Some(format!(
                    "failed to create containerd task: failed to create shim task: OCI runtime create failed: \
                     runc create failed: unable to start container process: exec: {program:?}: \
                     executable file not found in $PATH: unknown"
                )),
            }),
            None => match &self.behaviour.inference {
                Some(server) => {
                    server.plan(&self.argv(container), state.gpu, SimTime::ZERO).exit.map(|(at, c)| exited(at, c))
                }
                None if self.reads_its_config(state) => None,
                None => self.behaviour.exit.as_ref().map(|spec| exited(Duration(spec.after_ms), spec.exit_code)),
            },
        }
    }

    /// Whether it found the config file it needs, so runs instead of exiting.
    fn reads_its_config(&self, state: ProcessState) -> bool {
        self.behaviour.config_file.is_some() && state.config_found
    }

    /// GPU memory its process takes and keeps, given `gpu` (an inference server's
    /// `--gpu-memory-utilization` of it, once it starts; nothing for other images).
    pub fn gpu_memory_held(&self, container: &Container, gpu: Option<GpuMemory>) -> u64 {
        let Some(server) = &self.behaviour.inference else { return 0 };
        server.plan(&self.argv(container), gpu, SimTime::ZERO).holds_mib
    }

    /// How it answers SIGTERM.
    pub fn on_sigterm(&self) -> SigtermResponse {
        let sigterm = &self.behaviour.sigterm;
        SigtermResponse {
            exits_after: (!sigterm.ignore).then_some(Duration(sigterm.exit_after_ms)),
            exit_code: sigterm.exit_code,
        }
    }

    /// Working-set memory, in bytes.
    pub fn memory_bytes(&self, since_start: Duration, hog_mib: u64) -> u64 {
        let starting = self.behaviour.startup.as_ref().filter(|s| since_start.0 < s.until_ms);
        let base_mi = starting.map_or(self.behaviour.memory_mi, |s| s.memory_mi.max(self.behaviour.memory_mi));
        base_mi.saturating_add(hog_mib).saturating_mul(MIB)
    }

    /// CPU use, in millicores, while serving `requests_per_second`.
    pub fn cpu_millicores(&self, since_start: Duration, requests_per_second: u64) -> u64 {
        let starting = self.behaviour.startup.as_ref().filter(|s| since_start.0 < s.until_ms);
        let base = starting.map_or(self.behaviour.idle_millicores, |s| s.millicores);
        base.saturating_add(self.behaviour.millicores_per_rps.saturating_mul(requests_per_second))
    }

    /// What `kubectl logs` shows `since_start` after the container started at `started_at`.
    pub fn logs(
        &self,
        container: &Container,
        pod_name: &str,
        started_at: SimTime,
        since_start: Duration,
        state: ProcessState,
    ) -> Vec<String> {
        let lines = self.timed_logs(container, pod_name, started_at, since_start, state);
        lines.into_iter().map(|(_, text)| text).collect()
    }

    /// `logs`, each line with when it was printed (counted from the start): what
    /// `--timestamps` and `--since` read.
    pub fn timed_logs(
        &self,
        container: &Container,
        pod_name: &str,
        started_at: SimTime,
        since_start: Duration,
        state: ProcessState,
    ) -> Vec<(Duration, String)> {
        self.timed_logs_with_env(container, &[], pod_name, started_at, since_start, state)
    }

    /// `timed_logs` of a process started at `started_at` with environment `env`, read
    /// `since_start` after.
    pub fn timed_logs_with_env(
        &self,
        container: &Container,
        env: &[(String, String)],
        pod_name: &str,
        started_at: SimTime,
        since_start: Duration,
        state: ProcessState,
    ) -> Vec<(Duration, String)> {
        let expand = |at: Duration, text: &str| {
            let moment = started_at.plus(at);
            text.replace("{pod}", pod_name)
                .replace("{time}", &go_log_timestamp(moment))
                .replace("{klog}", &klog_header(moment))
        };
        let mut lines: Vec<(Duration, String)> = match self.timeline(container, env, since_start) {
            Some(Ok(timeline)) => timeline.timed_logs(),
            Some(Err(_)) => Vec::new(),
            None if self.behaviour.inference.is_some() => {
                let server = self.behaviour.inference.as_ref().expect("checked");
                server.plan(&self.argv(container), state.gpu, started_at).logs
            }
            None => {
                let config = self.behaviour.config_file.as_ref().filter(|_| state.config_found);
                let logs = config.map_or(&self.behaviour.logs, |config| &config.found);
                logs.iter().map(|l| (Duration(l.after_ms), expand(Duration(l.after_ms), &l.text))).collect()
            }
        };
        lines.retain(|(at, _)| *at <= since_start && state.sigterm_after.is_none_or(|s| *at <= s));
        if let Some(sigterm_at) = state.sigterm_after.filter(|at| *at <= since_start) {
            lines.extend(self.behaviour.sigterm.logs.iter().map(|text| (sigterm_at, expand(sigterm_at, text))));
        }
        lines
    }

    /// Whether something accepts connections on `port` at `since_start`.
    /// Whether `port` is one of the image's TLS listeners.
    pub fn serves_tls(&self, port: i32) -> bool {
        self.behaviour.listen.iter().any(|l| i32::from(l.port) == port && l.tls)
    }

    pub fn listening(&self, container: &Container, port: i32, since_start: Duration) -> bool {
        let opened = self.behaviour.listen.iter().any(|l| i32::from(l.port) == port && l.after_ms <= since_start.0);
        let declared = self.behaviour.listen_declared_ports && container.ports.iter().any(|p| p.container_port == port);
        let serving = self.behaviour.inference.as_ref().is_some_and(|server| {
            i32::from(server.port) == port
                && server.ready_after(&self.argv(container)).is_some_and(|ready| ready <= since_start)
        });
        opened || declared || serving
    }

    /// The answer to `GET path` on `port` (path may carry a query: `/hog?mb=100`), from a
    /// process whose environment is unknown (every `{env:NAME|default}` reads its default).
    pub fn respond(
        &self,
        container: &Container,
        path: &str,
        port: i32,
        pod_name: &str,
        since_start: Duration,
    ) -> Result<HttpResponse, ConnectionRefused> {
        self.respond_with_env(container, path, port, pod_name, &[], since_start)
    }

    /// `respond` from a process with environment `env`: a body's `{env:NAME|default}` is the
    /// variable's value when it is set and not empty, else the default (`os.Getenv` with a
    /// fallback, as the course's server reads `GREETING`).
    pub fn respond_with_env(
        &self,
        container: &Container,
        path: &str,
        port: i32,
        pod_name: &str,
        env: &[(String, String)],
        since_start: Duration,
    ) -> Result<HttpResponse, ConnectionRefused> {
        if !self.listening(container, port, since_start) {
            return Err(ConnectionRefused);
        }
        let (path, query) = path.split_once('?').unwrap_or((path, ""));
        let route = self.route(path);
        if route.is_some_and(|r| r.hog) {
            return Ok(hog(query));
        }
        let answer = route.and_then(|r| current(&r.responses, since_start)).or(self.behaviour.not_found.as_ref());
        let answer = answer.cloned().unwrap_or(Response {
            status: 404,
            body: "404 page not found\n".into(),
            ..Default::default()
        });
        let body = fill_env(&answer.body.replace("{pod}", pod_name), env);
        Ok(HttpResponse { status: answer.status, body, latency: Duration(answer.latency_ms), hog_mib: 0 })
    }

    /// `http.ServeMux` matching: the longest pattern that is the path, or a `/`-ended prefix of it.
    fn route(&self, path: &str) -> Option<&Route> {
        let path = if path.is_empty() { "/" } else { path };
        let matches = |r: &&Route| r.path == path || (!r.exact && r.path.ends_with('/') && path.starts_with(&r.path));
        self.behaviour.routes.iter().filter(matches).max_by_key(|r| r.path.len())
    }

    /// The gRPC health status at `since_start`; `None` when nothing speaking gRPC listens there.
    pub fn grpc_health(&self, container: &Container, port: i32, since_start: Duration) -> Option<&str> {
        if !self.listening(container, port, since_start) {
            return None;
        }
        let phase = self.behaviour.grpc_health.iter().rfind(|h| h.after_ms <= since_start.0);
        phase.map(|h| h.status.as_str())
    }

    /// Runs `argv` inside the container with its environment `env` (`exec` probes, preStop
    /// hooks): exit code and output, or `Err(program)` when the image has no such executable.
    pub fn exec(
        &self,
        container: &Container,
        env: &[(String, String)],
        argv: &[String],
        since_start: Duration,
    ) -> Result<ExecResult, String> {
        if !self.behaviour.shell {
            return Err(argv.first().cloned().unwrap_or_default());
        }
        let files = self.files_at(container, env, since_start);
        let run = shell::run(argv, env, &files, Duration::ZERO).map_err(|shell::NotFound(program)| program)?;
        let mut output: String = run.logs_until(Duration(u64::MAX)).into_iter().map(|line| line + "\n").collect();
        let mut cap = output.len().min(10 * 1024);
        while !output.is_char_boundary(cap) {
            cap -= 1;
        }
        output.truncate(cap);
        Ok(ExecResult { exit: run.exit, output })
    }

    /// The files in the container `since_start` after its process began: the image's, as its
    /// main process, started with environment `env`, has changed them.
    pub fn files_at(
        &self,
        container: &Container,
        env: &[(String, String)],
        since_start: Duration,
    ) -> BTreeMap<String, String> {
        match self.timeline(container, env, since_start) {
            Some(Ok(main)) => main.files_at(&self.behaviour.files, since_start),
            _ => self.behaviour.files.clone(),
        }
    }

    /// Every moment after start at which something observable can change (listening, answers,
    /// files), sorted; loops are unrolled up to `horizon`.
    pub fn change_points(&self, container: &Container, horizon: Duration) -> Vec<Duration> {
        self.change_points_with_env(container, &[], horizon)
    }

    /// `change_points` of a process started with environment `env`.
    pub fn change_points_with_env(
        &self,
        container: &Container,
        env: &[(String, String)],
        horizon: Duration,
    ) -> Vec<Duration> {
        let behaviour = &self.behaviour;
        let mut points: Vec<u64> = behaviour.listen.iter().map(|l| l.after_ms).collect();
        points.extend(behaviour.routes.iter().flat_map(|r| r.responses.iter().map(|a| a.after_ms)));
        points.extend(behaviour.grpc_health.iter().map(|h| h.after_ms));
        if let Some(server) = &behaviour.inference {
            points.extend(server.ready_after(&self.argv(container)).map(|d| d.0));
        }
        if let Some(Ok(timeline)) = self.timeline(container, env, horizon) {
            points.extend(timeline.effects.iter().map(|(at, _)| at.0));
        }
        points.sort_unstable();
        points.dedup();
        points.into_iter().map(Duration).collect()
    }
}

/// The result of a command run in the container.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExecResult {
    /// `Some((after, code))`, or `None` when it never ends (`sleep infinity`).
    pub exit: Option<(Duration, i32)>,
    /// stdout and stderr together, capped at 10 KiB as the kubelet caps probe output.
    pub output: String,
}

/// Replaces each `{env:NAME|default}` in `body` with the variable's value or the default
/// (also the real node's guest's, through kubelab-wasm-runtime).
pub fn fill_env(body: &str, env: &[(String, String)]) -> String {
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    while let Some(at) = rest.find("{env:") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 5..];
        let Some(close) = after.find('}') else {
            out.push_str(&rest[at..]);
            return out;
        };
        let (name, default) = after[..close].split_once('|').unwrap_or((&after[..close], ""));
        let value = env.iter().rev().find(|(n, v)| n == name && !v.is_empty()).map_or(default, |(_, v)| v.as_str());
        out.push_str(value);
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

fn current(responses: &[Response], since_start: Duration) -> Option<&Response> {
    responses.iter().rfind(|r| r.after_ms <= since_start.0)
}

/// `/hog?mb=N`.
fn hog(query: &str) -> HttpResponse {
    let mb = query.split('&').find_map(|pair| pair.strip_prefix("mb=")).and_then(|n| n.parse::<u64>().ok());
    match mb {
        Some(mb) => {
            HttpResponse { status: 200, body: format!("allocated {mb} MiB\n"), latency: Duration::ZERO, hog_mib: mb }
        }
        None => HttpResponse { status: 400, body: "usage: /hog?mb=N\n".into(), latency: Duration::ZERO, hog_mib: 0 },
    }
}

/// klog's header for an info line from PID 1: severity, `MMDD hh:mm:ss.uuuuuu`, the thread id
/// padded to seven (k8s.io/klog/v2 `formatHeader`).
fn klog_header(at: SimTime) -> String {
    let micro = at.to_rfc3339_micro();
    let (date, time) = micro.trim_end_matches('Z').split_once('T').unwrap_or((&micro, ""));
    let month_day: String = date.splitn(3, '-').skip(1).collect();
    format!("I{month_day} {time} {:>7}", 1)
}

/// Go's `log` prefix: `2025/01/01 00:00:03`.
fn go_log_timestamp(at: SimTime) -> String {
    let rfc3339 = at.to_rfc3339();
    let (date, time) = rfc3339.trim_end_matches('Z').split_once('T').unwrap_or((&rfc3339, ""));
    format!("{} {time}", date.replace('-', "/"))
}
