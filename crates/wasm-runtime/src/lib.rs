//! kubelab-agent's container runtime: runs each pod container as a WebAssembly guest
//! (crates/guest, `target/guests/workload.wasm`) in wasmtime, with its own thread and store,
//! real listeners on the pod's IP, and real limits — linear memory capped at `limits.memory`
//! (past it: `OOMKilled`, 137), CPU throttled to `limits.cpu` per 100 ms period, SIGTERM and a
//! grace period, SIGKILL (137). It plays the part containerd and runc play for the kubelet
//! (krustlet's wasm providers are the nearest upstream counterpart), with the simulation's
//! catalogue deciding what each image does (`behaviour_for`).

mod catalogue;
mod container;
mod exec;
mod guest;
mod http;
mod limits;
mod runtime;
mod shim;
mod spec;
mod state;

pub use catalogue::behaviour_for;
pub use container::Container;
pub use exec::{EXIT_CANNOT_EXEC, EXIT_TIMED_OUT};
pub use limits::CPU_PERIOD;
pub use runtime::{EPOCH_TICK, Runtime};
pub use spec::ContainerSpec;
pub use state::{EXIT_SIGKILL, EXIT_START_ERROR, EXIT_TRAP, State};
