//! What to run: the CRI's `ContainerConfig` as far as a WebAssembly container needs it.

use std::net::IpAddr;
use std::time::Duration;

/// A container to start (the CRI's `CreateContainer` + `StartContainer` in one).
#[derive(Clone, Debug)]
pub struct ContainerSpec {
    /// The pod's name: the process's `HOSTNAME` and what `{pod}` reads in the behaviour.
    pub pod_name: String,
    pub container: String,
    /// The image's behaviour, as `behaviour_for` gives it (kubelab-core's `Behaviour` as JSON).
    pub behaviour: serde_json::Value,
    /// The command to run, `command` + `args` merged as the kubelet merges them (kubelab-core's
    /// `Workload::argv`); empty: the image's default command.
    pub argv: Vec<String>,
    pub env: Vec<(String, String)>,
    /// `limits.memory`: the most linear memory the guest may have; past it, `OOMKilled`.
    pub memory_limit_bytes: Option<u64>,
    /// `limits.cpu`: the guest runs at most this share of one CPU (CFS quota per 100 ms period).
    pub cpu_limit_millicores: Option<u64>,
    /// The pod's IP: its listeners bind here.
    pub ip: IpAddr,
    /// The declared `containerPort`s (images with `listenDeclaredPorts` open them).
    pub ports: Vec<u16>,
    /// The longest one call into the guest may run (a request, a timer) before the runtime
    /// kills the container: a guest stuck in a loop never holds its thread for longer.
    pub wall_clock_cap: Duration,
    /// The GPUs and MIG devices the device plugin gave the container (`NVIDIA_VISIBLE_DEVICES`)
    /// with each one's memory in MiB: what CUDA in the container would find. Empty: no GPU.
    pub gpus: Vec<(String, u64)>,
}

impl ContainerSpec {
    /// The guest's configuration (`kl_init`, crates/guest/ABI.md): pod, behaviour, command,
    /// environment, declared ports and GPUs.
    pub fn guest_config(&self) -> Vec<u8> {
        let gpus: Vec<_> = self.gpus.iter().map(|(id, mib)| serde_json::json!({"id": id, "memoryMiB": mib})).collect();
        let config = serde_json::json!({
            "pod": self.pod_name, "behaviour": with_env(&self.behaviour, &self.env), "argv": self.argv,
            "env": self.env.iter().map(|(name, value)| [name, value]).collect::<Vec<_>>(), "ports": self.ports,
            "gpus": gpus,
        });
        serde_json::to_vec(&config).unwrap_or_default()
    }
}

/// The behaviour with every `{env:NAME|default}` read from the environment the container
/// started with, as the simulation's workload reads it (`workload::fill_env`); the environment
/// never changes after the start, so the guest gets the answers filled in.
fn with_env(behaviour: &serde_json::Value, env: &[(String, String)]) -> serde_json::Value {
    use serde_json::Value;
    match behaviour {
        Value::String(text) if text.contains("{env:") => Value::String(kubelab_core::workload::fill_env(text, env)),
        Value::Array(items) => Value::Array(items.iter().map(|item| with_env(item, env)).collect()),
        Value::Object(fields) => {
            Value::Object(fields.iter().map(|(name, value)| (name.clone(), with_env(value, env))).collect())
        }
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_reads_the_environment_the_container_started_with() {
        let behaviour =
            serde_json::json!({"routes": [{"path": "/", "responses": [{"body": "{env:GREETING|hi} from {pod}"}]}]});
        let greeted = with_env(&behaviour, &[("GREETING".into(), "hey".into())]);
        assert_eq!(greeted["routes"][0]["responses"][0]["body"], "hey from {pod}");
        assert_eq!(with_env(&behaviour, &[])["routes"][0]["responses"][0]["body"], "hi from {pod}");
    }
}
