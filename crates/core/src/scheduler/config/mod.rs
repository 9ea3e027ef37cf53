//! kube-scheduler's configuration file (`kubescheduler.config.k8s.io/v1`
//! KubeSchedulerConfiguration): its profiles, each a `schedulerName` pods ask for, with the
//! NodeResourcesFit scoring strategy that makes it spread pods out or pack them in. Upstream
//! pkg/scheduler/apis/config (types.go, types_pluginargs.go, v1/defaults.go); the file is read
//! from a ConfigMap (`config_map.rs`) and checked as upstream checks it (`validation.rs`).

pub mod config_map;
mod file;
mod plugins;
pub mod validation;

use crate::scheduler::DEFAULT_SCHEDULER_NAME;
use crate::scheduler::framework::registry::SCORE_PLUGINS;
pub use crate::scheduler::framework::scoring_strategy::{
    ResourceSpec, ScoringStrategy, ScoringStrategyType, UtilizationShapePoint,
};
use std::sync::Arc;

/// The scheduler's profiles, in the file's order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchedulerConfig {
    pub profiles: Vec<ProfileConfig>,
}

/// One profile: the default plugin set, with NodeResourcesFit's args.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProfileConfig {
    pub scheduler_name: String,
    /// NodeResourcesFit's `scoringStrategy`; None is upstream's default (LeastAllocated over cpu
    /// and memory, weight 1 each), scored on the fast path.
    pub scoring: Option<Arc<ScoringStrategy>>,
    /// `plugins.score`: each default score plugin's weight, in the profile's order (0 where
    /// disabled); None when the file leaves them as upstream sets them.
    pub score_weights: Option<[i64; SCORE_PLUGINS]>,
}

impl Default for SchedulerConfig {
    /// What kube-scheduler runs without a file: one profile, `default-scheduler`.
    fn default() -> SchedulerConfig {
        SchedulerConfig {
            profiles: vec![ProfileConfig {
                scheduler_name: DEFAULT_SCHEDULER_NAME.into(),
                scoring: None,
                score_weights: None,
            }],
        }
    }
}

impl SchedulerConfig {
    /// Parses, defaults and validates a KubeSchedulerConfiguration; the error is what
    /// kube-scheduler prints when it refuses to start with the file.
    pub fn parse(text: &str) -> Result<SchedulerConfig, String> {
        file::parse(text)
    }

    /// The profile pods with this `schedulerName` are scheduled by.
    pub fn profile(&self, scheduler_name: &str) -> Option<&ProfileConfig> {
        self.profiles.iter().find(|p| p.scheduler_name == scheduler_name)
    }
}

/// Upstream `defaultResourceSpec`: cpu and memory, weight 1 each.
pub fn default_resources() -> Vec<ResourceSpec> {
    ["cpu", "memory"].map(|name| ResourceSpec { name: name.into(), weight: 1 }).into()
}

#[cfg(test)]
mod tests;
