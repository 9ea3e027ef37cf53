//! What the host gives a container at start (`kl_init`): the pod's name, the image's behaviour,
//! the command, the environment, the declared ports and the GPUs it was given, as one JSON object.

use crate::behaviour::Behaviour;
use crate::shell::PATH;
use serde_json::Value;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Config {
    pub pod: String,
    pub behaviour: Behaviour,
    /// The command the container runs (`command` + `args` as the kubelet merges them);
    /// empty: the image's default command.
    pub argv: Vec<String>,
    /// The container's environment, in the order the kubelet set it.
    pub env: Vec<(String, String)>,
    /// The container's declared `containerPort`s.
    pub ports: Vec<u16>,
    /// The memory of each GPU or MIG device the device plugin gave it, in MiB (what CUDA
    /// reports for the devices in `NVIDIA_VISIBLE_DEVICES`); empty: no GPU.
    pub gpu_memory_mib: Vec<u64>,
}

impl Config {
    /// Reads `{"pod", "behaviour", "argv", "env": [[name, value]…], "ports", "gpus": [{"id", "memoryMiB"}…]}`.
    pub fn from_json(bytes: &[u8]) -> Result<Config, String> {
        let value: Value = serde_json::from_slice(bytes).map_err(|err| format!("config: {err}"))?;
        let text_list = |field: &str| -> Result<Vec<String>, String> {
            let items = value.get(field).and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
            items
                .iter()
                .map(|v| v.as_str().map(str::to_string).ok_or(format!("config: {field}: expected strings")))
                .collect()
        };
        let env = value.get("env").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
        let env = env
            .iter()
            .map(|pair| match pair.as_array().map(Vec::as_slice) {
                Some([Value::String(name), Value::String(value)]) => Ok((name.clone(), value.clone())),
                _ => Err("config: env: expected [name, value] pairs".to_string()),
            })
            .collect::<Result<_, _>>()?;
        let ports = value.get("ports").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
        let ports = ports
            .iter()
            .map(|p| {
                p.as_u64().and_then(|p| u16::try_from(p).ok()).ok_or("config: ports: expected port numbers".to_string())
            })
            .collect::<Result<_, _>>()?;
        Ok(Config {
            pod: value.get("pod").and_then(Value::as_str).unwrap_or_default().to_string(),
            behaviour: Behaviour::from_json(value.get("behaviour").unwrap_or(&Value::Null))?,
            argv: text_list("argv")?,
            env,
            ports,
            gpu_memory_mib: gpus(value.get("gpus"))?,
        })
    }

    /// The GPU memory the process sees, all its devices together; `None`: no GPU.
    pub fn gpu_mib(&self) -> Option<u64> {
        (!self.gpu_memory_mib.is_empty()).then(|| self.gpu_memory_mib.iter().sum())
    }

    /// What the process runs: the container's command, else the image's default.
    pub fn command(&self) -> Option<Vec<String>> {
        let default = self.behaviour.default_command.as_ref()?;
        Some(if self.argv.is_empty() { default.clone() } else { self.argv.clone() })
    }

    /// The process's environment as a container runtime builds it: `PATH`, `HOSTNAME` (the
    /// pod's name) and `HOME`, then the container's own variables, which win.
    pub fn environment(&self) -> Vec<(String, String)> {
        let mut env = vec![
            ("PATH".to_string(), PATH.to_string()),
            ("HOSTNAME".to_string(), self.pod.clone()),
            ("HOME".to_string(), "/root".to_string()),
        ];
        for (name, value) in &self.env {
            env.retain(|(n, _)| n != name);
            env.push((name.clone(), value.clone()));
        }
        env
    }
}

/// `gpus`: each device's `memoryMiB` (absent or null: none).
fn gpus(value: Option<&Value>) -> Result<Vec<u64>, String> {
    let devices = value.and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    devices
        .iter()
        .map(|d| {
            d.get("memoryMiB").and_then(Value::as_u64).ok_or("config: gpus: expected {\"memoryMiB\": N}".to_string())
        })
        .collect()
}
