//! The JSON bodies of kubelab's own API (crates/server/API.md), defined once: the server writes
//! them and the web app reads them with the same types, so the two cannot drift apart. Unknown
//! fields are ignored when reading, so a server can grow without breaking older bundles.

#![forbid(unsafe_code)]

pub mod class;
pub mod dashboard;
pub mod hosted_lab;
pub mod live;
pub mod me;
pub mod progress;
pub mod real_nodes;

pub use class::Class;
pub use dashboard::{AnswerCount, Dashboard, DashboardChanges, LearnerRow};
pub use hosted_lab::{CLOCK_MARK, Entry, LabMessage, LabRequest};
pub use live::LiveMessage;
pub use me::Me;
pub use progress::{ChallengeResult, LabLog, ProgressEvent, ProgressHistory, ProgressKind, Resume, SavedLab};
pub use real_nodes::{AgentToken, CpuQuotaUse, RealNode, RealNodes};
