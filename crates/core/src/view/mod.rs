//! Plain-data views of a lab: what the UI draws and says, computed here from the store and the
//! controllers so the UI reads nothing else of the core. The cluster picture, the node grid of
//! a big cluster, the event feed, each pod's life over time (the lifecycle chart), the scheduler's per-node verdicts for a pod, the writes and
//! loops a step set in motion, the MIG board's GPUs, the traffic panel, the last request's way through the API server's
//! gates, and a check's verdict.

pub mod autoscaling;
pub mod cluster;
pub mod event_feed;
pub mod gpus;
pub mod lifecycle;
pub mod node_grid;
pub mod reconcile;
pub mod request_path;
pub mod scheduling;
pub mod traffic;

/// A lesson check's verdict: passed or not, and what the learner is told.
pub use crate::checks::Verdict;
