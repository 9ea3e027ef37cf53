//! The scheduling framework (pkg/scheduler/framework): the queue, the cache of nodes and
//! assigned pods, one cycle's state, the statuses plugins return, and the registry of plugins
//! with their extension points and weights, and the pods waiting at Permit.

pub mod cache;
pub mod cluster_event;
pub mod cycle_state;
pub mod fit_error;
pub mod label_groups;
pub mod node_fit;
pub mod node_images;
pub mod plugin_states;
pub mod registry;
pub mod scalar_name;
pub mod scheduling_queue;
pub mod scoring_strategy;
pub mod status;
pub mod types;
pub mod waiting_pods;
