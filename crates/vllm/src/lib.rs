//! vLLM's OpenAI-compatible server starting (`vllm serve MODEL`): the model's size sets how
//! long loading takes and how much GPU memory it needs; it listens only once loaded, and dies
//! with CUDA's out-of-memory error when the GPU (or MIG slice) it was given is too small. Log
//! lines are worded as vLLM words them. One plan for the simulation (kubelab-core's
//! `workload/inference.rs`) and the real node's guest (`crates/guest`), so the two agree.

use std::collections::BTreeMap;

const MIB: f64 = 1024.0 * 1024.0;
const GIB: f64 = 1024.0 * MIB;

/// The server's timings and the models it knows (the catalogue's `behaviour.inference`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Server {
    pub version: String,
    pub port: u16,
    /// Python imports, engine and CUDA initialisation before weights load, in ms.
    pub init_ms: u64,
    /// Weights read from the model cache at this rate.
    pub load_mib_per_second: u64,
    /// Memory profiling, KV cache allocation and CUDA graph capture after the weights, in ms.
    pub warmup_ms: u64,
    /// Model id → parameters, in millions (weights are bf16/fp16: two bytes each).
    pub models: BTreeMap<String, u64>,
}

/// The GPU memory a container was given: a whole GPU's, a MIG device's, or a time-sliced
/// replica's (the whole GPU, shared with whoever else runs on it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GpuMemory {
    pub total_mib: u64,
    /// Held by other processes on the same GPU when this one started (time-slicing).
    pub used_by_others_mib: u64,
}

/// What one start of the server does; times are ms after the start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub logs: Vec<(u64, String)>,
    /// When it starts answering on its port; `None` when it dies first.
    pub ready_after: Option<u64>,
    pub exit: Option<(u64, i32)>,
    /// GPU memory it holds once loaded (`--gpu-memory-utilization` of the GPU).
    pub holds_mib: u64,
}

/// The flags `vllm serve` takes that matter here.
struct Flags {
    model: Option<String>,
    gpu_memory_utilization: f64,
    /// What vLLM says of a value it refuses, and the exit code (argparse's 2, pydantic's 1).
    refused: Option<(String, i32)>,
}

fn flags(argv: &[String]) -> Flags {
    let mut flags = Flags { model: None, gpu_memory_utilization: 0.9, refused: None };
    // The image's entrypoint is `vllm serve`: the container's args follow it, or a command
    // names it again (`command: [vllm, serve, MODEL]`).
    let after_serve = argv.iter().position(|w| w == "serve").map_or(0, |i| i + 1);
    let mut words = argv[after_serve..].iter().peekable();
    if let Some(first) = words.peek().filter(|w| !w.starts_with('-')) {
        flags.model = Some(first.to_string());
        words.next();
    }
    while let Some(word) = words.next() {
        let (name, inline) = match word.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (word.as_str(), None),
        };
        let mut value = || inline.clone().or_else(|| words.next().cloned());
        match name {
            "--model" => flags.model = value(),
            "--gpu-memory-utilization" => {
                let text = value().unwrap_or_default();
                match text.parse::<f64>() {
                    Ok(v) if v > 0.0 && v <= 1.0 => flags.gpu_memory_utilization = v,
                    Ok(v) => {
                        let bound = if v > 1.0 { "less than or equal to 1" } else { "greater than 0" };
                        let kind = if v > 1.0 { "less_than_equal" } else { "greater_than" };
                        let text = format!(
                            "pydantic_core._pydantic_core.ValidationError: 1 validation error for CacheConfig\ngpu_memory_utilization\n  Input should be {bound} [type={kind}, input_value={text}, input_type=float]"
                        );
                        flags.refused = Some((text, 1));
                    }
                    Err(_) => {
                        let text = format!(
                            "vllm serve: error: argument --gpu-memory-utilization: invalid float value: '{text}'"
                        );
                        flags.refused = Some((text, 2));
                    }
                }
            }
            _ => {}
        }
    }
    flags
}

impl Server {
    /// The process's life, from its command line and the GPU it was given; `stamp` writes
    /// the time `ms` after the start as vLLM's log does (`12-03 06:00:05`).
    pub fn plan(&self, argv: &[String], gpu: Option<GpuMemory>, stamp: &dyn Fn(u64) -> String) -> Plan {
        let flags = flags(argv);
        let mut log = Log { stamp, lines: Vec::new() };
        log.info(0, "api_server.py", &format!("vLLM API server version {}", self.version));
        if let Some((text, code)) = &flags.refused {
            log.raw(2_000, text);
            return log.exit(2_000, *code);
        }
        let Some(model) = flags.model.clone() else {
            log.raw(2_000, "vllm serve: error: the following arguments are required: model_tag");
            return log.exit(2_000, 2);
        };
        let u = flags.gpu_memory_utilization;
        let utilization = if u == 0.9 { String::new() } else { format!(", 'gpu_memory_utilization': {u}") };
        log.info(0, "utils.py", &format!("non-default args: {{'model': '{model}'{utilization}}}"));
        let Some(millions) = self.models.get(&model) else {
            let text = format!(
                "OSError: {model} is not a local folder and is not a valid model identifier listed on 'https://huggingface.co/models'"
            );
            log.raw(6_000, &text);
            return log.exit(6_000, 1);
        };
        let Some(gpu) = gpu else {
            log.raw(4_000, "RuntimeError: Failed to infer device type");
            return log.exit(4_000, 1);
        };
        self.load(log, &model, weights_mib(*millions), gpu, flags.gpu_memory_utilization)
    }

    /// From CUDA's initialisation on: the memory check, the weights, the KV cache, warm-up.
    fn load(&self, mut log: Log<'_>, model: &str, weights_mib: u64, gpu: GpuMemory, utilization: f64) -> Plan {
        let wanted_mib = (gpu.total_mib as f64 * utilization) as u64;
        let free_mib = gpu.total_mib.saturating_sub(gpu.used_by_others_mib);
        let init = self.init_ms;
        if wanted_mib > free_mib {
            let text = format!(
                "ValueError: Free memory on device ({:.2}/{:.2} GiB) on startup is less than desired GPU memory utilization ({}, {:.2} GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.",
                gib(free_mib),
                gib(gpu.total_mib),
                utilization,
                gib(wanted_mib)
            );
            log.raw(init, &text);
            return log.exit(init, 1);
        }
        log.info(init, "gpu_model_runner.py", &format!("Starting to load model {model}..."));
        let rate = self.load_mib_per_second.max(1);
        // CUDA context and activations take about half a GiB beside the weights.
        let fits = weights_mib + 512 <= gpu.total_mib;
        if !fits {
            let loaded_mib = gpu.total_mib.saturating_sub(512);
            let at = init + loaded_mib * 1000 / rate;
            let text = format!(
                "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 136.00 MiB. GPU 0 has a total capacity of {:.2} GiB of which 100.00 MiB is free. Including non-PyTorch memory, this process has {:.2} GiB memory in use.",
                gib(gpu.total_mib),
                gib(loaded_mib)
            );
            log.raw(at, &text);
            return log.exit(at, 1);
        }
        let loaded = init + weights_mib * 1000 / rate;
        let load_seconds = (loaded - init) as f64 / 1000.0;
        log.info(loaded, "default_loader.py", &format!("Loading weights took {load_seconds:.2} seconds"));
        log.info(
            loaded,
            "gpu_model_runner.py",
            &format!("Model loading took {:.4} GiB and {:.6} seconds", gib(weights_mib), load_seconds + 0.4),
        );
        if weights_mib + 512 >= wanted_mib {
            let text = "ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.";
            log.raw(loaded + 2_000, text);
            return log.exit(loaded + 2_000, 1);
        }
        let cache_gib = gib(wanted_mib - weights_mib - 512);
        log.info(loaded + 2_000, "gpu_worker.py", &format!("Available KV cache memory: {cache_gib:.2} GiB"));
        let ready = loaded + self.warmup_ms;
        log.info(ready, "api_server.py", &format!("Starting vLLM API server 0 on http://0.0.0.0:{}", self.port));
        log.raw(ready, "INFO:     Application startup complete.");
        Plan { logs: log.lines, ready_after: Some(ready), exit: None, holds_mib: wanted_mib }
    }

    /// When it would answer on its port, given a GPU large enough (a start that dies earlier
    /// is no longer running to be asked).
    pub fn ready_after(&self, argv: &[String]) -> Option<u64> {
        let flags = flags(argv);
        let millions = self.models.get(flags.model.as_deref()?)?;
        Some(self.init_ms + weights_mib(*millions) * 1000 / self.load_mib_per_second.max(1) + self.warmup_ms)
    }
}

/// Weights in bf16/fp16: two bytes a parameter.
fn weights_mib(millions_of_parameters: u64) -> u64 {
    (millions_of_parameters as f64 * 1e6 * 2.0 / MIB).ceil() as u64
}

fn gib(mib: u64) -> f64 {
    mib as f64 * MIB / GIB
}

/// vLLM's log lines: `INFO 12-03 06:00:05 [api_server.py:1885] text`.
struct Log<'a> {
    stamp: &'a dyn Fn(u64) -> String,
    lines: Vec<(u64, String)>,
}

impl Log<'_> {
    fn info(&mut self, after_ms: u64, file: &str, text: &str) {
        let stamp = (self.stamp)(after_ms);
        self.lines.push((after_ms, format!("INFO {stamp} [{file}] {text}")));
    }

    fn raw(&mut self, after_ms: u64, text: &str) {
        self.lines.push((after_ms, text.to_string()));
    }

    fn exit(self, after_ms: u64, code: i32) -> Plan {
        Plan { logs: self.lines, ready_after: None, exit: Some((after_ms, code)), holds_mib: 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server() -> Server {
        let models = [("facebook/opt-125m".to_string(), 125)].into();
        Server {
            version: "0.11.0".into(),
            port: 8000,
            init_ms: 15_000,
            load_mib_per_second: 400,
            warmup_ms: 20_000,
            models,
        }
    }

    fn argv(words: &str) -> Vec<String> {
        words.split(' ').map(str::to_string).collect()
    }

    #[test]
    fn a_small_model_on_a_whole_gpu_loads_warms_up_and_listens() {
        let gpu = GpuMemory { total_mib: 40_960, used_by_others_mib: 0 };
        let plan = server().plan(&argv("vllm serve facebook/opt-125m"), Some(gpu), &|ms| format!("+{ms}"));
        // 125M parameters in bf16 are 239 MiB: 597 ms at 400 MiB/s.
        assert_eq!(plan.ready_after, Some(15_000 + 597 + 20_000));
        assert_eq!(plan.holds_mib, 36_864);
        assert_eq!(plan.logs[0], (0, "INFO +0 [api_server.py] vLLM API server version 0.11.0".to_string()));
        assert_eq!(plan.logs.last().unwrap().1, "INFO:     Application startup complete.");
    }

    #[test]
    fn no_gpu_and_an_unknown_model_end_the_process_as_vllm_does() {
        let no_gpu = server().plan(&argv("vllm serve facebook/opt-125m"), None, &|_| String::new());
        assert_eq!(no_gpu.exit, Some((4_000, 1)));
        assert_eq!(no_gpu.logs.last().unwrap().1, "RuntimeError: Failed to infer device type");
        let unknown = server().plan(&argv("vllm serve nope/model"), None, &|_| String::new());
        assert_eq!(unknown.exit, Some((6_000, 1)));
        assert_eq!(server().ready_after(&argv("vllm serve facebook/opt-125m")), Some(35_597));
    }
}
