//! What container images do in the simulator: the image catalogue (the registry), image
//! references and pull errors (containerd), processes as pure functions of time (the runtime),
//! and probe outcomes (the kubelet's prober). The kubelet computes when things change from
//! these instead of ticking.

mod behaviour;
mod catalogue;
mod inference;
mod probe;
mod reference;
mod saturation;
mod shell;

pub use behaviour::{
    Behaviour, ConfigFile, ConnectionRefused, ExecResult, ExitSpec, GrpcHealth, HttpResponse, Listen, LogLine,
    ProcessExit, ProcessState, Response, Route, Sigterm, SigtermResponse, Startup, Workload, fill_env,
};
pub use catalogue::{Catalogue, DefaultImage, ImageEntry, ImageInfo};
pub use inference::{GpuMemory, InferenceServer};
pub use probe::{ProbeContext, ProbeOutcome, next_change, run_probe};
pub use reference::pseudo_digest;
pub use reference::{ImageReference, PullError};
pub use saturation::{Load, SATURATED};
pub use shell::PATH as IMAGE_PATH;

#[cfg(test)]
mod tests;
