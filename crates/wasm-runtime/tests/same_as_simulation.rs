//! The same image behaves the same in the simulation and on a real node: hello:v1's answers
//! and log lines, hello:v2's greeting from its environment, and vLLM's start (its model loaded, or CUDA out of memory), from the guest,
//! against what kubelab-core's `Workload` computes for them.

mod common;

use common::ticked::Ticked;
use common::*;
use kubelab_core::api::container::Container as ContainerSpec;
use kubelab_core::sim::time::{Duration as SimDuration, SIM_EPOCH_UNIX_SECONDS, SimTime};
use kubelab_core::workload::{Catalogue, GpuMemory, ProcessState, Workload};
use kubelab_wasm_runtime::behaviour_for;
use std::time::Duration;

const VLLM: &str = "vllm/vllm-openai:v0.11.0";

/// `2025/01/01 00:00:03` → `<time>`: the simulation's clock is virtual, the node's is real.
fn without_time(line: &str) -> String {
    let stamp = |s: &str| {
        s.len() >= 19
            && s.char_indices().take(19).all(|(i, c)| match i {
                4 | 7 => c == '/',
                10 => c == ' ',
                13 | 16 => c == ':',
                _ => c.is_ascii_digit(),
            })
    };
    match line {
        _ if stamp(line) => format!("<time>{}", &line[19..]),
        _ => line.to_string(),
    }
}

#[test]
fn hello_v1_answers_and_logs_as_the_simulation_says() {
    let Some(runtime) = runtime() else { return };
    let workload = Catalogue::builtin().resolve("hello:v1").unwrap().workload;
    let pod = "hello-5d7c8";
    let container_spec = ContainerSpec { name: "app".into(), ..Default::default() };
    let ip = ip(31);
    let container = runtime.start(spec(pod, "hello:v1", ip)).unwrap();
    assert!(eventually(Duration::from_secs(2), || get(ip, 8080, "/").is_ok()));
    std::thread::sleep(Duration::from_millis(3_100));

    let since = SimDuration::from_secs(4);
    for path in ["/", "/healthz", "/readyz", "/missing", "/hog?mb=1", "/hog"] {
        let simulated = workload.respond(&container_spec, path, 8080, pod, since).unwrap();
        assert_eq!(get(ip, 8080, path).unwrap(), (simulated.status, simulated.body), "{path}");
    }

    container.stop(Duration::from_secs(5));
    let sigterm_after = Some(since);
    let state = ProcessState { sigterm_after, ..Default::default() };
    let simulated = workload.logs(&container_spec, pod, SimTime::ZERO, since, state);
    let real: Vec<String> = container.logs().into_iter().map(|(_, line)| without_time(&line)).collect();
    let simulated: Vec<String> = simulated.iter().map(|line| without_time(line)).collect();
    assert_eq!(real, simulated);
    let exit = workload.on_sigterm();
    assert_eq!(container.state().exit_code(), Some(exit.exit_code));
}

#[test]
fn hello_v2_greets_with_the_greeting_its_environment_started_with() {
    let Some(runtime) = runtime() else { return };
    let workload = Catalogue::builtin().resolve("hello:v2").unwrap().workload;
    let pod = "hello-779c6b7b5-9qftf";
    let container_spec = ContainerSpec { name: "app".into(), ..Default::default() };
    for (last, env) in [(32, vec![("GREETING".to_string(), "hey".to_string())]), (33, vec![])] {
        let ip = ip(last);
        let mut started = spec(pod, "hello:v2", ip);
        started.env = env.clone();
        let container = runtime.start(started).unwrap();
        assert!(eventually(Duration::from_secs(2), || get(ip, 8080, "/").is_ok()));
        let since = SimDuration::from_secs(1);
        let simulated = workload.respond_with_env(&container_spec, "/", 8080, pod, &env, since).unwrap();
        assert_eq!(get(ip, 8080, "/").unwrap(), (simulated.status, simulated.body), "{env:?}");
        container.kill();
    }
}

#[test]
fn an_image_the_registry_lacks_fails_to_pull_as_in_the_simulation() {
    let err = behaviour_for("hello:v9").unwrap_err();
    assert_eq!(err.reason(), "ErrImagePull");
    assert!(err.message().contains("docker.io/library/hello:v9: not found"), "{}", err.message());
    assert_eq!(behaviour_for("nginz").unwrap_err().reason(), "ErrImagePull");
    assert!(behaviour_for("myrepo/api:2.1").is_ok(), "a learner's own image is the default image");
}

/// vLLM's `INFO 01-01 00:00:03 [file.py] …` → `INFO <time> [file.py] …`.
fn without_vllm_time(line: &str) -> String {
    match line.strip_prefix("INFO ") {
        Some(rest) if rest.len() > 14 && rest.as_bytes()[2] == b'-' => format!("INFO <time>{}", &rest[14..]),
        _ => line.to_string(),
    }
}

/// `vllm serve MODEL` as the simulation's kubelet and the guest run it, with `gpu_mib` of GPU.
fn vllm(model: &str, gpu_mib: Option<u64>) -> (Workload, ContainerSpec, kubelab_wasm_runtime::ContainerSpec) {
    let workload = Catalogue::builtin().resolve(VLLM).unwrap().workload;
    let simulated = ContainerSpec { name: "app".into(), args: vec![model.into()], ..Default::default() };
    let mut real = spec("llm-0", VLLM, ip(32));
    real.argv = vec![model.to_string()];
    real.gpus = gpu_mib.map(|mib| ("GPU-0".to_string(), mib)).into_iter().collect();
    (workload, simulated, real)
}

fn gpu(total_mib: u64) -> Option<GpuMemory> {
    Some(GpuMemory { total_mib, used_by_others_mib: 0 })
}

#[test]
fn vllm_loads_a_small_model_listens_and_answers_as_the_simulation_says() {
    if guest().is_none() {
        return;
    }
    let a100 = kubelab_core::gpu::model::find("A100-SXM4-40GB").unwrap().memory_mib;
    let (workload, container, real) = vllm("facebook/opt-125m", Some(a100));
    let mut guest = Ticked::start(&real, SIM_EPOCH_UNIX_SECONDS * 1000);
    let points = workload.change_points(&container, SimDuration::from_secs(600));
    let ready = points.into_iter().find(|at| workload.listening(&container, 8000, *at)).expect("it listens");
    assert!(ready > SimDuration::from_secs(35), "init, the weights and warm-up: {ready:?}");

    let since = SimDuration(ready.0 + 1_000);
    let seen = guest.run_until(since.0);
    assert_eq!(seen.listens, [(8000, ready.0)], "it listens when the simulation's server does");
    assert_eq!(seen.exit, None);
    assert_eq!(workload.exit_at(&container, ProcessState { gpu: gpu(a100), ..Default::default() }), None);
    let state = ProcessState { gpu: gpu(a100), ..Default::default() };
    let simulated = workload.timed_logs(&container, "llm-0", SimTime::ZERO, since, state);
    let simulated: Vec<(u64, String)> = simulated.into_iter().map(|(at, line)| (at.0, line)).collect();
    assert_eq!(seen.logs, simulated);
    for path in ["/health", "/v1/models", "/v1/completions", "/"] {
        let answer = workload.respond(&container, path, 8000, "llm-0", since).unwrap();
        assert_eq!(guest.http(path), (answer.status, answer.body), "{path}");
    }
}

#[test]
fn vllm_with_a_13b_model_on_a_1g_5gb_slice_dies_of_cuda_out_of_memory_as_simulated() {
    if guest().is_none() {
        return;
    }
    let a100 = kubelab_core::gpu::model::find("A100-SXM4-40GB").unwrap();
    let slice = a100.profile("1g.5gb").unwrap().memory_mib;
    let (workload, container, real) = vllm("meta-llama/Llama-2-13b-chat-hf", Some(slice));
    let exit = workload
        .exit_at(&container, ProcessState { gpu: gpu(slice), ..Default::default() })
        .expect("the simulation's server dies");
    let mut guest = Ticked::start(&real, SIM_EPOCH_UNIX_SECONDS * 1000);
    let seen = guest.run_until(exit.after.0 + 60_000);
    assert_eq!(seen.exit, Some((exit.after.0, exit.exit_code)));
    assert_eq!((exit.exit_code, exit.reason), (1, "Error"));
    assert!(seen.listens.is_empty());
    let state = ProcessState { gpu: gpu(slice), ..Default::default() };
    let simulated = workload.timed_logs(&container, "llm-0", SimTime::ZERO, exit.after, state);
    let simulated: Vec<(u64, String)> = simulated.into_iter().map(|(at, line)| (at.0, line)).collect();
    assert_eq!(seen.logs, simulated);
    assert!(seen.logs.last().unwrap().1.starts_with("torch.OutOfMemoryError: CUDA out of memory."));
}

#[test]
fn vllm_on_a_machine_without_gpus_fails_as_the_simulation_says() {
    let Some(runtime) = runtime() else { return };
    let (workload, container, real) = vllm("facebook/opt-125m", None);
    let exit = workload.exit_at(&container, ProcessState::default()).expect("no device to run on");
    let started = std::time::Instant::now();
    let running = runtime.start(real).unwrap();
    assert!(running.wait(Duration::from_secs(10)));
    let ran = started.elapsed();
    assert!(ran >= Duration::from_millis(exit.after.0) && ran < Duration::from_millis(exit.after.0 + 1_500), "{ran:?}");
    let state = running.state();
    assert_eq!((state.exit_code(), state.reason()), (Some(exit.exit_code), Some(exit.reason)));
    let simulated = workload.logs(&container, "llm-0", SimTime::ZERO, exit.after, ProcessState::default());
    let real: Vec<String> = running.logs().into_iter().map(|(_, line)| without_vllm_time(&line)).collect();
    assert_eq!(real, simulated.iter().map(|line| without_vllm_time(line)).collect::<Vec<_>>());
    assert_eq!(real.last().map(String::as_str), Some("RuntimeError: Failed to infer device type"));
}
