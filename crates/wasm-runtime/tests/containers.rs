//! Containers of the real guest (`target/guests/workload.wasm`) and of hand-made modules that
//! loop or trap: listening, answering, limits, signals, exec — each on its own 127.0.0.x.

mod common;

use common::*;
use kubelab_wasm_runtime::{EXIT_CANNOT_EXEC, EXIT_SIGKILL, EXIT_TIMED_OUT, EXIT_TRAP, State};
use serde_json::json;
use std::time::{Duration, Instant};

#[test]
fn hello_listens_after_500ms_and_warms_up_after_3s() {
    let Some(runtime) = runtime() else { return };
    let ip = ip(11);
    let started = Instant::now();
    let container = runtime.start(spec("hello-7d9f", "hello:v1", ip)).unwrap();
    assert!(get(ip, 8080, "/").is_err(), "refused before it listens");
    assert!(eventually(Duration::from_secs(2), || get(ip, 8080, "/").is_ok()));
    assert!(started.elapsed() >= Duration::from_millis(450), "listened after {:?}", started.elapsed());
    assert_eq!(get(ip, 8080, "/").unwrap(), (200, "hello from hello-7d9f (v1)\n".into()));
    assert_eq!(get(ip, 8080, "/readyz").unwrap(), (503, "warming up\n".into()));
    assert!(eventually(Duration::from_secs(3), || get(ip, 8080, "/readyz").is_ok_and(|r| r.0 == 200)));
    assert!(started.elapsed() >= Duration::from_secs(3));
    let logs: Vec<String> = container.logs().into_iter().map(|(_, line)| line).collect();
    assert_eq!(logs.len(), 2, "{logs:?}");
    assert!(logs[0].ends_with(" v1 listening on :8080") && logs[1].ends_with(" ready"), "{logs:?}");
    assert!(container.state().is_running());
    container.kill();
}

#[test]
fn a_hog_past_the_memory_limit_is_oom_killed() {
    let Some(runtime) = runtime() else { return };
    let ip = ip(12);
    let mut spec = spec("hog", "hello:v1", ip);
    spec.memory_limit_bytes = Some(64 << 20);
    let container = runtime.start(spec).unwrap();
    assert!(eventually(Duration::from_secs(2), || get(ip, 8080, "/").is_ok()));
    assert_eq!(get(ip, 8080, "/hog?mb=16").unwrap(), (200, "allocated 16 MiB\n".into()));
    assert!(get(ip, 8080, "/hog?mb=64").is_err(), "the process dies before it answers");
    assert!(container.wait(Duration::from_secs(2)));
    let state = container.state();
    assert_eq!((state.exit_code(), state.reason()), (Some(EXIT_SIGKILL), Some("OOMKilled")), "{state:?}");
    assert!(get(ip, 8080, "/").is_err(), "its port is closed");
}

#[test]
fn crashy_logs_and_exits_1_after_100ms() {
    let Some(runtime) = runtime() else { return };
    let container = runtime.start(spec("crashy", "crashy:latest", ip(13))).unwrap();
    assert!(container.wait(Duration::from_secs(2)));
    let State::Exited { exit_code, reason, started_at, finished_at, .. } = container.state() else { unreachable!() };
    assert_eq!((exit_code, reason.as_str()), (1, "Error"));
    let ran = finished_at.duration_since(started_at).unwrap();
    assert!(ran >= Duration::from_millis(100) && ran < Duration::from_millis(1000), "{ran:?}");
    let logs: Vec<String> = container.logs().into_iter().map(|(_, line)| line).collect();
    assert_eq!(logs, ["config file missing"]);
}

#[test]
fn stop_runs_the_sigterm_handler_and_exits_0() {
    let Some(runtime) = runtime() else { return };
    let ip = ip(14);
    let container = runtime.start(spec("web", "hello:v1", ip)).unwrap();
    assert!(eventually(Duration::from_secs(2), || get(ip, 8080, "/healthz").is_ok()));
    let stopping = Instant::now();
    container.stop(Duration::from_secs(30));
    assert!(stopping.elapsed() < Duration::from_secs(1), "it exits 2 ms after SIGTERM");
    let state = container.state();
    assert_eq!((state.exit_code(), state.reason()), (Some(0), Some("Completed")));
    let logs: Vec<String> = container.logs().into_iter().map(|(_, line)| line).collect();
    assert!(
        logs.iter().any(|l| l.ends_with(" SIGTERM: draining")) && logs.last().unwrap().ends_with(" bye"),
        "{logs:?}"
    );
    assert!(get(ip, 8080, "/").is_err());
}

#[test]
fn busybox_ignores_sigterm_and_is_killed_when_the_grace_period_ends() {
    let Some(runtime) = runtime() else { return };
    let mut spec = spec("sleeper", "busybox:1.37", ip(15));
    spec.argv = vec!["sleep".into(), "3600".into()];
    let container = runtime.start(spec).unwrap();
    let stopping = Instant::now();
    container.stop(Duration::from_millis(300));
    let took = stopping.elapsed();
    assert!(took >= Duration::from_millis(300) && took < Duration::from_secs(2), "{took:?}");
    let state = container.state();
    assert_eq!((state.exit_code(), state.reason()), (Some(EXIT_SIGKILL), Some("Error")), "{state:?}");
}

#[test]
fn exec_runs_busybox_applets_in_the_container() {
    let Some(runtime) = runtime() else { return };
    let mut spec = spec("box", "busybox:1.37", ip(16));
    spec.argv = ["sh", "-c", "echo started; touch /tmp/healthy; sleep 3600"].map(String::from).to_vec();
    spec.env = vec![("GREETING".into(), "hi".into())];
    let container = runtime.start(spec).unwrap();
    let exec =
        |argv: &[&str]| container.exec(&argv.iter().map(|a| a.to_string()).collect::<Vec<_>>(), Duration::from_secs(1));
    assert_eq!(exec(&["echo", "$GREETING"]), ("$GREETING\n".into(), 0));
    assert_eq!(exec(&["sh", "-c", "echo $GREETING from $HOSTNAME"]), ("hi from box\n".into(), 0));
    assert_eq!(exec(&["cat", "/tmp/healthy"]), (String::new(), 0));
    assert_eq!(exec(&["sh", "-c", "frob"]), ("sh: frob: not found\n".into(), 127));
    let (message, code) = exec(&["curl", "localhost"]);
    assert!(code == EXIT_CANNOT_EXEC && message.contains("exec: \"curl\": executable file not found"), "{message}");
    let started = Instant::now();
    assert_eq!(exec(&["sleep", "0.2"]), (String::new(), 0));
    assert!(started.elapsed() >= Duration::from_millis(200), "sleep takes real time");
    assert_eq!(exec(&["sleep", "5"]).1, EXIT_TIMED_OUT);
    let logs: Vec<String> = container.logs().into_iter().map(|(_, line)| line).collect();
    assert_eq!(logs, ["started"]);
    container.kill();
    assert_eq!(container.state().exit_code(), Some(EXIT_SIGKILL));
    assert_eq!(exec(&["true"]).1, EXIT_CANNOT_EXEC, "no exec in an exited container");
}

/// A server whose every request costs 20 ms of CPU.
fn busy_server(ip: std::net::IpAddr, cpu_limit_millicores: Option<u64>) -> kubelab_wasm_runtime::ContainerSpec {
    let mut spec = spec("busy", "hello:v1", ip);
    spec.behaviour = json!({
        "millicoresPerRps": 20,
        "listen": [{"port": 8080}],
        "routes": [{"path": "/", "responses": [{"status": 200, "body": "done"}]}],
    });
    spec.cpu_limit_millicores = cpu_limit_millicores;
    spec
}

fn mean_latency(ip: std::net::IpAddr, requests: u32) -> Duration {
    let started = Instant::now();
    for _ in 0..requests {
        assert_eq!(get(ip, 8080, "/").unwrap().0, 200);
    }
    started.elapsed() / requests
}

#[test]
fn a_cpu_limit_throttles_the_guest_and_the_host_stays_responsive() {
    let Some(runtime) = runtime() else { return };
    let (free_ip, limited_ip, other_ip) = (ip(17), ip(18), ip(19));
    let free = runtime.start(busy_server(free_ip, None)).unwrap();
    let limited = runtime.start(busy_server(limited_ip, Some(50))).unwrap();
    let other = runtime.start(spec("other", "hello:v1", other_ip)).unwrap();
    assert!(eventually(Duration::from_secs(2), || get(free_ip, 8080, "/").is_ok()));
    assert!(eventually(Duration::from_secs(2), || get(limited_ip, 8080, "/").is_ok()));
    let free_latency = mean_latency(free_ip, 5);
    // 50m is 5 ms of CPU per 100 ms: 20 ms of work is four slices in four periods. When the
    // first slice is a period's last 5 ms, the fourth ends 5 ms into the period three later:
    // a little over 200 ms is the least a request can take.
    let hammer = std::thread::spawn(move || mean_latency(limited_ip, 3));
    assert!(eventually(Duration::from_secs(2), || get(other_ip, 8080, "/healthz").is_ok()));
    let answered = Instant::now();
    assert_eq!(get(other_ip, 8080, "/healthz").unwrap().0, 200);
    assert!(answered.elapsed() < Duration::from_secs(1), "another container answers at once: {:?}", answered.elapsed());
    let limited_latency = hammer.join().unwrap();
    assert!(limited_latency >= Duration::from_millis(200), "throttled: {limited_latency:?} (free: {free_latency:?})");
    // No ratio to the free server's latency: on a loaded machine that one is slow too. The
    // quota's lower bound (20 ms of work at 5 ms per 100 ms period) holds however busy it is.
    [free, limited, other].iter().for_each(|c| c.kill());
}

#[test]
fn a_guest_that_loops_forever_is_cut_off_at_the_wall_clock_cap() {
    let Some(runtime) = runtime() else { return };
    let path = module_file("loop", &raw_guest(RETURN_ZERO, LOOP_FOREVER));
    let mut spec = spec("spin", "hello:v1", ip(20));
    spec.wall_clock_cap = Duration::from_millis(300);
    spec.cpu_limit_millicores = Some(100);
    let container = runtime.start_module(&path, spec.clone()).unwrap();
    assert!(container.wait(Duration::from_secs(3)));
    let State::Exited { exit_code, reason, message, .. } = container.state() else { unreachable!() };
    assert_eq!((exit_code, reason.as_str()), (EXIT_SIGKILL, "Error"));
    assert!(message.unwrap().contains("wall-clock cap of 0.3s"));
    // kill() ends one at once, mid-loop.
    spec.wall_clock_cap = Duration::from_secs(60);
    let container = runtime.start_module(&path, spec).unwrap();
    std::thread::sleep(Duration::from_millis(50));
    let killing = Instant::now();
    container.kill();
    assert!(killing.elapsed() < Duration::from_millis(500));
    assert_eq!(container.state().exit_code(), Some(EXIT_SIGKILL));
}

#[test]
fn a_trapping_guest_ends_its_container_and_the_next_one_runs() {
    let Some(runtime) = runtime() else { return };
    let trap_on_tick = module_file("trap", &raw_guest(RETURN_ZERO, TRAP));
    let container = runtime.start_module(&trap_on_tick, spec("trap", "hello:v1", ip(21))).unwrap();
    assert!(container.wait(Duration::from_secs(2)));
    let State::Exited { exit_code, reason, message, .. } = container.state() else { unreachable!() };
    assert_eq!((exit_code, reason.as_str()), (EXIT_TRAP, "Error"));
    assert!(message.as_deref().unwrap_or_default().contains("unreachable"), "{message:?}");
    let trap_on_start = module_file("trap-start", &raw_guest(TRAP, NOTHING_DUE));
    let container = runtime.start_module(&trap_on_start, spec("trap", "hello:v1", ip(21))).unwrap();
    assert_eq!(container.state().exit_code(), Some(EXIT_TRAP));
    let not_a_guest = module_file("empty", b"\0asm\x01\0\0\0");
    let err = runtime.start_module(&not_a_guest, spec("x", "hello:v1", ip(21))).unwrap_err();
    assert!(err.contains("not a kubelab guest"), "{err}");
    let garbage = module_file("garbage", b"not wasm");
    assert!(runtime.start_module(&garbage, spec("x", "hello:v1", ip(21))).is_err());
    let ip = ip(22);
    let container = runtime.start(spec("after", "hello:v1", ip)).unwrap();
    assert!(eventually(Duration::from_secs(2), || get(ip, 8080, "/healthz").is_ok_and(|r| r == (200, "ok".into()))));
    container.kill();
}

#[test]
fn a_taken_port_ends_the_process_as_a_go_server_ends() {
    let Some(runtime) = runtime() else { return };
    let ip = ip(23);
    let _taken = std::net::TcpListener::bind((ip, 8080)).unwrap();
    let container = runtime.start(spec("clash", "hello:v1", ip)).unwrap();
    assert!(container.wait(Duration::from_secs(2)));
    assert_eq!(container.state().exit_code(), Some(1));
    let logs: Vec<String> = container.logs().into_iter().map(|(_, line)| line).collect();
    assert!(logs.last().unwrap().starts_with("listen tcp 127.0.0.23:8080: bind: "), "{logs:?}");
}

#[test]
fn a_command_the_image_lacks_is_a_start_error() {
    let Some(runtime) = runtime() else { return };
    let mut spec = spec("typo", "busybox:1.37", ip(24));
    spec.argv = vec!["frobnicate".into()];
    let State::Exited { exit_code, reason, message, .. } = runtime.start(spec).unwrap().state() else { unreachable!() };
    assert_eq!((exit_code, reason.as_str()), (128, "StartError"));
    assert!(message.unwrap().contains("exec: \"frobnicate\": executable file not found in $PATH"));
}
