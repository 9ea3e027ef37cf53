//! The container's main process, acting out its behaviour in real time: the host calls
//! `tick` with the time since start and the process logs, opens ports and exits when the
//! behaviour says, answers requests, and answers SIGTERM. kubelab-core's `Workload` computes
//! the same things as functions of virtual time; this is the same behaviour, lived.

use crate::behaviour::{Answer, Route};
use crate::clock;
use crate::config::Config;
use crate::memory::{self, Held};
use crate::shell::{self, Effect, Timeline};

/// What the process asks of its host (imports in the wasm build; a recorder in tests).
pub trait Host {
    fn log(&mut self, line: &str);
    /// Start accepting connections on `port`.
    fn listen(&mut self, port: u16);
    fn exit(&mut self, code: i32);
}

/// A command-running image's script is laid out this far ahead at first, then further
/// (times four) each time the process gets halfway there.
const FIRST_HORIZON_MS: u64 = 10 * 60 * 1000;
const LAST_HORIZON_MS: u64 = 365 * 24 * 3600 * 1000;

/// An HTTP answer: status, body, and how long the server takes to send it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpAnswer {
    pub status: u16,
    pub body: String,
    pub latency_ms: u64,
}

/// What drives the process's life.
enum Main {
    /// A server image: the behaviour's logs and ports; `next_log` counts lines printed.
    /// `literal`: the lines are printed as they are (an inference server's plan), not expanded.
    Serve { next_log: usize, opened: Vec<bool>, literal: bool },
    /// A command-running image: its script's timeline, `printed` effects played so far.
    Script { command: Vec<String>, timeline: Timeline, horizon: u64, played: usize },
}

pub struct Process {
    config: Config,
    start_unix_ms: i64,
    main: Main,
    /// Ms since start when SIGTERM arrived (and the process heeded it).
    sigterm_at: Option<u64>,
    /// When and how it ends, if it ends on its own.
    exit_at: Option<(u64, i32)>,
    exited: bool,
    /// The process's own memory and what `/hog` took: held until it exits.
    held: Held,
}

impl Process {
    /// Starts the process; `Err` is the runtime's start error (no such program).
    pub fn start(mut config: Config, start_unix_ms: i64) -> Result<Process, String> {
        let planned = plan_inference(&mut config, start_unix_ms);
        let behaviour = &mut config.behaviour;
        behaviour.logs.sort_by_key(|(after, _)| *after);
        if behaviour.listen_declared_ports {
            for port in &config.ports {
                if !behaviour.listen.iter().any(|(open, _)| open == port) {
                    behaviour.listen.push((*port, 0));
                }
            }
        }
        let held = Held::new(config.behaviour.memory_mi);
        let (main, exit_at) = match config.command() {
            Some(command) => {
                let timeline = shell::run(&command, &config.environment(), &config.behaviour.files, FIRST_HORIZON_MS)
                    .map_err(|program| start_error(&program))?;
                let exit_at = timeline.exit;
                (Main::Script { command, timeline, horizon: FIRST_HORIZON_MS, played: 0 }, exit_at)
            }
            None => {
                let opened = vec![false; config.behaviour.listen.len()];
                let exit = planned.unwrap_or(config.behaviour.exit);
                (Main::Serve { next_log: 0, opened, literal: planned.is_some() }, exit)
            }
        };
        Ok(Process { config, start_unix_ms, main, sigterm_at: None, exit_at, exited: false, held })
    }

    /// Does what is due by `now_ms` after start; the next moment something is due, if any.
    pub fn tick(&mut self, now_ms: u64, host: &mut dyn Host) -> Option<u64> {
        if self.exited {
            return None;
        }
        let mut next = match &self.main {
            Main::Serve { .. } => self.serve(now_ms, host),
            Main::Script { .. } => self.play(now_ms, host),
        };
        if let Some((at, code)) = self.exit_at {
            if at <= now_ms {
                self.exited = true;
                self.held.release();
                host.exit(code);
                return None;
            }
            next = Some(next.map_or(at, |n| n.min(at)));
        }
        next
    }

    /// A server image's logs and ports due by `now_ms`; the next one's time.
    fn serve(&mut self, now_ms: u64, host: &mut dyn Host) -> Option<u64> {
        let Main::Serve { next_log, opened, literal } = &mut self.main else { return None };
        let behaviour = &self.config.behaviour;
        let mut next = None::<u64>;
        let mut due = |at: u64| next = Some(next.map_or(at, |n: u64| n.min(at)));
        while let Some((at, text)) = behaviour.logs.get(*next_log) {
            if self.sigterm_at.is_some() {
                break;
            }
            if *at > now_ms {
                due(*at);
                break;
            }
            match literal {
                true => host.log(text),
                false => host.log(&clock::expand(text, &self.config.pod, self.start_unix_ms + *at as i64)),
            }
            *next_log += 1;
        }
        for ((port, at), opened) in behaviour.listen.iter().zip(opened.iter_mut()) {
            if *opened {
                continue;
            }
            if *at <= now_ms {
                host.listen(*port);
                *opened = true;
            } else {
                due(*at);
            }
        }
        next
    }

    /// A script's log lines due by `now_ms`, laying it out further when it gets close.
    fn play(&mut self, now_ms: u64, host: &mut dyn Host) -> Option<u64> {
        let Main::Script { command, timeline, horizon, played } = &mut self.main else { return None };
        while timeline.exit.is_none() && now_ms >= *horizon / 2 && *horizon < LAST_HORIZON_MS {
            *horizon = horizon.saturating_mul(4);
            let env = self.config.environment();
            if let Ok(further) = shell::run(command, &env, &self.config.behaviour.files, *horizon) {
                *timeline = further;
                self.exit_at = self.exit_at.or(timeline.exit);
            }
        }
        while let Some((at, effect)) = timeline.effects.get(*played) {
            if *at > now_ms || self.sigterm_at.is_some_and(|s| *at > s) {
                break;
            }
            if let Effect::Log(line) = effect {
                host.log(line);
            }
            *played += 1;
        }
        let next_effect = timeline.effects.get(*played).map(|(at, _)| *at).filter(|_| self.sigterm_at.is_none());
        let relayout = (timeline.exit.is_none() && *horizon < LAST_HORIZON_MS).then_some(*horizon / 2);
        [next_effect, relayout].into_iter().flatten().min()
    }

    /// SIGTERM at `now_ms`: logs its lines and sets its exit, unless the process ignores it.
    pub fn sigterm(&mut self, now_ms: u64, host: &mut dyn Host) {
        let sigterm = &self.config.behaviour.sigterm;
        if self.exited || sigterm.ignore || self.sigterm_at.is_some() {
            return;
        }
        self.sigterm_at = Some(now_ms);
        for text in &sigterm.logs {
            host.log(&clock::expand(text, &self.config.pod, self.start_unix_ms + now_ms as i64));
        }
        let exit = (now_ms.saturating_add(sigterm.exit_after_ms), sigterm.exit_code);
        self.exit_at = Some(self.exit_at.map_or(exit, |own| own.min(exit)));
    }

    /// Answers `GET target` (path and query) at `now_ms`, burning the CPU a request costs.
    pub fn http(&mut self, target: &str, now_ms: u64) -> HttpAnswer {
        let (path, query) = target.split_once('?').unwrap_or((target, ""));
        let behaviour = &self.config.behaviour;
        memory::burn_cpu_ms(behaviour.millicores_per_rps);
        let route = find_route(&behaviour.routes, path);
        if route.is_some_and(|r| r.hog) {
            return self.hog(query);
        }
        let current = route.and_then(|r| r.responses.iter().rfind(|a| a.after_ms <= now_ms));
        let answer = current.or(behaviour.not_found.as_ref()).cloned().unwrap_or(Answer {
            status: 404,
            body: "404 page not found\n".into(),
            ..Answer::default()
        });
        HttpAnswer {
            status: answer.status,
            body: answer.body.replace("{pod}", &self.config.pod),
            latency_ms: answer.latency_ms,
        }
    }

    /// `grpc.health.v1.Health/Check` at `now_ms`, whatever the service asked: the last
    /// `grpcHealth` status whose time has come; `None` while it speaks no gRPC (kubelab-core's
    /// `Workload::grpc_health`).
    pub fn grpc_health(&self, now_ms: u64) -> Option<&str> {
        let phases = &self.config.behaviour.grpc_health;
        phases.iter().rfind(|(after, _)| *after <= now_ms).map(|(_, status)| status.as_str())
    }

    /// `/hog?mb=N`: takes N MiB and keeps it (past the memory limit, the process dies here).
    fn hog(&mut self, query: &str) -> HttpAnswer {
        let mb = query.split('&').find_map(|pair| pair.strip_prefix("mb=")).and_then(|n| n.parse::<u64>().ok());
        match mb {
            Some(mb) => {
                self.held.hog(mb);
                HttpAnswer { status: 200, body: format!("allocated {mb} MiB\n"), latency_ms: 0 }
            }
            None => HttpAnswer { status: 400, body: "usage: /hog?mb=N\n".into(), latency_ms: 0 },
        }
    }

    /// The container's files `since_ms` after start: the image's, as the main script changed them.
    pub fn files_at(config: &Config, since_ms: u64) -> std::collections::BTreeMap<String, String> {
        let files = &config.behaviour.files;
        match config.command().map(|command| shell::run(&command, &config.environment(), files, since_ms)) {
            Some(Ok(timeline)) => timeline.files_at(files, since_ms),
            _ => files.clone(),
        }
    }
}

/// An inference server's start, planned from its command line and GPUs (kubelab-core's
/// `Workload` asks `InferenceServer::plan` the same): its log lines replace the behaviour's
/// and its port opens once the model is loaded. `Some(exit)` (the plan's, if it dies) for an
/// inference server; `None` for any other image.
fn plan_inference(config: &mut Config, start_unix_ms: i64) -> Option<Option<(u64, i32)>> {
    if config.behaviour.default_command.is_some() {
        return None;
    }
    let server = config.behaviour.inference.as_ref()?;
    let plan = crate::inference::plan(server, &config.argv, config.gpu_mib(), start_unix_ms);
    let port = server.port;
    config.behaviour.logs = plan.logs;
    config.behaviour.listen.extend(plan.ready_after.map(|at| (port, at)));
    Some(plan.exit)
}

/// `http.ServeMux` matching: the longest pattern that is the path, or a `/`-ended prefix of it.
fn find_route<'a>(routes: &'a [Route], path: &str) -> Option<&'a Route> {
    let path = if path.is_empty() { "/" } else { path };
    let matches = |r: &&Route| r.path == path || (!r.exact && r.path.ends_with('/') && path.starts_with(&r.path));
    routes.iter().filter(matches).max_by_key(|r| r.path.len())
}

/// runc's error for a command the image does not have (the container's `StartError` message).
pub fn start_error(program: &str) -> String {
    format!(
        "failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create \
         failed: unable to start container process: exec: {program:?}: executable file not found in $PATH: unknown"
    )
}
