//! An LLM inference server (vLLM's OpenAI-compatible server, `vllm serve MODEL`) in the
//! simulation: the catalogue's entry, and the plan of one start on the virtual clock. The plan
//! itself is `kubelab-vllm`'s, which the real node's guest follows too.

use crate::sim::time::{Duration, SimTime};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub use kubelab_vllm::GpuMemory;

/// The server's timings and the models it knows, from the catalogue entry.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct InferenceServer {
    pub version: String,
    pub port: u16,
    /// Python imports, engine and CUDA initialisation before weights load.
    pub init_ms: u64,
    /// Weights read from the model cache at this rate.
    #[serde(rename = "loadMiBPerSecond")]
    pub load_mib_per_second: u64,
    /// Memory profiling, KV cache allocation and CUDA graph capture after the weights.
    pub warmup_ms: u64,
    /// Model id → parameters, in millions (weights are bf16/fp16: two bytes each).
    pub models: BTreeMap<String, u64>,
}

/// What one start of the server does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub logs: Vec<(Duration, String)>,
    /// When it starts answering on its port; `None` when it dies first.
    pub ready_after: Option<Duration>,
    pub exit: Option<(Duration, i32)>,
    /// GPU memory it holds once loaded (`--gpu-memory-utilization` of the GPU).
    pub holds_mib: u64,
}

impl InferenceServer {
    fn server(&self) -> kubelab_vllm::Server {
        kubelab_vllm::Server {
            version: self.version.clone(),
            port: self.port,
            init_ms: self.init_ms,
            load_mib_per_second: self.load_mib_per_second,
            warmup_ms: self.warmup_ms,
            models: self.models.clone(),
        }
    }

    /// The process's life, from its command line and the GPU it was given.
    pub fn plan(&self, argv: &[String], gpu: Option<GpuMemory>, started: SimTime) -> Plan {
        // 2026-12-03T06:00:05Z → 12-03 06:00:05
        let stamp =
            |after_ms| started.plus(Duration(after_ms)).to_rfc3339().get(5..19).unwrap_or_default().replace('T', " ");
        let plan = self.server().plan(argv, gpu, &stamp);
        Plan {
            logs: plan.logs.into_iter().map(|(at, line)| (Duration(at), line)).collect(),
            ready_after: plan.ready_after.map(Duration),
            exit: plan.exit.map(|(at, code)| (Duration(at), code)),
            holds_mib: plan.holds_mib,
        }
    }

    /// When it would answer on its port, given a GPU large enough (a start that dies earlier
    /// is no longer running to be asked).
    pub fn ready_after(&self, argv: &[String]) -> Option<Duration> {
        self.server().ready_after(argv).map(Duration)
    }
}
