//! Busybox scripts through `kubectl exec`, a container's PID 1 and an exec probe: learners and manifests write them.
#![no_main]

use kubelab_core::script::words;
use kubelab_core::sim::Sim;
use kubelab_core::sim::time::Duration;
use kubelab_fuzz::{argv, budget, kubectl, lab_after, text};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

/// A running busybox pod to exec into.
const SETUP: &str = "kubectl run box --image=busybox -- sleep 3600
sleep 10s
";

static BOX_LAB: OnceLock<Sim> = OnceLock::new();

fuzz_target!(|bytes: &[u8]| {
    let script = text(bytes);
    let mut sim = BOX_LAB.get_or_init(|| lab_after(SETUP)).clone();
    budget(&mut sim, 32);
    exec(&mut sim, &script);
    as_a_container(&mut sim, &script);
});

/// `kubectl exec -- sh -c SCRIPT`, and the script's words as the command itself.
fn exec(sim: &mut Sim, script: &str) {
    kubectl(sim, &argv(&["exec", "box", "--", "sh", "-c", script]), "");
    if let Ok(words) = words::split(script) {
        let mut command = argv(&["exec", "box", "--"]);
        command.extend(words);
        kubectl(sim, &command, "");
    }
}

/// The script as a container's command and as another's liveness probe, then two minutes of
/// the kubelet living with them.
fn as_a_container(sim: &mut Sim, script: &str) {
    let shell = ["sh", "-c", script];
    let pod = serde_json::json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "scripted"},
        "spec": {"containers": [
            {"name": "main", "image": "busybox", "command": shell},
            {"name": "probed", "image": "busybox", "command": ["sleep", "3600"],
             "livenessProbe": {"exec": {"command": shell}, "periodSeconds": 5}},
        ]},
    });
    let applied = kubectl(sim, &argv(&["apply", "-f", "-"]), &pod.to_string());
    if !applied.succeeded() {
        return;
    }
    sim.advance(Duration::from_secs(120));
    kubectl(sim, &argv(&["logs", "scripted", "-c", "main"]), "");
    kubectl(sim, &argv(&["describe", "pod", "scripted"]), "");
}
