//! The kubelet's eviction manager, for memory: every housekeeping interval it compares the
//! node's `memory.available` with the hard threshold, reports MemoryPressure, evicts one pod at
//! a time until the node has memory again, and refuses BestEffort pods meanwhile. Mirrors
//! pkg/kubelet/eviction (eviction_manager.go `synchronize` and `Admit`, helpers.go).

pub mod admit;
pub mod condition;
pub mod evicted_status;
pub mod manager;
pub mod message;
pub mod rank;
pub mod signals;
mod summary;

pub use manager::EvictionManager;
