//! The file as written: strict decoding (an unknown field is an error, as kube-scheduler's
//! decoder makes it), then upstream's defaulting (v1/defaults.go), then validation.

use super::validation::{self, FieldError};
use super::{ProfileConfig, ResourceSpec, SchedulerConfig, ScoringStrategy, ScoringStrategyType};
use super::{UtilizationShapePoint, default_resources};
use crate::scheduler::DEFAULT_SCHEDULER_NAME;
use serde::Deserialize;
use std::sync::Arc;

pub const API_VERSION: &str = "kubescheduler.config.k8s.io/v1";
pub const KIND: &str = "KubeSchedulerConfiguration";
/// The one plugin whose args the lab's profiles take.
pub const NODE_RESOURCES_FIT: &str = "NodeResourcesFit";

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct File {
    api_version: Option<String>,
    kind: Option<String>,
    #[serde(default)]
    profiles: Vec<Profile>,
    // Fields of the file that change nothing a lab shows: accepted and left alone.
    #[allow(dead_code)]
    parallelism: Option<i64>,
    #[allow(dead_code)]
    leader_election: Option<serde_yaml::Value>,
    #[allow(dead_code)]
    client_connection: Option<serde_yaml::Value>,
    #[allow(dead_code)]
    enable_profiling: Option<bool>,
    #[allow(dead_code)]
    enable_contention_profiling: Option<bool>,
    #[allow(dead_code)]
    delay_cache_until_active: Option<bool>,
    // Fields that would change scheduling in ways the lab does not model: refused by name.
    percentage_of_nodes_to_score: Option<serde_yaml::Value>,
    pod_initial_backoff_seconds: Option<serde_yaml::Value>,
    pod_max_backoff_seconds: Option<serde_yaml::Value>,
    extenders: Option<serde_yaml::Value>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Profile {
    scheduler_name: Option<String>,
    plugins: Option<serde_yaml::Value>,
    #[serde(default)]
    plugin_config: Vec<PluginConfig>,
    percentage_of_nodes_to_score: Option<serde_yaml::Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PluginConfig {
    name: String,
    #[serde(default)]
    args: serde_yaml::Value,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct FitArgs {
    api_version: Option<String>,
    kind: Option<String>,
    #[serde(default)]
    ignored_resources: Vec<String>,
    #[serde(default)]
    ignored_resource_groups: Vec<String>,
    scoring_strategy: Option<Strategy>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Strategy {
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    resources: Vec<Resource>,
    requested_to_capacity_ratio: Option<Ratio>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Resource {
    name: String,
    #[serde(default)]
    weight: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Ratio {
    #[serde(default)]
    shape: Vec<Point>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Point {
    utilization: i64,
    score: i64,
}

pub fn parse(text: &str) -> Result<SchedulerConfig, String> {
    let file: File = serde_yaml::from_str(text).map_err(|e| format!("strict decoding error: {e}"))?;
    let api_version = file.api_version.as_deref().unwrap_or_default();
    let kind = file.kind.as_deref().unwrap_or_default();
    if api_version != API_VERSION || kind != KIND {
        return Err(format!("no kind \"{kind}\" is registered for version \"{api_version}\""));
    }
    let mut errors = Vec::new();
    for (field, value) in [
        ("percentageOfNodesToScore", &file.percentage_of_nodes_to_score),
        ("podInitialBackoffSeconds", &file.pod_initial_backoff_seconds),
        ("podMaxBackoffSeconds", &file.pod_max_backoff_seconds),
        ("extenders", &file.extenders),
    ] {
        if value.is_some() {
            errors.push(FieldError::not_modelled(field.into()));
        }
    }
    let mut profiles = file.profiles;
    if profiles.is_empty() {
        profiles.push(Profile {
            scheduler_name: None,
            plugins: None,
            plugin_config: Vec::new(),
            percentage_of_nodes_to_score: None,
        });
    }
    // Upstream defaults the name only when there is one profile.
    if let [only] = profiles.as_mut_slice() {
        only.scheduler_name.get_or_insert_with(|| DEFAULT_SCHEDULER_NAME.into());
    }
    let config = SchedulerConfig {
        profiles: profiles.into_iter().enumerate().map(|(i, p)| profile(i, p, &mut errors)).collect(),
    };
    validation::validate_profiles(&config, &mut errors);
    if errors.is_empty() { Ok(config) } else { Err(validation::aggregate(&errors)) }
}

fn profile(index: usize, file: Profile, errors: &mut Vec<FieldError>) -> ProfileConfig {
    let path = format!("profiles[{index}]");
    let score_weights =
        file.plugins.as_ref().and_then(|p| super::plugins::score_weights(&format!("{path}.plugins"), p, errors));
    if file.percentage_of_nodes_to_score.is_some() {
        errors.push(FieldError::not_modelled(format!("{path}.percentageOfNodesToScore")));
    }
    let mut scoring = None;
    let mut seen: Vec<&str> = Vec::new();
    for (i, plugin) in file.plugin_config.iter().enumerate() {
        let at = format!("{path}.pluginConfig[{i}]");
        if seen.contains(&plugin.name.as_str()) {
            errors.push(FieldError::duplicate(at, &plugin.name));
            continue;
        }
        seen.push(&plugin.name);
        if plugin.name != NODE_RESOURCES_FIT {
            errors.push(FieldError::unsupported(format!("{at}.name"), &plugin.name, &[NODE_RESOURCES_FIT]));
            continue;
        }
        scoring = fit_args(&format!("{at}.args"), &plugin.args, errors);
    }
    ProfileConfig { scheduler_name: file.scheduler_name.unwrap_or_default(), scoring, score_weights }
}

/// NodeResourcesFitArgs, defaulted as `SetDefaults_NodeResourcesFitArgs` does: no strategy is
/// LeastAllocated over cpu and memory, no resources are those two, a weight of 0 is 1.
fn fit_args(path: &str, args: &serde_yaml::Value, errors: &mut Vec<FieldError>) -> Option<Arc<ScoringStrategy>> {
    let args: FitArgs = if args.is_null() {
        FitArgs::default()
    } else {
        match serde_yaml::from_value(args.clone()) {
            Ok(args) => args,
            Err(e) => {
                errors.push(FieldError::decoding(path.into(), e.to_string()));
                return None;
            }
        }
    };
    let _ = (args.api_version, args.kind);
    if !args.ignored_resources.is_empty() {
        errors.push(FieldError::not_modelled(format!("{path}.ignoredResources")));
    }
    if !args.ignored_resource_groups.is_empty() {
        errors.push(FieldError::not_modelled(format!("{path}.ignoredResourceGroups")));
    }
    let strategy = args.scoring_strategy?;
    let strategy_path = format!("{path}.scoringStrategy");
    let Some(kind) = ScoringStrategyType::parse(&strategy.kind) else {
        errors.push(FieldError::unsupported(
            format!("{strategy_path}.type"),
            &strategy.kind,
            &ScoringStrategyType::NAMES,
        ));
        return None;
    };
    let mut resources: Vec<ResourceSpec> = strategy
        .resources
        .into_iter()
        .map(|r| ResourceSpec { weight: if r.weight == 0 { 1 } else { r.weight }, name: r.name })
        .collect();
    if resources.is_empty() {
        resources = default_resources();
    }
    let shape: Vec<UtilizationShapePoint> = strategy
        .requested_to_capacity_ratio
        .map(|r| {
            r.shape.into_iter().map(|p| UtilizationShapePoint { utilization: p.utilization, score: p.score }).collect()
        })
        .unwrap_or_default();
    let strategy = ScoringStrategy { kind, resources, shape };
    validation::validate_strategy(&strategy_path, &strategy, errors);
    Some(Arc::new(strategy))
}
