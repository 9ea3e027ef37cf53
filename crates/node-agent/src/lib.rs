//! kubelab-agent as a library: a kubelet that joins a served lab and runs its pods through a
//! container runtime it is given (the binary, `main.rs`, reads the command line). Files are
//! named for their counterparts in upstream's pkg/kubelet.

pub mod agent;
pub mod backoff;
pub mod cli;
pub mod client;
pub mod clock;
pub mod config_fetch;
pub mod containers;
pub mod events;
pub mod gpus;
pub mod host;
pub mod ipam;
pub mod join;
pub mod lease;
pub mod lifecycle_hooks;
pub mod node_status;
pub mod pod_source;
pub mod pod_status;
pub mod pod_workers;
pub mod prober;
pub mod process_runtime;
pub mod runtime;
pub mod server;
pub mod summary;
pub mod testing;
pub mod tls;
pub mod wasm_runtime;
