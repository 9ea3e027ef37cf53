//! Probe outcomes against a workload, with upstream's messages: mirrors pkg/kubelet/prober
//! (URL building, port resolution) and pkg/probe/{http,tcp,exec,grpc}. The kubelet adds the
//! `Liveness probe failed: ` / `… probe errored and resulted in unknown state: ` prefixes.

use super::behaviour::{ProcessState, Workload};
use super::reference::pseudo_digest;
use crate::api::container::{Container, ExecAction, GrpcAction, HttpGetAction, Probe, TcpSocketAction};
use crate::api::intstr::IntOrString;
use crate::sim::time::Duration;

/// Upstream `SetDefaults_Probe`: `timeoutSeconds: 1`.
const DEFAULT_TIMEOUT_SECONDS: i32 = 1;
/// How far ahead `next_change` unrolls looping commands.
const LOOKAHEAD: Duration = Duration::from_secs(3600);

/// Everything a probe can see of one running container.
#[derive(Clone, Copy, Debug)]
pub struct ProbeContext<'a> {
    pub workload: &'a Workload,
    /// The container's spec: its ports name the probe's named ports, its command the process.
    pub container: &'a Container,
    /// The environment its process started with: what its command and exec probes read.
    pub env: &'a [(String, String)],
    pub pod_ip: &'a str,
    pub since_start: Duration,
    pub state: ProcessState,
    /// The requests it serves and its CPU limit: an HTTP probe waits behind them.
    pub load: super::Load,
}

impl ProbeContext<'_> {
    fn at(&self, since_start: Duration) -> Self {
        ProbeContext { since_start, ..*self }
    }
}

/// The result of one probe (upstream `probe.Result` with its output).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProbeOutcome {
    Success,
    /// `Failure`, with the message after `Readiness probe failed: `.
    Failure(String),
    /// `Unknown` with an error (a port name that resolves to nothing, an exec the runtime
    /// cannot start): the kubelet records `… probe errored and resulted in unknown state: <msg>`
    /// and treats it as a failure.
    Errored(String),
}

/// Runs `probe` once at `ctx.since_start`.
pub fn run_probe(probe: &Probe, ctx: &ProbeContext) -> ProbeOutcome {
    let timeout = Duration::from_secs(probe.timeout_seconds.unwrap_or(DEFAULT_TIMEOUT_SECONDS).max(1) as u64);
    if let Some(http_get) = &probe.http_get {
        http_probe(http_get, ctx, timeout)
    } else if let Some(tcp_socket) = &probe.tcp_socket {
        tcp_probe(tcp_socket, ctx)
    } else if let Some(exec) = &probe.exec {
        exec_probe(exec, ctx, timeout)
    } else if let Some(grpc) = &probe.grpc {
        grpc_probe(grpc, ctx, timeout)
    } else {
        ProbeOutcome::Errored(format!("missing probe handler for container {:?}", ctx.container.name))
    }
}

/// The earliest later time since start at which `probe`'s outcome differs from now;
/// `None` when it stays the same (looping commands are looked at for an hour ahead).
pub fn next_change(probe: &Probe, ctx: &ProbeContext) -> Option<Duration> {
    let now = run_probe(probe, ctx);
    let horizon = Duration(ctx.since_start.0.saturating_add(LOOKAHEAD.0));
    let points = ctx.workload.change_points_with_env(ctx.container, ctx.env, horizon);
    points.into_iter().filter(|at| *at > ctx.since_start).find(|at| run_probe(probe, &ctx.at(*at)) != now)
}

/// Upstream `probe.ResolveContainerPort`: a number, a named container port, or (last ditch)
/// a number written as a string.
fn resolve_port(port: &IntOrString, container: &Container) -> Result<i32, String> {
    let number = match port {
        IntOrString::Int(number) => *number,
        IntOrString::String(name) => match container.ports.iter().find(|p| p.name.as_deref() == Some(name.as_str())) {
            Some(declared) => declared.container_port,
            None => atoi(name)?,
        },
    };
    if number > 0 && number < 65536 { Ok(number) } else { Err(format!("invalid port number: {number}")) }
}

/// Go's `strconv.Atoi`, errors included.
fn atoi(text: &str) -> Result<i32, String> {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("strconv.Atoi: parsing {text:?}: invalid syntax"));
    }
    text.parse::<i64>()
        .ok()
        .and_then(|n| i32::try_from(n).ok())
        .ok_or_else(|| format!("strconv.Atoi: parsing {text:?}: value out of range"))
}

/// Go's `net.JoinHostPort`.
fn join_host_port(host: &str, port: i32) -> String {
    if host.contains(':') { format!("[{host}]:{port}") } else { format!("{host}:{port}") }
}

/// Why a connection from the kubelet fails, in Go's `net` words; `None` when it connects.
fn dial_error(ctx: &ProbeContext, host: &str, port: i32) -> Option<String> {
    let address = join_host_port(host, port);
    if host != ctx.pod_ip && !host.is_empty() && !is_ip_literal(host) {
        return Some(format!("dial tcp: lookup {host}: no such host"));
    }
    let reaches_container = host == ctx.pod_ip && ctx.workload.listening(ctx.container, port, ctx.since_start);
    (!reaches_container).then(|| format!("dial tcp {address}: connect: connection refused"))
}

fn is_ip_literal(host: &str) -> bool {
    host.contains(':') || host.split('.').count() == 4 && host.split('.').all(|octet| octet.parse::<u8>().is_ok())
}

/// Upstream `GetProbeUrl` + `DoHTTPProbe`: 200–399 passes.
fn http_probe(http_get: &HttpGetAction, ctx: &ProbeContext, timeout: Duration) -> ProbeOutcome {
    let port = match resolve_port(&http_get.port, ctx.container) {
        Ok(port) => port,
        Err(err) => return ProbeOutcome::Errored(err),
    };
    let scheme = http_get.scheme.as_deref().unwrap_or("HTTP").to_lowercase();
    let host = http_get.host.as_deref().filter(|h| !h.is_empty()).unwrap_or(ctx.pod_ip);
    let path = http_get.path.as_deref().unwrap_or("/");
    let slash = if path.starts_with('/') { "" } else { "/" };
    let url = format!("{scheme}://{}{slash}{path}", join_host_port(host, port));
    if let Some(err) = dial_error(ctx, host, port) {
        return ProbeOutcome::Failure(format!("Get {url:?}: {err}"));
    }
    let Ok(response) = ctx.workload.respond(ctx.container, path, port, "", ctx.since_start) else {
        return ProbeOutcome::Failure(format!(
            "Get {url:?}: dial tcp {}: connect: connection refused",
            join_host_port(host, port)
        ));
    };
    match (scheme == "https", ctx.workload.serves_tls(port)) {
        (true, false) => {
            return ProbeOutcome::Failure(format!("Get {url:?}: http: server gave HTTP response to HTTPS client"));
        }
        // Go's server answers a plain request on a TLS port with 400 before any handler runs.
        (false, true) => return ProbeOutcome::Failure("HTTP probe failed with statuscode: 400".into()),
        _ => {}
    }
    let wait = ctx.workload.queueing_delay(ctx.since_start, ctx.load);
    if Duration(response.latency.0.saturating_add(wait.0)) >= timeout {
        return ProbeOutcome::Failure(format!(
            "Get {url:?}: context deadline exceeded (Client.Timeout exceeded while awaiting headers)"
        ));
    }
    if (200..400).contains(&response.status) {
        ProbeOutcome::Success
    } else {
        ProbeOutcome::Failure(format!("HTTP probe failed with statuscode: {}", response.status))
    }
}

/// Upstream `DoTCPProbe`: a connection that opens passes.
fn tcp_probe(tcp_socket: &TcpSocketAction, ctx: &ProbeContext) -> ProbeOutcome {
    let port = match resolve_port(&tcp_socket.port, ctx.container) {
        Ok(port) => port,
        Err(err) => return ProbeOutcome::Errored(err),
    };
    let host = tcp_socket.host.as_deref().filter(|h| !h.is_empty()).unwrap_or(ctx.pod_ip);
    match dial_error(ctx, host, port) {
        Some(err) => ProbeOutcome::Failure(err),
        None => ProbeOutcome::Success,
    }
}

/// Upstream exec prober: exit 0 passes; otherwise the command's output is the message.
fn exec_probe(exec: &ExecAction, ctx: &ProbeContext, timeout: Duration) -> ProbeOutcome {
    let result = match ctx.workload.exec(ctx.container, ctx.env, &exec.command, ctx.since_start) {
        Ok(result) => result,
        Err(program) => return ProbeOutcome::Errored(exec_start_error(ctx, &exec.command, &program)),
    };
    match result.exit {
        Some((after, 0)) if after < timeout => ProbeOutcome::Success,
        Some((after, _)) if after < timeout => ProbeOutcome::Failure(result.output),
        _ => {
            ProbeOutcome::Errored(format!("command timed out: {:?} timed out after {timeout}", exec.command.join(" ")))
        }
    }
}

/// containerd's answer when the executable is missing from the image.
fn exec_start_error(ctx: &ProbeContext, command: &[String], program: &str) -> String {
    let seed = format!("{}/{}/{}/{}", ctx.pod_ip, ctx.container.name, command.join(" "), ctx.since_start.0);
    let exec_id = pseudo_digest(&seed).trim_start_matches("sha256:").to_string();
    format!(
        "rpc error: code = Unknown desc = failed to exec in container: failed to start exec {exec_id:?}: \
         OCI runtime exec failed: exec failed: unable to start container process: exec: {program:?}: \
         executable file not found in $PATH: unknown"
    )
}

/// Upstream grpc prober: `grpc.health.v1.Health/Check` must answer `SERVING`.
fn grpc_probe(grpc: &GrpcAction, ctx: &ProbeContext, timeout: Duration) -> ProbeOutcome {
    let address = join_host_port(ctx.pod_ip, grpc.port);
    match ctx.workload.grpc_health(ctx.container, grpc.port, ctx.since_start) {
        Some("SERVING") => ProbeOutcome::Success,
        Some(status) => ProbeOutcome::Failure(format!("service unhealthy (responded with {status:?})")),
        // Nothing listens, or an HTTP/1 server does: the blocking dial retries until the deadline.
        None => ProbeOutcome::Failure(format!(
            "timeout: failed to connect service {address:?} within {timeout}: context deadline exceeded"
        )),
    }
}
