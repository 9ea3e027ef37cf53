//! A real machine with GPUs joins a lab: `kubelab-agent --gpus fake:FILE` (two A100-SXM4-40GB,
//! the first in MIG mode as `all-1g.5gb`, the device plugin's `mixed` strategy) takes the same
//! code path as NVML above the NVML call. Its Node publishes the allocatable and the labels the
//! simulation publishes for the same machine, and a pod asking for one `nvidia.com/mig-1g.5gb`
//! is scheduled there and sees exactly one MIG device's UUID in its environment.

mod support;

use serde_json::Value;
use std::process::Stdio;
use std::time::{Duration, Instant};
use support::machines::{agent_binaries, free_port};
use support::up::{Up, oracle};

const GPUS: &str = "migStrategy: mixed
gpus:
- model: A100-SXM4-40GB
  mig: all-1g.5gb
- model: A100-SXM4-40GB
";

const POD: &str = "apiVersion: v1
kind: Pod
metadata:
  name: inference
spec:
  containers:
  - name: main
    image: busybox:1.37
    command: [sleep, infinity]
    resources:
      limits: {nvidia.com/mig-1g.5gb: 1}
";

/// The `nvidia.com/*` part of a resource list or label set.
fn nvidia(map: &Value) -> Vec<(String, String)> {
    let object = map.as_object().cloned().unwrap_or_default();
    object
        .into_iter()
        .filter(|(k, _)| k.starts_with("nvidia.com/"))
        .map(|(k, v)| (k, v.as_str().unwrap_or_default().to_string()))
        .collect()
}

/// The same machine in the simulation: its Node as `kubectl get node -o json` prints it.
fn simulated_node() -> Value {
    use kubelab_core::cluster::ClusterSpec;
    use kubelab_core::kubectl::MemoryFiles;
    use kubelab_core::script;
    let mut sim = kubelab_core::sim::Sim::new(1, &ClusterSpec::default());
    let lines = "lab node add gpu-1 --gpu A100-SXM4-40GBx2 --mig-strategy mixed
lab node exec gpu-1 -- nvidia-smi -i 0 -mig 1
lab node exec gpu-1 -- nvidia-smi mig -i 0 -cgi 19,19,19,19,19,19,19 -C
sleep 5s
kubectl get node gpu-1 -o json";
    let steps = script::parse(lines).unwrap();
    let text = script::run(&mut sim, &steps, &MemoryFiles::new(), true).text;
    serde_json::from_str(&text[text.find('{').unwrap()..]).unwrap()
}

#[test]
fn a_machine_with_fake_gpus_publishes_what_the_simulation_does_and_keeps_a_pod_to_its_device() {
    let Some(kubectl) = oracle() else { return };
    let Some((agent, guest)) = agent_binaries() else { return };
    let up = Up::start("gpu-node");
    let (bootstrap, _) = up.kubeconfig_for("agents", "bootstrap");
    let config = std::fs::read_to_string(&bootstrap).unwrap();
    let field = |name: &str| config.lines().find_map(|l| l.trim().strip_prefix(name)).unwrap().trim().to_string();
    let ca = up.dir.join("ca.pem");
    use base64::Engine;
    let ca_pem = base64::engine::general_purpose::STANDARD.decode(field("certificate-authority-data:")).unwrap();
    std::fs::write(&ca, ca_pem).unwrap();
    let gpus = up.dir.join("gpus.yaml");
    std::fs::write(&gpus, GPUS).unwrap();
    let run = std::process::id() % 250;
    let mut child = std::process::Command::new(&agent)
        .args(["--server", &field("server:"), "--name", "gpu-1", "--tls-server-name", "localhost"])
        .arg("--certificate-authority")
        .arg(&ca)
        .arg("--guest")
        .arg(&guest)
        .arg(format!("--gpus=fake:{}", gpus.display()))
        .args(["--address", "127.0.0.1", "--kubelet-port", &free_port().to_string()])
        .args(["--pod-cidr", &format!("127.88.{run}.0/24"), "--pod-network", "none"])
        .env("KUBELAB_AGENT_TOKEN", field("token:"))
        .stdout(Stdio::null())
        .spawn()
        .expect("kubelab-agent starts");
    let outcome = std::panic::catch_unwind(|| check(&up, &kubectl));
    let _ = child.kill();
    let _ = child.wait();
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic);
    }
}

fn check(up: &Up, kubectl: &std::path::Path) {
    let get = |args: &str| {
        let (out, ok) = up.kubectl(kubectl, args, None);
        ok.then_some(out)
    };
    let node: Value = eventually(|| get("get node gpu-1 -o json").and_then(|j| serde_json::from_str(&j).ok()));
    let simulated = simulated_node();
    assert_eq!(nvidia(&node["status"]["allocatable"]), nvidia(&simulated["status"]["allocatable"]));
    assert_eq!(nvidia(&node["status"]["capacity"]), nvidia(&simulated["status"]["capacity"]));
    // The simulated node runs the GPU Operator's MIG manager, whose `nvidia.com/mig.config` and
    // `.config.state` labels a bare machine (device plugin and feature discovery only) lacks.
    let operator = |(key, _): &(String, String)| !key.starts_with("nvidia.com/mig.config");
    let simulated_labels: Vec<_> = nvidia(&simulated["metadata"]["labels"]).into_iter().filter(operator).collect();
    assert_eq!(nvidia(&node["metadata"]["labels"]), simulated_labels);
    assert!(nvidia(&node["status"]["allocatable"]).contains(&("nvidia.com/mig-1g.5gb".into(), "7".into())));

    let (created, ok) = up.kubectl(kubectl, "apply -f -", Some(POD));
    assert!(ok, "{created}");
    eventually(|| get("get pod inference -o jsonpath={.status.phase}").filter(|p| p == "Running"));
    let (scheduled, _) = up.kubectl(kubectl, "get pod inference -o jsonpath={.spec.nodeName}", None);
    assert_eq!(scheduled, "gpu-1");
    let (env, ok) = up.kubectl(kubectl, "exec inference -- env", None);
    assert!(ok, "{env}");
    let visible = |name: &str| env.lines().find_map(|l| l.strip_prefix(name)).unwrap_or_default().to_string();
    let devices = visible("NVIDIA_VISIBLE_DEVICES=");
    assert!(devices.starts_with("MIG-") && !devices.contains(','), "exactly one MIG device: {env}");
    assert_eq!(visible("CUDA_VISIBLE_DEVICES="), devices);
}

fn eventually<T>(mut probe: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(found) = probe() {
            return found;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "not within a minute");
        std::thread::sleep(Duration::from_millis(300));
    }
}
