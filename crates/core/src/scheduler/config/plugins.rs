//! A profile's `plugins` section, as far as the lab's scheduler honours it: `score`, whose
//! `enabled` entries set a default score plugin's weight and whose `disabled` entries (or `*`)
//! turn plugins off — upstream's merge of a profile with the default plugins
//! (v1/default_plugins.go `mergePlugins`) and the framework's "a weight of 0 is 1". The other
//! extension points would add or remove filters the lab does not have: refused by name.

use super::validation::FieldError;
use crate::scheduler::framework::registry::SCORE_PLUGINS;
use crate::scheduler::plugins::DEFAULT_PROFILE;
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Plugins {
    score: Option<PluginSet>,
    pre_enqueue: Option<serde_yaml::Value>,
    queue_sort: Option<serde_yaml::Value>,
    pre_filter: Option<serde_yaml::Value>,
    filter: Option<serde_yaml::Value>,
    post_filter: Option<serde_yaml::Value>,
    pre_score: Option<serde_yaml::Value>,
    reserve: Option<serde_yaml::Value>,
    permit: Option<serde_yaml::Value>,
    pre_bind: Option<serde_yaml::Value>,
    bind: Option<serde_yaml::Value>,
    post_bind: Option<serde_yaml::Value>,
    multi_point: Option<serde_yaml::Value>,
}

#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct PluginSet {
    #[serde(default)]
    enabled: Vec<Plugin>,
    #[serde(default)]
    disabled: Vec<Plugin>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Plugin {
    name: String,
    #[serde(default)]
    weight: i64,
}

/// The profile's score weights from `plugins`, or None when it leaves them alone.
pub fn score_weights(
    path: &str,
    value: &serde_yaml::Value,
    errors: &mut Vec<FieldError>,
) -> Option<[i64; SCORE_PLUGINS]> {
    let plugins: Plugins = match serde_yaml::from_value(value.clone()) {
        Ok(plugins) => plugins,
        Err(e) => {
            errors.push(FieldError::decoding(path.into(), e.to_string()));
            return None;
        }
    };
    let others = [
        ("preEnqueue", plugins.pre_enqueue.is_some()),
        ("queueSort", plugins.queue_sort.is_some()),
        ("preFilter", plugins.pre_filter.is_some()),
        ("filter", plugins.filter.is_some()),
        ("postFilter", plugins.post_filter.is_some()),
        ("preScore", plugins.pre_score.is_some()),
        ("reserve", plugins.reserve.is_some()),
        ("permit", plugins.permit.is_some()),
        ("preBind", plugins.pre_bind.is_some()),
        ("bind", plugins.bind.is_some()),
        ("postBind", plugins.post_bind.is_some()),
        ("multiPoint", plugins.multi_point.is_some()),
    ];
    for (point, _) in others.iter().filter(|(_, present)| *present) {
        errors.push(FieldError::not_modelled(format!("{path}.{point}")));
    }
    let score = plugins.score?;
    let names: Vec<&str> = DEFAULT_PROFILE.score.iter().map(|p| p.name).collect();
    let mut weights = DEFAULT_PROFILE.score.each_ref().map(|p| p.weight);
    for (i, plugin) in score.disabled.iter().enumerate() {
        match names.iter().position(|n| *n == plugin.name) {
            _ if plugin.name == "*" => weights = [0; SCORE_PLUGINS],
            Some(at) => weights[at] = 0,
            None => errors.push(unknown(format!("{path}.score.disabled[{i}].name"), &plugin.name, &names)),
        }
    }
    for (i, plugin) in score.enabled.iter().enumerate() {
        let Some(at) = names.iter().position(|n| *n == plugin.name) else {
            errors.push(unknown(format!("{path}.score.enabled[{i}].name"), &plugin.name, &names));
            continue;
        };
        if !(0..=100).contains(&plugin.weight) {
            let field = format!("{path}.score.enabled[{i}].weight");
            errors.push(FieldError::invalid(field, plugin.weight, "not in valid range [0, 100]"));
        }
        weights[at] = plugin.weight.max(1);
    }
    Some(weights)
}

/// Only the default profile's score plugins exist in the lab.
fn unknown(field: String, name: &str, names: &[&str]) -> FieldError {
    FieldError::unsupported(field, name, names)
}
