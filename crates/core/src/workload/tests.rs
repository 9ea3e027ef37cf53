//! The seed stories, replayed against the built-in catalogue: pulls, processes, probes.

use super::*;
use crate::api::container::{Container, ContainerPort, ExecAction, GrpcAction, HttpGetAction, Probe, TcpSocketAction};
use crate::api::intstr::IntOrString;
use crate::sim::time::{Duration, SimTime};

const POD_IP: &str = "10.244.0.17";
const MIB: u64 = 1024 * 1024;

fn container(command: &[&str], ports: &[(Option<&str>, i32)]) -> Container {
    Container {
        name: "app".into(),
        command: command.iter().map(|w| w.to_string()).collect(),
        ports: ports
            .iter()
            .map(|(name, port)| ContainerPort {
                name: name.map(str::to_string),
                container_port: *port,
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    }
}

fn workload(image: &str) -> Workload {
    Catalogue::builtin().resolve(image).unwrap_or_else(|e| panic!("{image}: {e}")).workload
}

fn http_get(path: &str, port: IntOrString) -> Probe {
    let action = HttpGetAction { path: Some(path.into()), port, host: None, scheme: None, http_headers: vec![] };
    Probe { http_get: Some(action), ..Default::default() }
}

fn tcp(port: i32) -> Probe {
    Probe { tcp_socket: Some(TcpSocketAction { port: IntOrString::Int(port), host: None }), ..Default::default() }
}

fn exec(command: &[&str]) -> Probe {
    let command = command.iter().map(|w| w.to_string()).collect();
    Probe { exec: Some(ExecAction { command }), ..Default::default() }
}

fn grpc(port: i32) -> Probe {
    Probe { grpc: Some(GrpcAction { port, service: None }), ..Default::default() }
}

fn probe_at(image: &str, spec: &Container, probe: &Probe, since_start_ms: u64) -> ProbeOutcome {
    let workload = workload(image);
    let ctx = ProbeContext {
        workload: &workload,
        container: spec,
        env: &[],
        pod_ip: POD_IP,
        since_start: Duration(since_start_ms),
        state: ProcessState::default(),
        load: crate::workload::Load::default(),
    };
    run_probe(probe, &ctx)
}

/// Renders an outcome as one table cell.
fn cell(outcome: ProbeOutcome) -> String {
    match outcome {
        ProbeOutcome::Success => "ok".into(),
        ProbeOutcome::Failure(message) => format!("failed: {message}"),
        ProbeOutcome::Errored(message) => format!("errored: {message}"),
    }
}

const REFUSED_READYZ: &str =
    "failed: Get \"http://10.244.0.17:8080/readyz\": dial tcp 10.244.0.17:8080: connect: connection refused";
const REFUSED_HEALTHZ: &str =
    "failed: Get \"http://10.244.0.17:8080/healthz\": dial tcp 10.244.0.17:8080: connect: connection refused";
const NO_FILE: &str = "failed: cat: can't open '/tmp/healthy': No such file or directory\n";

#[test]
fn probe_outcomes_at_start_just_before_and_at_three_seconds() {
    let plain = container(&[], &[]);
    let story = container(&["sh", "-c", "touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600"], &[]);
    let sleeper = container(&["sleep", "3600"], &[]);
    let api = container(&[], &[(Some("http"), 3000), (Some("grpc"), 9000)]);
    let readyz = http_get("/readyz", IntOrString::Int(8080));
    let healthz = http_get("/healthz", IntOrString::Int(8080));
    let cat = exec(&["cat", "/tmp/healthy"]);
    let rows: Vec<(&str, &Container, Probe, [&str; 3])> = vec![
        ("hello:v1", &plain, readyz.clone(), [REFUSED_READYZ, "failed: HTTP probe failed with statuscode: 503", "ok"]),
        ("hello:v1", &plain, healthz.clone(), [REFUSED_HEALTHZ, "ok", "ok"]),
        ("hello:v2", &plain, readyz.clone(), [REFUSED_READYZ, "failed: HTTP probe failed with statuscode: 503", "ok"]),
        ("hello:v2", &plain, tcp(8080), ["failed: dial tcp 10.244.0.17:8080: connect: connection refused", "ok", "ok"]),
        (
            "hello:v3-broken",
            &plain,
            readyz.clone(),
            [
                REFUSED_READYZ,
                "failed: HTTP probe failed with statuscode: 503",
                "failed: HTTP probe failed with statuscode: 503",
            ],
        ),
        ("hello:v3-broken", &plain, healthz.clone(), [REFUSED_HEALTHZ, "ok", "ok"]),
        ("slow-start:v1", &plain, healthz.clone(), [REFUSED_HEALTHZ, REFUSED_HEALTHZ, REFUSED_HEALTHZ]),
        ("nginx:1.27", &plain, http_get("/", IntOrString::Int(80)), ["ok", "ok", "ok"]),
        (
            "nginx",
            &plain,
            http_get("/missing", IntOrString::Int(80)),
            [
                "failed: HTTP probe failed with statuscode: 404",
                "failed: HTTP probe failed with statuscode: 404",
                "failed: HTTP probe failed with statuscode: 404",
            ],
        ),
        ("myrepo/api:2.1", &api, http_get("/anything", IntOrString::String("http".into())), ["ok", "ok", "ok"]),
        ("myrepo/api:2.1", &api, grpc(9000), ["ok", "ok", "ok"]),
        ("busybox:1.37", &story, cat.clone(), ["ok", "ok", "ok"]),
        ("busybox:1.37", &sleeper, cat.clone(), [NO_FILE, NO_FILE, NO_FILE]),
        ("busybox", &sleeper, exec(&["true"]), ["ok", "ok", "ok"]),
    ];
    for (image, spec, probe, expected) in rows {
        let actual = [0, 2_900, 3_000].map(|ms| cell(probe_at(image, spec, &probe, ms)));
        assert_eq!(actual, expected.map(str::to_string), "{image} {probe:?}");
    }
}

#[test]
fn badlive_liveness_probe_on_the_wrong_port_is_refused() {
    let probe = http_get("/healthz", IntOrString::Int(8081));
    assert_eq!(
        probe_at("hello:v2", &container(&[], &[]), &probe, 44_000),
        ProbeOutcome::Failure(
            "Get \"http://10.244.0.17:8081/healthz\": dial tcp 10.244.0.17:8081: connect: connection refused".into()
        )
    );
}

#[test]
fn ports_resolve_by_name_or_fail_as_upstream() {
    let named = container(&[], &[(Some("http"), 8080)]);
    for (port, expected) in [
        (IntOrString::String("http".into()), "ok"),
        (IntOrString::String("8080".into()), "ok"),
        (IntOrString::String("web".into()), "errored: strconv.Atoi: parsing \"web\": invalid syntax"),
        (IntOrString::Int(0), "errored: invalid port number: 0"),
        (IntOrString::Int(70000), "errored: invalid port number: 70000"),
    ] {
        let probe = http_get("/healthz", port.clone());
        assert_eq!(cell(probe_at("hello:v1", &named, &probe, 5_000)), expected, "{port:?}");
    }
}

/// metrics-server serves HTTPS on 10250: an HTTPS probe gets its answer, a plain one Go's 400.
#[test]
fn a_tls_port_answers_https_probes_only() {
    let image = "registry.k8s.io/metrics-server/metrics-server:v0.8.0";
    let plain = container(&[], &[]);
    let mut https = http_get("/readyz", IntOrString::Int(10250));
    https.http_get.as_mut().unwrap().scheme = Some("HTTPS".into());
    let http = http_get("/readyz", IntOrString::Int(10250));
    assert_eq!(cell(probe_at(image, &plain, &https, 5_000)), "ok");
    assert_eq!(cell(probe_at(image, &plain, &http, 5_000)), "failed: HTTP probe failed with statuscode: 400");
}

#[test]
fn other_probe_failures_read_as_upstream() {
    let plain = container(&[], &[]);
    let mut https = http_get("/healthz", IntOrString::Int(8080));
    https.http_get.as_mut().unwrap().scheme = Some("HTTPS".into());
    let mut elsewhere = tcp(8080);
    elsewhere.tcp_socket.as_mut().unwrap().host = Some("db.internal".into());
    let rows = [
        (https, "failed: Get \"https://10.244.0.17:8080/healthz\": http: server gave HTTP response to HTTPS client"),
        (
            grpc(8080),
            "failed: timeout: failed to connect service \"10.244.0.17:8080\" within 1s: context deadline exceeded",
        ),
        (elsewhere, "failed: dial tcp: lookup db.internal: no such host"),
    ];
    for (probe, expected) in rows {
        assert_eq!(cell(probe_at("hello:v1", &plain, &probe, 5_000)), expected);
    }
    let no_shell = cell(probe_at("hello:v1", &plain, &exec(&["cat", "/tmp/healthy"]), 5_000));
    assert!(
        no_shell.starts_with(
            "errored: rpc error: code = Unknown desc = failed to exec in container: failed to start exec \""
        )
    );
    assert!(no_shell.ends_with(
        "OCI runtime exec failed: exec failed: unable to start container process: exec: \"cat\": executable file not found in $PATH: unknown"
    ));
    let slow = exec(&["sleep", "5"]);
    let timed_out = cell(probe_at("busybox", &container(&["sleep", "3600"], &[]), &slow, 0));
    assert_eq!(timed_out, "errored: command timed out: \"sleep 5\" timed out after 1s");
}

#[test]
fn next_change_names_the_moment_an_outcome_can_flip() {
    let plain = container(&[], &[]);
    let story = container(&["sh", "-c", "touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600"], &[]);
    let readyz = http_get("/readyz", IntOrString::Int(8080));
    let healthz = http_get("/healthz", IntOrString::Int(8080));
    let cat = exec(&["cat", "/tmp/healthy"]);
    let rows: [(&str, &Container, &Probe, u64, Option<u64>); 8] = [
        ("hello:v1", &plain, &readyz, 0, Some(500)),
        ("hello:v1", &plain, &readyz, 500, Some(3_000)),
        ("hello:v1", &plain, &readyz, 2_900, Some(3_000)),
        ("hello:v1", &plain, &readyz, 3_000, None),
        ("hello:v3-broken", &plain, &readyz, 500, None),
        ("hello:v1", &plain, &healthz, 1_000, None),
        ("slow-start:v1", &plain, &healthz, 0, Some(45_000)),
        ("busybox:1.37", &story, &cat, 0, Some(30_000)),
    ];
    for (image, spec, probe, at, expected) in rows {
        let workload = workload(image);
        let ctx = ProbeContext {
            workload: &workload,
            container: spec,
            env: &[],
            pod_ip: POD_IP,
            since_start: Duration(at),
            state: ProcessState::default(),
            load: crate::workload::Load::default(),
        };
        assert_eq!(next_change(probe, &ctx).map(|d| d.as_millis()), expected, "{image} at {at}ms");
    }
}

#[test]
fn pulls_resolve_or_fail_with_the_runtimes_words() {
    let catalogue = Catalogue::builtin();
    for (image, reference, pull_ms) in [
        ("hello:v1", "docker.io/library/hello:v1", 1_193),
        ("busybox", "docker.io/library/busybox:latest", 1_173),
        ("nginx:1.27.3", "docker.io/library/nginx:1.27.3", 6_836),
        ("crashy:latest", "docker.io/library/crashy:latest", 1_151),
        ("myrepo/api:2.1", "docker.io/myrepo/api:2.1", 5_194),
    ] {
        let info = catalogue.resolve(image).unwrap_or_else(|e| panic!("{image}: {e}"));
        assert_eq!((info.reference.as_str(), info.pull_duration.as_millis()), (reference, pull_ms), "{image}");
        assert!(info.image_id.starts_with(&format!("{}@sha256:", reference.rsplit_once(':').unwrap().0)));
    }
    let failures = [
        (
            "hello:v9",
            "ErrImagePull",
            "Failed to pull image \"hello:v9\": rpc error: code = NotFound desc = failed to pull and unpack image \"docker.io/library/hello:v9\": failed to resolve reference \"docker.io/library/hello:v9\": docker.io/library/hello:v9: not found",
        ),
        (
            "nginx:1.99",
            "ErrImagePull",
            "Failed to pull image \"nginx:1.99\": rpc error: code = NotFound desc = failed to pull and unpack image \"docker.io/library/nginx:1.99\": failed to resolve reference \"docker.io/library/nginx:1.99\": docker.io/library/nginx:1.99: not found",
        ),
        (
            "nginz",
            "ErrImagePull",
            "Failed to pull image \"nginz\": failed to pull and unpack image \"docker.io/library/nginz:latest\": failed to resolve reference \"docker.io/library/nginz:latest\": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed",
        ),
        (
            "myrepo/does-not-exist:1",
            "ErrImagePull",
            "Failed to pull image \"myrepo/does-not-exist:1\": failed to pull and unpack image \"docker.io/myrepo/does-not-exist:1\": failed to resolve reference \"docker.io/myrepo/does-not-exist:1\": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed",
        ),
        (
            "Hello:V1",
            "InvalidImageName",
            "Failed to apply default image tag \"Hello:V1\": couldn't parse image name \"Hello:V1\": invalid reference format: repository name (library/Hello) must be lowercase",
        ),
    ];
    for (image, reason, event) in failures {
        let err = catalogue.resolve(image).unwrap_err();
        assert_eq!((err.reason(), err.event_message().as_str()), (reason, event), "{image}");
    }
}

#[test]
fn a_pinned_digest_pulls_the_tag_it_names() {
    let catalogue = Catalogue::builtin();
    let v1 = catalogue.resolve("hello:v1").unwrap();
    let digest = v1.image_id.split_once('@').unwrap().1;
    let pinned = catalogue.resolve(&format!("hello@{digest}")).unwrap();
    assert_eq!((pinned.image_id, pinned.workload.behaviour), (v1.image_id, v1.workload.behaviour));
    let other = format!("hello@sha256:{}", "0".repeat(64));
    assert_eq!(catalogue.resolve(&other).unwrap_err().reason(), "ErrImagePull");
}

#[test]
fn a_process_reads_the_environment_it_started_with() {
    let script =
        ["sh", "-c", r#"echo "index $JOB_COMPLETION_INDEX"; [ "$JOB_COMPLETION_INDEX" = 2 ] && exit 1; exit 0"#];
    let spec = container(&script, &[]);
    let env = |index: &str| vec![("JOB_COMPLETION_INDEX".to_string(), index.to_string())];
    let busybox = workload("busybox:1.37");
    let code = |index: &str| busybox.exit_at_with_env(&spec, &env(index), ProcessState::default()).map(|e| e.exit_code);
    assert_eq!((code("2"), code("0")), (Some(1), Some(0)));
    assert_eq!(busybox.exit_at(&spec, ProcessState::default()).map(|e| e.exit_code), Some(0), "no environment given");
    let logs =
        busybox.timed_logs_with_env(&spec, &env("2"), "p", SimTime::ZERO, Duration::ZERO, ProcessState::default());
    assert_eq!(logs, [(Duration::ZERO, "index 2".to_string())]);
}

#[test]
fn processes_exit_as_their_images_do() {
    let rows = [
        ("crashy", vec![], Some((100, 1, "Error"))),
        ("hello:v1", vec![], None),
        ("nginx", vec![], None),
        ("busybox:1.37", vec![], Some((0, 0, "Completed"))),
        ("busybox:1.37", vec!["sleep", "30"], Some((30_000, 0, "Completed"))),
        ("busybox:1.37", vec!["sh", "-c", "echo start; sleep 5; exit 3"], Some((5_000, 3, "Error"))),
        ("busybox:1.37", vec!["sh", "-c", "frobnicate"], Some((0, 127, "Error"))),
        ("busybox:1.37", vec!["frobnicate"], Some((0, 128, "StartError"))),
    ];
    for (image, command, expected) in rows {
        let exit = workload(image).exit_at(&container(&command, &[]), ProcessState::default());
        let actual = exit.map(|e| (e.after.as_millis(), e.exit_code, e.reason));
        assert_eq!(actual, expected, "{image} {command:?}");
    }
    let configured = ProcessState { config_found: true, ..Default::default() };
    assert_eq!(workload("crashy").exit_at(&container(&[], &[]), configured), None, "crashy with its config runs");
    let start_error = workload("busybox")
        .exit_at(&container(&["frobnicate"], &[]), ProcessState::default())
        .unwrap()
        .message
        .unwrap();
    assert!(start_error.ends_with("exec: \"frobnicate\": executable file not found in $PATH: unknown"));
}

#[test]
fn logs_read_as_the_seed_shows() {
    let plain = container(&[], &[]);
    let started = SimTime::from_millis(0);
    let at =
        |image: &str, ms: u64, state: ProcessState| workload(image).logs(&plain, "web-1", started, Duration(ms), state);
    assert_eq!(at("crashy", 200, ProcessState::default()), ["config file missing"]);
    let configured = ProcessState { config_found: true, ..Default::default() };
    assert_eq!(
        at("crashy", 200, configured),
        ["2025/01/01 00:00:00 read /etc/crashy/config.yaml", "2025/01/01 00:00:00 crashy is running"]
    );
    assert_eq!(at("hello:v2", 400, ProcessState::default()), Vec::<String>::new());
    assert_eq!(
        at("hello:v2", 5_000, ProcessState::default()),
        ["2025/01/01 00:00:00 v2 listening on :8080", "2025/01/01 00:00:03 ready"]
    );
    let terminated = ProcessState { sigterm_after: Some(Duration::from_secs(10)), ..Default::default() };
    assert_eq!(
        at("hello:v1", 11_000, terminated),
        [
            "2025/01/01 00:00:00 v1 listening on :8080",
            "2025/01/01 00:00:03 ready",
            "2025/01/01 00:00:10 SIGTERM: draining",
            "2025/01/01 00:00:10 bye"
        ]
    );
    let script = container(&["sh", "-c", "while true; do echo tick; sleep 10; done"], &[]);
    let ticks = workload("busybox").logs(&script, "client", started, Duration::from_secs(25), ProcessState::default());
    assert_eq!(ticks, ["tick", "tick", "tick"]);
}

#[test]
fn sigterm_ends_servers_at_once_and_busybox_never() {
    for (image, exits_after_ms, exit_code) in
        [("hello:v1", Some(2), 0), ("nginx", Some(0), 0), ("busybox:1.37", None, 143), ("myrepo/api:2.1", Some(0), 143)]
    {
        let response = workload(image).on_sigterm();
        assert_eq!(
            (response.exits_after.map(|d| d.as_millis()), response.exit_code),
            (exits_after_ms, exit_code),
            "{image}"
        );
    }
}

#[test]
fn hog_grows_memory_by_what_it_allocates() {
    let hello = workload("hello:v1");
    let plain = container(&[], &[]);
    let response = hello.respond(&plain, "/hog?mb=100", 8080, "web-1", Duration::from_secs(5)).unwrap();
    assert_eq!((response.status, response.hog_mib), (200, 100));
    assert_eq!(hello.memory_bytes(Duration::from_secs(5), 0), 12 * MIB);
    assert_eq!(hello.memory_bytes(Duration::from_secs(5), response.hog_mib), 112 * MIB);
    assert_eq!(hello.cpu_millicores(Duration::from_secs(5), 0), 5);
    let slow = workload("slow-start:v1");
    assert_eq!(
        (slow.cpu_millicores(Duration::from_secs(10), 0), slow.cpu_millicores(Duration::from_secs(50), 0)),
        (800, 10)
    );
}

#[test]
fn servers_answer_requests_as_the_seed_shows() {
    let plain = container(&[], &[]);
    let get = |image: &str, path: &str, port: i32| {
        workload(image)
            .respond(&plain, path, port, "hello-779c6b7b5-9qftf", Duration::from_secs(5))
            .map(|r| (r.status, r.body))
    };
    assert_eq!(get("hello:v2", "/", 8080), Ok((200, "hi from hello-779c6b7b5-9qftf (v2)\n".into())));
    assert_eq!(get("hello:v1", "/anything", 8080), Ok((200, "hello from hello-779c6b7b5-9qftf (v1)\n".into())));
    assert_eq!(get("hello:v2", "/readyz", 8080), Ok((200, "ready".into())));
    assert_eq!(get("hello:v3-broken", "/readyz", 8080), Ok((503, "cannot reach database\n".into())));
    assert_eq!(get("hello:v1", "/", 8081), Err(ConnectionRefused));
    assert_eq!(get("nginx", "/nope", 80).map(|(status, _)| status), Ok(404));
    let declared = container(&[], &[(None, 3000)]);
    let default = workload("myrepo/api:2.1").respond(&declared, "/x", 3000, "api-0", Duration::ZERO);
    assert_eq!(default.map(|r| r.status), Ok(200));
}

#[test]
fn the_builtin_catalogue_parses() {
    if let Err(error) = Catalogue::from_yaml(include_str!("catalogue.yaml")) {
        panic!("{error}");
    }
    assert!(Catalogue::builtin().images.len() >= 8);
}

#[test]
fn catalogue_mistakes_are_named_precisely() {
    let rows = [
        (
            "defaultImage: {sizeBytes: 1, behaviour: {}}\nimages:\n- repository: app\n  tags: [v1]\n  sizeBytes: 1\n  behaviour: {colour: red}\n",
            "image catalogue: images[0].behaviour: unknown field `colour`",
        ),
        (
            "defaultImage: {sizeBytes: 1, behaviour: {}}\nimages:\n- {repository: app, tags: [v1, v1], sizeBytes: 1}\n",
            "image catalogue: images[0]: docker.io/library/app:v1 is listed twice",
        ),
        (
            "defaultImage: {sizeBytes: 1, behaviour: {}}\nimages:\n- {repository: App, tags: [v1], sizeBytes: 1}\n",
            "image catalogue: images[0]: couldn't parse image name \"App\": invalid reference format: repository name (library/App) must be lowercase",
        ),
        (
            "defaultImage: {sizeBytes: 1, behaviour: {routes: [{path: healthz}]}}\nimages: []\n",
            "image catalogue: defaultImage.behaviour: routes[0].path: \"healthz\" must start with \"/\"",
        ),
    ];
    for (yaml, expected) in rows {
        let err = Catalogue::from_yaml(yaml).unwrap_err();
        assert!(err.starts_with(expected), "{err}");
    }
}

fn vllm(model: &str) -> (Workload, Container) {
    let mut spec = container(&[], &[]);
    spec.args = vec![model.to_string()];
    (workload("vllm/vllm-openai:v0.11.0"), spec)
}

#[test]
fn a_model_too_big_for_its_slice_dies_of_cuda_out_of_memory() {
    let (server, spec) = vllm("meta-llama/Llama-2-13b-chat-hf");
    let slice = Some(GpuMemory { total_mib: 20096, used_by_others_mib: 0 });
    let exit = server.exit_at(&spec, ProcessState { gpu: slice, ..Default::default() }).unwrap();
    assert_eq!((exit.after, exit.exit_code, exit.reason), (Duration::from_millis(63_960), 1, "Error"));
    let state = ProcessState { gpu: slice, ..Default::default() };
    let logs = server.logs(&spec, "p", SimTime::ZERO, exit.after, state);
    assert!(logs.last().unwrap().starts_with("torch.OutOfMemoryError: CUDA out of memory."), "{logs:#?}");
    // The whole 40 GB GPU holds it.
    assert_eq!(
        server.exit_at(
            &spec,
            ProcessState { gpu: Some(GpuMemory { total_mib: 40960, used_by_others_mib: 0 }), ..Default::default() }
        ),
        None
    );
    // Without a GPU it cannot even pick a device.
    assert_eq!(server.exit_at(&spec, ProcessState::default()).unwrap().after, Duration::from_secs(4));
}

#[test]
fn the_server_listens_only_once_the_model_is_loaded() {
    let (server, spec) = vllm("mistralai/Mistral-7B-Instruct-v0.3");
    // 15 s of start-up, 13,825 MiB of weights at 400 MiB/s, 20 s of warm-up.
    assert!(!server.listening(&spec, 8000, Duration::from_millis(69_561)));
    assert!(server.listening(&spec, 8000, Duration::from_millis(69_562)));
    let state = ProcessState { gpu: Some(GpuMemory { total_mib: 20096, used_by_others_mib: 0 }), ..Default::default() };
    let logs = server.logs(&spec, "p", SimTime::ZERO, Duration::from_secs(70), state);
    assert_eq!(logs.len(), 8, "{logs:#?}");
    assert!(logs[3].ends_with("Loading weights took 34.56 seconds"), "{logs:#?}");
    assert!(logs[5].ends_with("Available KV cache memory: 3.66 GiB"), "{logs:#?}");
}
