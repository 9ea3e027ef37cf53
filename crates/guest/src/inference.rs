//! An LLM inference server's start (`vllm serve MODEL`) in the guest: the catalogue's
//! `behaviour.inference` read from JSON, and the start planned by `kubelab-vllm`, the plan the
//! simulation follows, with vLLM's timestamps on the guest's clock.

use crate::clock;
use kubelab_vllm::{GpuMemory, Plan, Server};
use serde_json::Value;

/// Reads `behaviour.inference`; the error names the field at fault.
pub fn from_json(value: &Value) -> Result<Server, String> {
    let number = |field: &str| value.get(field).and_then(Value::as_u64).ok_or(format!("{field}: expected a number"));
    let port = number("port")?;
    let models = value.get("models").and_then(Value::as_object).ok_or("models: expected a map")?;
    let models = models
        .iter()
        .map(|(id, m)| m.as_u64().map(|m| (id.clone(), m)).ok_or(format!("models.{id}: expected a number")))
        .collect::<Result<_, String>>()?;
    Ok(Server {
        version: value.get("version").and_then(Value::as_str).unwrap_or_default().to_string(),
        port: u16::try_from(port).map_err(|_| format!("port: {port} is not a port"))?,
        init_ms: number("initMs")?,
        load_mib_per_second: number("loadMiBPerSecond")?,
        warmup_ms: number("warmupMs")?,
        models,
    })
}

/// One start at `start_unix_ms` with `gpu_mib` of GPU memory (`None`: no GPU). The agent
/// shares no GPU between containers, so all of it is free at start.
pub fn plan(server: &Server, argv: &[String], gpu_mib: Option<u64>, start_unix_ms: i64) -> Plan {
    let gpu = gpu_mib.map(|total_mib| GpuMemory { total_mib, used_by_others_mib: 0 });
    let stamp = |after_ms: u64| clock::month_day_time(start_unix_ms + after_ms as i64);
    server.plan(argv, gpu, &stamp)
}
