//! The interpreter against the catalogue's behaviours, natively: what the wasm build does,
//! without a host.

use crate::config::Config;
use crate::exec::{self, Exec};
use crate::process::{Host, HttpAnswer, Process};
use serde_json::{Value, json};

/// 2025-01-01T00:00:00Z.
const START: i64 = 1_735_689_600_000;

#[derive(Default)]
struct Recorder {
    logs: Vec<String>,
    listening: Vec<u16>,
    exit: Option<i32>,
}

impl Host for Recorder {
    fn log(&mut self, line: &str) {
        self.logs.push(line.to_string());
    }
    fn listen(&mut self, port: u16) {
        self.listening.push(port);
    }
    fn exit(&mut self, code: i32) {
        self.exit = Some(code);
    }
}

fn hello() -> Value {
    json!({
        "memoryMi": 12, "millicoresPerRps": 0,
        "logs": [{"afterMs": 500, "text": "{time} v1 listening on :8080"}, {"afterMs": 3000, "text": "{time} ready"}],
        "listen": [{"port": 8080, "afterMs": 500}],
        "routes": [
            {"path": "/", "responses": [{"status": 200, "body": "hello from {pod} (v1)\n"}]},
            {"path": "/readyz", "responses": [{"status": 503, "body": "warming up\n"}, {"afterMs": 3000, "status": 200, "body": "ready"}]},
            {"path": "/hog", "hog": true}
        ],
        "sigterm": {"exitAfterMs": 2, "exitCode": 0, "logs": ["{time} SIGTERM: draining", "{time} bye"]}
    })
}

fn busybox() -> Value {
    json!({"defaultCommand": ["sh"], "memoryMi": 1, "shell": true, "sigterm": {"ignore": true},
           "files": {"/etc/motd": "welcome\n"}})
}

fn config(behaviour: Value, argv: &[&str]) -> Config {
    let argv: Vec<String> = argv.iter().map(|a| a.to_string()).collect();
    let text =
        json!({"pod": "web-1", "behaviour": behaviour, "argv": argv, "env": [["GREETING", "hi"]], "ports": [8080]});
    Config::from_json(text.to_string().as_bytes()).unwrap()
}

fn answer(status: u16, body: &str) -> HttpAnswer {
    HttpAnswer { status, body: body.into(), latency_ms: 0 }
}

#[test]
fn hello_logs_listens_and_warms_up_on_time() {
    let mut process = Process::start(config(hello(), &[]), START).unwrap();
    let mut host = Recorder::default();
    assert_eq!(process.tick(0, &mut host), Some(500));
    assert!(host.logs.is_empty() && host.listening.is_empty());
    assert_eq!(process.tick(500, &mut host), Some(3000));
    assert_eq!(host.logs, ["2025/01/01 00:00:00 v1 listening on :8080"]);
    assert_eq!(host.listening, [8080]);
    assert_eq!(process.http("/", 600), answer(200, "hello from web-1 (v1)\n"));
    assert_eq!(process.http("/readyz", 600), answer(503, "warming up\n"));
    // "/" is a prefix pattern, as in Go's ServeMux: it answers every path.
    assert_eq!(process.http("/nope", 600), answer(200, "hello from web-1 (v1)\n"));
    assert_eq!(process.tick(3000, &mut host), None);
    assert_eq!(host.logs[1], "2025/01/01 00:00:03 ready");
    assert_eq!(process.http("/readyz", 3000), answer(200, "ready"));
}

#[test]
fn sigterm_drains_then_exits_and_the_hog_keeps_what_it_took() {
    let mut process = Process::start(config(hello(), &[]), START).unwrap();
    let mut host = Recorder::default();
    process.tick(700, &mut host);
    assert_eq!(process.http("/hog?mb=3", 700), answer(200, "allocated 3 MiB\n"));
    assert_eq!(process.http("/hog", 700), answer(400, "usage: /hog?mb=N\n"));
    process.sigterm(1_000, &mut host);
    assert_eq!(&host.logs[1..], ["2025/01/01 00:00:01 SIGTERM: draining", "2025/01/01 00:00:01 bye"]);
    assert_eq!(process.tick(1_001, &mut host), Some(1_002));
    assert_eq!(process.tick(1_002, &mut host), None);
    assert_eq!(host.exit, Some(0));
    assert_eq!(host.logs.len(), 3, "no ready line after SIGTERM: {:?}", host.logs);
}

#[test]
fn crashy_logs_and_exits_1() {
    let crashy =
        json!({"memoryMi": 2, "logs": [{"text": "config file missing"}], "exit": {"afterMs": 100, "exitCode": 1}});
    let mut process = Process::start(config(crashy, &[]), START).unwrap();
    let mut host = Recorder::default();
    assert_eq!(process.tick(0, &mut host), Some(100));
    assert_eq!(host.logs, ["config file missing"]);
    assert_eq!(process.tick(100, &mut host), None);
    assert_eq!(host.exit, Some(1));
}

#[test]
fn busybox_runs_its_command_on_a_real_clock_and_ignores_sigterm() {
    let script = "echo $GREETING from $HOSTNAME; sleep 2; echo done; sleep 3600";
    let mut process = Process::start(config(busybox(), &["sh", "-c", script]), START).unwrap();
    let mut host = Recorder::default();
    assert_eq!(process.tick(0, &mut host), Some(2_000));
    assert_eq!(host.logs, ["hi from web-1"]);
    process.sigterm(1_000, &mut host);
    assert_eq!(process.tick(2_000, &mut host), Some(3_602_000));
    assert_eq!(host.logs, ["hi from web-1", "done"]);
    assert_eq!(process.tick(3_602_000, &mut host), None);
    assert_eq!(host.exit, Some(0));
    // busybox's default command, `sh` with nothing to read, exits at once.
    let mut process = Process::start(config(busybox(), &[]), START).unwrap();
    assert_eq!(process.tick(0, &mut host), None);
    let err = Process::start(config(busybox(), &["frobnicate"]), START).err().unwrap();
    assert!(err.ends_with("exec: \"frobnicate\": executable file not found in $PATH: unknown"), "{err}");
}

#[test]
fn a_forever_loop_is_laid_out_further_as_time_passes() {
    let mut process =
        Process::start(config(busybox(), &["sh", "-c", "while true; do echo tick; sleep 60; done"]), START).unwrap();
    let mut host = Recorder::default();
    process.tick(0, &mut host);
    let hour = 3_600_000;
    process.tick(hour, &mut host);
    assert_eq!(host.logs.len(), 61);
    assert_eq!(host.exit, None);
}

fn run_exec(behaviour: Value, main: &[&str], argv: &[&str], since_ms: u64) -> Result<Exec, String> {
    let argv: Vec<String> = argv.iter().map(|a| a.to_string()).collect();
    exec::exec(&config(behaviour, main), &argv, since_ms)
}

fn done(code: i32, output: &str, took_ms: u64) -> Result<Exec, String> {
    Ok(Exec { exit_code: Some(code), output: output.into(), took_ms })
}

#[test]
fn exec_runs_busybox_applets() {
    let main = ["sleep", "3600"];
    assert_eq!(run_exec(busybox(), &main, &["echo", "a", "b"], 0), done(0, "a b\n", 0));
    assert_eq!(run_exec(busybox(), &main, &["cat", "/etc/motd"], 0), done(0, "welcome\n", 0));
    assert_eq!(
        run_exec(busybox(), &main, &["cat", "/nope"], 0),
        done(1, "cat: can't open '/nope': No such file or directory\n", 0)
    );
    assert_eq!(run_exec(busybox(), &main, &["true"], 0), done(0, "", 0));
    assert_eq!(run_exec(busybox(), &main, &["false"], 0), done(1, "", 0));
    assert_eq!(run_exec(busybox(), &main, &["sleep", "1.5"], 0), done(0, "", 1_500));
    assert_eq!(run_exec(busybox(), &main, &["sh", "-c", "frob --now"], 0), done(127, "sh: frob: not found\n", 0));
    assert_eq!(run_exec(busybox(), &main, &["sh", "-c", "exit 3"], 0), done(3, "", 0));
    let env = run_exec(busybox(), &main, &["env"], 0).unwrap().output;
    assert!(
        env.contains("GREETING=hi\n") && env.contains("HOSTNAME=web-1\n") && env.contains("PATH=/usr/local/sbin"),
        "{env}"
    );
    let script = "false || echo rescued; [ -f /etc/motd ] && echo has motd; echo x > /tmp/f; cat /tmp/f";
    assert_eq!(run_exec(busybox(), &main, &["/bin/sh", "-c", script], 0), done(0, "rescued\nhas motd\nx\n", 0));
    assert_eq!(run_exec(busybox(), &main, &["sleep", "infinity"], 0).unwrap().exit_code, None);
}

#[test]
fn exec_sees_the_files_the_main_process_wrote_by_now() {
    let main = ["sh", "-c", "touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600"];
    let probe = ["cat", "/tmp/healthy"];
    assert_eq!(run_exec(busybox(), &main, &probe, 29_000), done(0, "", 0));
    assert_eq!(run_exec(busybox(), &main, &probe, 30_000).unwrap().exit_code, Some(1));
}

#[test]
fn exec_of_a_missing_program_is_containerds_error() {
    let err = run_exec(hello(), &[], &["sh"], 0).unwrap_err();
    assert!(err.ends_with("exec: \"sh\": executable file not found in $PATH: unknown"), "{err}");
    let err = run_exec(busybox(), &["sh"], &["curl", "x"], 0).unwrap_err();
    assert!(err.contains("exec: \"curl\""), "{err}");
}

#[test]
fn listen_declared_ports_opens_them_at_start() {
    let default_image =
        json!({"listenDeclaredPorts": true, "notFound": {"status": 200, "body": "OK\n"}, "shell": true});
    let mut process = Process::start(config(default_image, &[]), START).unwrap();
    let mut host = Recorder::default();
    assert_eq!(process.tick(0, &mut host), None);
    assert_eq!(host.listening, [8080]);
    assert_eq!(process.http("/anything", 0), answer(200, "OK\n"));
}

fn vllm(args: &[&str], gpus: Value) -> Config {
    let behaviour = json!({
        "memoryMi": 1,
        "inference": {"version": "0.11.0", "port": 8000, "initMs": 15000, "loadMiBPerSecond": 400,
                      "warmupMs": 20000, "models": {"facebook/opt-125m": 125, "meta-llama/Llama-2-13b-chat-hf": 13016}},
        "routes": [{"path": "/health", "exact": true, "responses": [{"status": 200}]}],
        "notFound": {"status": 404, "body": "{\"detail\":\"Not Found\"}"}
    });
    let text = json!({"pod": "llm-1", "behaviour": behaviour, "argv": args, "gpus": gpus});
    Config::from_json(text.to_string().as_bytes()).unwrap()
}

#[test]
fn an_inference_server_listens_once_its_model_is_loaded() {
    let config = vllm(&["facebook/opt-125m"], json!([{"id": "GPU-1", "memoryMiB": 40960}]));
    let mut process = Process::start(config, START).unwrap();
    let mut host = Recorder::default();
    // 15 s of init, 239 MiB of weights at 400 MiB/s (597 ms), 20 s of warm-up.
    assert_eq!(process.tick(0, &mut host), Some(15_000));
    assert_eq!(host.logs[0], "INFO 01-01 00:00:00 [api_server.py] vLLM API server version 0.11.0");
    assert_eq!(process.tick(15_597, &mut host), Some(17_597));
    assert!(host.logs[3].ends_with("[default_loader.py] Loading weights took 0.60 seconds"), "{:?}", host.logs);
    assert_eq!(process.tick(35_596, &mut host), Some(35_597));
    assert!(host.listening.is_empty());
    assert_eq!(process.tick(35_597, &mut host), None);
    assert_eq!(
        (host.listening.as_slice(), host.logs.last().unwrap().as_str()),
        (&[8000][..], "INFO:     Application startup complete.")
    );
    assert_eq!(process.http("/health", 36_000), answer(200, ""));
    assert_eq!(process.http("/v1/completions", 36_000), answer(404, "{\"detail\":\"Not Found\"}"));
}

#[test]
fn an_inference_server_dies_without_a_gpu_or_on_a_slice_too_small() {
    let mut host = Recorder::default();
    let mut process = Process::start(vllm(&["facebook/opt-125m"], json!([])), START).unwrap();
    assert_eq!(process.tick(0, &mut host), Some(4_000));
    assert_eq!(process.tick(4_000, &mut host), None);
    assert_eq!((host.logs.last().unwrap().as_str(), host.exit), ("RuntimeError: Failed to infer device type", Some(1)));
    let mut host = Recorder::default();
    let slice = json!([{"id": "MIG-1", "memoryMiB": 4864}]);
    let mut process = Process::start(vllm(&["meta-llama/Llama-2-13b-chat-hf"], slice), START).unwrap();
    // 4,352 MiB loaded at 400 MiB/s before CUDA runs out.
    assert_eq!(process.tick(15_000, &mut host), Some(25_880));
    assert_eq!(process.tick(25_880, &mut host), None);
    assert!(host.logs.last().unwrap().starts_with("torch.OutOfMemoryError: CUDA out of memory."), "{:?}", host.logs);
    assert_eq!((host.exit, host.listening.len()), (Some(1), 0));
}

#[test]
fn grpc_health_answers_the_phase_whose_time_has_come() {
    let behaviour =
        json!({"grpcHealth": [{"afterMs": 1000, "status": "SERVING"}, {"afterMs": 5000, "status": "NOT_SERVING"}]});
    let process = Process::start(config(behaviour, &[]), START).unwrap();
    assert_eq!(process.grpc_health(999), None, "no gRPC server yet");
    assert_eq!(process.grpc_health(1000), Some("SERVING"));
    assert_eq!(process.grpc_health(5000), Some("NOT_SERVING"));
    assert_eq!(Process::start(config(hello(), &[]), START).unwrap().grpc_health(0), None);
}
