//! The WebAssembly workload kubelab-agent runs for every container: it acts out a catalogue
//! image's `behaviour` (crates/core/src/workload/catalogue.yaml) for real, as the simulation
//! computes it in virtual time — logs at their moments, ports opened, HTTP answers, memory
//! held, CPU burnt, exits, SIGTERM and `exec` — so one image behaves the same in a lab and on a
//! real node. Built by `scripts/build-guests.sh` into `target/guests/workload.wasm`.
//!
//! # Host ABI (details in `ABI.md`)
//!
//! The guest is event-driven: it never blocks, the host calls it when something happens.
//! Buffers the host passes are allocated with `kl_alloc(len)` and owned by the export they are
//! passed to; replies are returned as `ptr << 32 | len` (0: empty) and stay valid until the
//! next call.
//!
//! Exports: `kl_alloc(len) -> ptr`, `kl_init(ptr, len) -> reply` (configuration JSON),
//! `kl_start(start_unix_ms) -> reply`, `kl_tick(now_ms) -> next_ms | -1`,
//! `kl_http(ptr, len, now_ms) -> reply` (HTTP, and gRPC health checks), `kl_sigterm(now_ms)`, `kl_exec(ptr, len, since_ms) -> reply`.
//! Imports (module `kubelab`): `kl_log(ptr, len)`, `kl_listen(port)`, `kl_exit(code)`.
//!
//! The interpreter is plain Rust and unit-tested natively; only `abi` is wasm32-only.

#[cfg(target_arch = "wasm32")]
mod abi;
pub mod behaviour;
pub mod clock;
pub mod config;
pub mod exec;
pub mod inference;
pub mod memory;
pub mod process;
pub mod shell;

#[cfg(test)]
mod tests;
