//! An LLM inference server's start (`vllm serve MODEL`), as kubelab-core's
//! `workload/inference.rs` plans it: init, the weights loaded at `loadMiBPerSecond`, warm-up,
//! then it listens; or it dies with vLLM's (or CUDA's) error when the flags are wrong, the
//! model is unknown, there is no GPU, or the GPU it was given is too small. The same
//! arithmetic and the same words, so a real node's log reads as the simulation's.

use crate::clock;
use serde_json::Value;
use std::collections::BTreeMap;

const MIB: f64 = 1024.0 * 1024.0;
const GIB: f64 = 1024.0 * MIB;
/// CUDA context and activations take about half a GiB beside the weights.
const OVERHEAD_MIB: u64 = 512;

/// The catalogue's `behaviour.inference`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Server {
    pub version: String,
    pub port: u16,
    pub init_ms: u64,
    pub load_mib_per_second: u64,
    pub warmup_ms: u64,
    /// Model id → parameters, in millions.
    pub models: BTreeMap<String, u64>,
}

/// The GPU memory the container was given (its devices' total); `None`: no GPU.
pub type GpuMiB = Option<u64>;

/// What one start does: lines at their times (ms after start), when it listens, how it ends.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    pub logs: Vec<(u64, String)>,
    pub ready_after: Option<u64>,
    pub exit: Option<(u64, i32)>,
}

impl Server {
    /// Reads `behaviour.inference`; the error names the field at fault.
    pub fn from_json(value: &Value) -> Result<Server, String> {
        let number =
            |field: &str| value.get(field).and_then(Value::as_u64).ok_or(format!("{field}: expected a number"));
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

    /// The process's life, from its command line and the GPU memory it was given, started at
    /// `start_unix_ms` (core's `InferenceServer::plan`).
    pub fn plan(&self, argv: &[String], gpu: GpuMiB, start_unix_ms: i64) -> Plan {
        let flags = Flags::parse(argv);
        let mut log = Log { start_unix_ms, lines: Vec::new() };
        log.info(0, "api_server.py", &format!("vLLM API server version {}", self.version));
        if let Some((text, code)) = &flags.refused {
            return log.dies(2_000, text, *code);
        }
        let Some(model) = flags.model.clone() else {
            return log.dies(2_000, "vllm serve: error: the following arguments are required: model_tag", 2);
        };
        let u = flags.gpu_memory_utilization;
        let utilization = if u == 0.9 { String::new() } else { format!(", 'gpu_memory_utilization': {u}") };
        log.info(0, "utils.py", &format!("non-default args: {{'model': '{model}'{utilization}}}"));
        let Some(millions) = self.models.get(&model) else {
            let text = format!(
                "OSError: {model} is not a local folder and is not a valid model identifier listed on 'https://huggingface.co/models'"
            );
            return log.dies(6_000, &text, 1);
        };
        let Some(total_mib) = gpu else {
            return log.dies(4_000, "RuntimeError: Failed to infer device type", 1);
        };
        self.load(log, &model, weights_mib(*millions), total_mib, u)
    }

    /// From CUDA's initialisation on: the memory check, the weights, the KV cache, warm-up.
    fn load(&self, mut log: Log, model: &str, weights_mib: u64, total_mib: u64, utilization: f64) -> Plan {
        let wanted_mib = (total_mib as f64 * utilization) as u64;
        let init = self.init_ms;
        // The agent shares no GPU between containers: the whole memory is free at start.
        if wanted_mib > total_mib {
            let text = format!(
                "ValueError: Free memory on device ({:.2}/{:.2} GiB) on startup is less than desired GPU memory utilization ({utilization}, {:.2} GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.",
                gib(total_mib),
                gib(total_mib),
                gib(wanted_mib)
            );
            return log.dies(init, &text, 1);
        }
        log.info(init, "gpu_model_runner.py", &format!("Starting to load model {model}..."));
        let rate = self.load_mib_per_second.max(1);
        if weights_mib + OVERHEAD_MIB > total_mib {
            let loaded_mib = total_mib.saturating_sub(OVERHEAD_MIB);
            let text = format!(
                "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 136.00 MiB. GPU 0 has a total capacity of {:.2} GiB of which 100.00 MiB is free. Including non-PyTorch memory, this process has {:.2} GiB memory in use.",
                gib(total_mib),
                gib(loaded_mib)
            );
            return log.dies(init + loaded_mib * 1000 / rate, &text, 1);
        }
        let loaded = init + weights_mib * 1000 / rate;
        let seconds = (loaded - init) as f64 / 1000.0;
        log.info(loaded, "default_loader.py", &format!("Loading weights took {seconds:.2} seconds"));
        let took = format!("Model loading took {:.4} GiB and {:.6} seconds", gib(weights_mib), seconds + 0.4);
        log.info(loaded, "gpu_model_runner.py", &took);
        if weights_mib + OVERHEAD_MIB >= wanted_mib {
            let text = "ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.";
            return log.dies(loaded + 2_000, text, 1);
        }
        let cache = gib(wanted_mib - weights_mib - OVERHEAD_MIB);
        log.info(loaded + 2_000, "gpu_worker.py", &format!("Available KV cache memory: {cache:.2} GiB"));
        let ready = loaded + self.warmup_ms;
        log.info(ready, "api_server.py", &format!("Starting vLLM API server 0 on http://0.0.0.0:{}", self.port));
        log.lines.push((ready, "INFO:     Application startup complete.".into()));
        Plan { logs: log.lines, ready_after: Some(ready), exit: None }
    }
}

/// The flags of `vllm serve` that matter here.
struct Flags {
    model: Option<String>,
    gpu_memory_utilization: f64,
    /// What vLLM says of a value it refuses, and the exit code (argparse's 2, pydantic's 1).
    refused: Option<(String, i32)>,
}

impl Flags {
    /// The image's entrypoint is `vllm serve`: the container's args follow it, or a command
    /// names it again (`command: [vllm, serve, MODEL]`).
    fn parse(argv: &[String]) -> Flags {
        let mut flags = Flags { model: None, gpu_memory_utilization: 0.9, refused: None };
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
                "--gpu-memory-utilization" => flags.utilization(&value().unwrap_or_default()),
                _ => {}
            }
        }
        flags
    }

    /// `--gpu-memory-utilization`: a float in (0, 1], else argparse's or pydantic's refusal.
    fn utilization(&mut self, text: &str) {
        match text.parse::<f64>() {
            Ok(v) if v > 0.0 && v <= 1.0 => self.gpu_memory_utilization = v,
            Ok(v) => {
                let bound = if v > 1.0 { "less than or equal to 1" } else { "greater than 0" };
                let kind = if v > 1.0 { "less_than_equal" } else { "greater_than" };
                let text = format!(
                    "pydantic_core._pydantic_core.ValidationError: 1 validation error for CacheConfig\ngpu_memory_utilization\n  Input should be {bound} [type={kind}, input_value={text}, input_type=float]"
                );
                self.refused = Some((text, 1));
            }
            Err(_) => {
                let text =
                    format!("vllm serve: error: argument --gpu-memory-utilization: invalid float value: '{text}'");
                self.refused = Some((text, 2));
            }
        }
    }
}

/// Weights in bf16/fp16: two bytes a parameter.
fn weights_mib(millions_of_parameters: u64) -> u64 {
    (millions_of_parameters as f64 * 1e6 * 2.0 / MIB).ceil() as u64
}

fn gib(mib: u64) -> f64 {
    mib as f64 * MIB / GIB
}

/// vLLM's log lines: `INFO 01-01 00:00:15 [api_server.py] text`.
struct Log {
    start_unix_ms: i64,
    lines: Vec<(u64, String)>,
}

impl Log {
    fn info(&mut self, after_ms: u64, file: &str, text: &str) {
        let stamp = clock::month_day_time(self.start_unix_ms + after_ms as i64);
        self.lines.push((after_ms, format!("INFO {stamp} [{file}] {text}")));
    }

    /// Its last line, and the exit with `code`.
    fn dies(mut self, after_ms: u64, text: &str, code: i32) -> Plan {
        self.lines.push((after_ms, text.to_string()));
        Plan { logs: self.lines, ready_after: None, exit: Some((after_ms, code)) }
    }
}
