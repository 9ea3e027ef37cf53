//! The process runtime (`--allow-process`) through the runtime trait, with a stand-in
//! `nvidia-smi` on its search path (no GPU needed): allowed commands run on the host with the
//! pod's environment alone, their lines are logs, exits and signals are states, `nvidia-smi` is
//! kept to the pod's devices, stop is SIGTERM then SIGKILL, and other commands go to the wasm
//! runtime (when the guest is built) or are refused.

use kubelab_node_agent::process_runtime::ProcessRuntime;
use kubelab_node_agent::runtime::{
    ContainerRuntime, ContainerSpec, ContainerState, RUN_ERROR_PREFIX, RunningContainer,
};
use kubelab_node_agent::wasm_runtime::WasmRuntime;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

const GPUS: [&str; 4] = [
    "GPU-11111111-2222-3333-4444-000000000000",
    "GPU-11111111-2222-3333-4444-000000000001",
    "GPU-11111111-2222-3333-4444-000000000002",
    "GPU-11111111-2222-3333-4444-000000000003",
];

/// `nvidia-smi` as this test needs it: its arguments, the variable the toolkit reads (which the
/// real one ignores), then `-L`'s line for each GPU of gpus.txt that `--id`/`-i` names (every
/// GPU without one).
const FAKE_NVIDIA_SMI: &str = r#"#!/bin/sh
echo "args: $*"
echo "NVIDIA_VISIBLE_DEVICES=${NVIDIA_VISIBLE_DEVICES:-}"
ids=""
while [ $# -gt 0 ]; do
  case "$1" in
    --id=*) ids="${1#--id=}" ;;
    -i|--id) shift; ids="$1" ;;
  esac
  shift
done
index=0
while read -r uuid; do
  case ",$ids," in
    ,,|*",$uuid,"*) echo "GPU $index: NVIDIA A100-SXM4-40GB (UUID: $uuid)" ;;
  esac
  index=$((index + 1))
done < "$(dirname "$0")/gpus.txt"
"#;

/// A folder holding the stand-in `nvidia-smi` and the machine's GPUs.
struct Bin(PathBuf);

impl Bin {
    fn new(name: &str) -> Bin {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("kubelab-process-runtime-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let script = dir.join("nvidia-smi");
        std::fs::write(&script, FAKE_NVIDIA_SMI).unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::write(dir.join("gpus.txt"), GPUS.join("\n") + "\n").unwrap();
        Bin(dir)
    }

    fn search_path(&self) -> String {
        format!("{}:/usr/local/bin:/usr/bin:/bin", self.0.display())
    }

    fn runtime(&self, allowed: &[&str], fallback: Option<Arc<dyn ContainerRuntime>>) -> ProcessRuntime {
        ProcessRuntime::new(allowed.iter().map(|s| s.to_string()), fallback)
            .unwrap()
            .with_search_path(&self.search_path())
            .with_devices(GPUS.iter().map(|s| s.to_string()))
    }
}

impl Drop for Bin {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn spec(image: &str, argv: &[&str], env: &[(&str, &str)]) -> ContainerSpec {
    ContainerSpec {
        pod_name: "gpu-check".into(),
        namespace: "default".into(),
        container: "main".into(),
        image: image.into(),
        argv: argv.iter().map(|s| s.to_string()).collect(),
        env: env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        memory_limit_bytes: None,
        cpu_limit_millicores: None,
        ip: std::net::IpAddr::from([127, 0, 0, 1]),
        ports: Vec::new(),
    }
}

/// The environment the kubelet gives a container allocated `devices` (pod env first).
fn gpu_env<'a>(devices: &'a str, pod: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut env = pod.to_vec();
    env.extend([("NVIDIA_VISIBLE_DEVICES", devices), ("CUDA_VISIBLE_DEVICES", devices)]);
    env
}

fn exited(container: &dyn RunningContainer, limit: Duration) -> (i32, String, Option<String>) {
    let start = Instant::now();
    loop {
        if let ContainerState::Exited { exit_code, reason, message, .. } = container.state() {
            return (exit_code, reason, message);
        }
        assert!(start.elapsed() < limit, "still running after {limit:?}: {:?}", lines(container));
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn lines(container: &dyn RunningContainer) -> Vec<String> {
    container.logs().into_iter().map(|(_, line)| line).collect()
}

/// Waits for the container's first line (the shell has set its traps).
fn ready(container: &dyn RunningContainer) {
    let start = Instant::now();
    while !lines(container).iter().any(|l| l == "ready") {
        assert!(start.elapsed() < Duration::from_secs(10), "never ready: {:?}", lines(container));
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn nvidia_smi_runs_on_the_host_kept_to_the_pods_gpus() {
    let bin = Bin::new("smi");
    let runtime = bin.runtime(&["nvidia-smi"], None);
    let before = SystemTime::now();
    let two = format!("{},{}", GPUS[1], GPUS[3]);
    let container =
        runtime.start(spec("nvidia/cuda:12.4.0-base-ubuntu22.04", &["nvidia-smi", "-L"], &gpu_env(&two, &[]))).unwrap();
    assert_eq!(exited(container.as_ref(), Duration::from_secs(10)), (0, "Completed".to_string(), None));
    assert_eq!(
        lines(container.as_ref()),
        [
            format!("args: -L --id={two}"),
            format!("NVIDIA_VISIBLE_DEVICES={two}"),
            format!("GPU 1: NVIDIA A100-SXM4-40GB (UUID: {})", GPUS[1]),
            format!("GPU 3: NVIDIA A100-SXM4-40GB (UUID: {})", GPUS[3]),
        ]
    );
    let stamps: Vec<SystemTime> = container.logs().into_iter().map(|(at, _)| at).collect();
    assert!(stamps.iter().all(|at| *at >= before && *at <= SystemTime::now()), "{stamps:?}");
    assert!(stamps.windows(2).all(|w| w[0] <= w[1]));

    // `-i 0` inside a container is its first device, as the toolkit numbers them.
    let one = runtime.start(spec("busybox", &["nvidia-smi", "-L", "-i", "0"], &gpu_env(GPUS[2], &[]))).unwrap();
    exited(one.as_ref(), Duration::from_secs(10));
    let listed: Vec<String> = lines(one.as_ref()).into_iter().filter(|l| l.starts_with("GPU ")).collect();
    assert_eq!(listed, [format!("GPU 2: NVIDIA A100-SXM4-40GB (UUID: {})", GPUS[2])]);
}

#[test]
fn nvidia_smi_without_the_pods_own_gpu_is_refused() {
    let bin = Bin::new("refused");
    let runtime = bin.runtime(&["nvidia-smi"], None);
    let refused = |env: &[(&str, &str)]| runtime.start(spec("busybox", &["nvidia-smi", "-L"], env)).err().unwrap();
    let none = refused(&[]);
    assert!(!none.starts_with(RUN_ERROR_PREFIX), "a CreateContainerError: {none}");
    assert!(none.contains("without one it would list every GPU on this machine"), "{none}");
    assert!(refused(&[("NVIDIA_VISIBLE_DEVICES", "all")]).contains("not all, none, void or indexes"));
    let stranger = "GPU-99999999-2222-3333-4444-000000000000";
    assert!(refused(&gpu_env(stranger, &[])).contains("is not a device of this machine"));
    let other = runtime.start(spec("busybox", &["nvidia-smi", "-i", GPUS[0]], &gpu_env(GPUS[1], &[]))).err().unwrap();
    assert!(other.contains("this container's devices are"), "{other}");
}

#[test]
fn the_environment_is_the_pods_and_nothing_of_the_hosts() {
    let bin = Bin::new("env");
    let runtime = bin.runtime(&["env"], None);
    let container = runtime.start(spec("busybox", &["env"], &[("GREETING", "hello"), ("HOME", "/root")])).unwrap();
    assert_eq!(exited(container.as_ref(), Duration::from_secs(10)).0, 0);
    let mut seen = lines(container.as_ref());
    seen.sort();
    let path = format!("PATH={}", bin.search_path());
    // The pod's HOME wins over the default, as it does over an image's; CUDA sees no GPU.
    assert_eq!(seen, ["CUDA_VISIBLE_DEVICES=", "GREETING=hello", "HOME=/root", path.as_str()]);
    let host: Vec<String> = std::env::vars().map(|(name, _)| name).collect();
    assert!(host.iter().any(|name| name != "PATH" && name != "HOME"), "the test process has variables of its own");

    let with_gpu = runtime.start(spec("busybox", &["env"], &gpu_env(GPUS[0], &[]))).unwrap();
    exited(with_gpu.as_ref(), Duration::from_secs(10));
    assert!(lines(with_gpu.as_ref()).contains(&format!("CUDA_VISIBLE_DEVICES={}", GPUS[0])));
}

#[test]
fn exits_and_signals_become_the_containers_state() {
    let bin = Bin::new("exits");
    let runtime = bin.runtime(&["sh"], None);
    let failed = runtime.start(spec("busybox", &["sh", "-c", "echo to-stderr >&2; exit 3"], &[])).unwrap();
    assert_eq!(exited(failed.as_ref(), Duration::from_secs(10)), (3, "Error".to_string(), None));
    assert_eq!(lines(failed.as_ref()), ["to-stderr"]);

    // SIGTERM ends a process that does not handle it: 128 + 15.
    let plain = runtime.start(spec("busybox", &["sh", "-c", "echo ready; while :; do sleep 0.05; done"], &[])).unwrap();
    ready(plain.as_ref());
    let start = Instant::now();
    plain.stop(Duration::from_secs(10));
    assert!(start.elapsed() < Duration::from_secs(5), "{:?}", start.elapsed());
    assert_eq!(exited(plain.as_ref(), Duration::ZERO).0, 143);

    // One that handles it exits as it chooses.
    let polite = "trap 'echo got TERM; exit 0' TERM; echo ready; while :; do sleep 0.05; done";
    let polite = runtime.start(spec("busybox", &["sh", "-c", polite], &[])).unwrap();
    ready(polite.as_ref());
    polite.stop(Duration::from_secs(10));
    assert_eq!(exited(polite.as_ref(), Duration::ZERO), (0, "Completed".to_string(), None));
    assert!(lines(polite.as_ref()).contains(&"got TERM".to_string()));

    // One that ignores it is killed when the grace period ends: 137.
    let stubborn = "trap '' TERM; echo ready; while :; do sleep 0.05; done";
    let stubborn = runtime.start(spec("busybox", &["sh", "-c", stubborn], &[])).unwrap();
    ready(stubborn.as_ref());
    let start = Instant::now();
    stubborn.stop(Duration::from_millis(500));
    let took = start.elapsed();
    assert!(took >= Duration::from_millis(500) && took < Duration::from_secs(5), "{took:?}");
    assert_eq!(exited(stubborn.as_ref(), Duration::ZERO), (137, "Error".to_string(), None));

    let killed = runtime.start(spec("busybox", &["sh", "-c", "echo ready; sleep 30"], &[])).unwrap();
    ready(killed.as_ref());
    killed.kill();
    assert_eq!(exited(killed.as_ref(), Duration::ZERO).0, 137);
}

#[test]
fn a_runaway_is_killed_at_the_wall_clock_cap() {
    let bin = Bin::new("cap");
    let runtime = bin.runtime(&["sh"], None).with_wall_clock_cap(Duration::from_millis(300));
    let runaway = runtime.start(spec("busybox", &["sh", "-c", "sleep 30"], &[])).unwrap();
    let (code, reason, message) = exited(runaway.as_ref(), Duration::from_secs(10));
    assert_eq!((code, reason.as_str()), (137, "Error"));
    assert!(message.unwrap().contains("the agent's limit for host processes"));
}

#[test]
fn exec_runs_allowed_commands_with_the_containers_environment() {
    let bin = Bin::new("exec");
    let runtime = bin.runtime(&["sh", "env", "nvidia-smi"], None);
    let env = gpu_env(GPUS[1], &[("GREETING", "hello")]);
    let container = runtime.start(spec("busybox", &["sh", "-c", "echo ready; sleep 30"], &env)).unwrap();
    ready(container.as_ref());
    let (output, code) = container.exec(&["env".to_string()], Duration::from_secs(10));
    assert_eq!(code, 0, "{output}");
    assert!(output.lines().any(|l| l == "GREETING=hello"), "{output}");
    let (output, code) = container.exec(&["nvidia-smi".to_string(), "-L".to_string()], Duration::from_secs(10));
    assert_eq!(code, 0, "{output}");
    let listed: Vec<&str> = output.lines().filter(|l| l.starts_with("GPU ")).collect();
    assert_eq!(listed, [format!("GPU 1: NVIDIA A100-SXM4-40GB (UUID: {})", GPUS[1])]);
    let (output, code) = container.exec(&["ls".to_string(), "/".to_string()], Duration::from_secs(10));
    assert_eq!(code, 126);
    assert!(output.contains("exec: \"ls\": executable file not found in $PATH"), "{output}");
    let start = Instant::now();
    let sleeper = ["sh", "-c", "echo started; sleep 30"].map(String::from);
    let (output, code) = container.exec(&sleeper, Duration::from_millis(300));
    assert_eq!((output.as_str(), code), ("started\n", 124));
    assert!(start.elapsed() < Duration::from_secs(5));
    container.kill();
    let (output, code) = container.exec(&["env".to_string()], Duration::from_secs(10));
    assert_eq!(code, 126);
    assert!(output.contains("CONTAINER_EXITED"), "{output}");
}

#[test]
fn an_allowed_program_missing_from_the_host_is_a_start_error() {
    let bin = Bin::new("missing");
    let runtime = bin.runtime(&["no-such-program"], None);
    let error = runtime.start(spec("busybox", &["no-such-program"], &[])).err().unwrap();
    assert!(error.starts_with(RUN_ERROR_PREFIX), "a RunContainerError: {error}");
    assert!(error.contains("exec: \"no-such-program\": executable file not found in $PATH"), "{error}");
}

/// `target/guests/workload.wasm`, or `None` (after saying so); with `KUBELAB_REQUIRE_GUESTS=1`
/// a missing guest fails the test.
fn guest() -> Option<PathBuf> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/guests/workload.wasm");
    if path.exists() {
        return Some(path);
    }
    assert!(
        !std::env::var("KUBELAB_REQUIRE_GUESTS").is_ok_and(|v| v == "1"),
        "{} is missing: run scripts/build-guests.sh",
        path.display()
    );
    eprintln!("skipped the wasm part: run scripts/build-guests.sh");
    None
}

#[test]
fn other_commands_go_to_the_wasm_runtime_or_are_refused() {
    let bin = Bin::new("dispatch");
    let alone = bin.runtime(&["nvidia-smi"], None);
    alone.pull("busybox:1.37").unwrap();
    assert!(alone.has_image("busybox:1.37"), "a host process needs nothing from its image");
    let refused = alone.start(spec("busybox:1.37", &["sh", "-c", "echo hi"], &[])).err().unwrap();
    assert!(refused.contains("runs only the commands nvidia-smi (--allow-process), not \"sh\""), "{refused}");

    let Some(guest) = guest() else { return };
    let wasm: Arc<dyn ContainerRuntime> = Arc::new(WasmRuntime::new(&guest).unwrap());
    let runtime = bin.runtime(&["nvidia-smi"], Some(wasm.clone()));
    assert_eq!(runtime.version(), wasm.version());
    runtime.pull("busybox:1.37").unwrap();
    assert_eq!(runtime.image_id("busybox:1.37"), wasm.image_id("busybox:1.37"));
    let guest_box = runtime.start(spec("busybox:1.37", &["sh", "-c", "echo from the guest"], &[])).unwrap();
    exited(guest_box.as_ref(), Duration::from_secs(30));
    assert!(lines(guest_box.as_ref()).contains(&"from the guest".to_string()), "{:?}", lines(guest_box.as_ref()));

    // An image outside the lab's catalogue (an official one it does not know) pulls for a host
    // process; another command in it is refused with the pull's error.
    let outside = "python:3.12-slim";
    assert!(wasm.pull(outside).is_err(), "{outside} is not in the catalogue");
    runtime.pull(outside).unwrap();
    assert!(runtime.has_image(outside));
    let smi = runtime.start(spec(outside, &["nvidia-smi", "-L"], &gpu_env(GPUS[0], &[]))).unwrap();
    assert_eq!(exited(smi.as_ref(), Duration::from_secs(10)).0, 0);
    let refused = runtime.start(spec(outside, &["python3", "-c", "print(1)"], &[])).err().unwrap();
    assert!(refused.contains("pull access denied"), "{refused}");
}
