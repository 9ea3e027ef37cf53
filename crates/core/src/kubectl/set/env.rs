//! `kubectl set env TYPE/NAME KEY=VALUE… KEY-…`: set or remove environment variables in a pod
//! template's containers. Mirrors staging/src/k8s.io/kubectl/pkg/cmd/set/set_env.go and
//! pkg/cmd/set/env/env_parse.go.

use super::image::resources_and_pairs;
use super::{Patched, check_exist, glob_match, update_pod_spec};
use crate::api::container::{Container, EnvVar};
use crate::api::pod::PodSpec;
use crate::kubectl::args::{Args, Flag};
use crate::kubectl::output::Output;
use crate::kubectl::resource_args::targets;
use crate::kubectl::{Context, Verb, namespace_of};

pub const VERB: Verb = Verb {
    name: "set env",
    short: "Update environment variables on a pod template",
    usage: "kubectl set env RESOURCE/NAME KEY_1=VAL_1 ... KEY_N=VAL_N",
    flags: &[
        Flag::value(
            "containers",
            Some('c'),
            "The names of containers in the selected pod templates to change - may use wildcards",
        ),
        Flag::switch(
            "list",
            None,
            "If true, display the environment and any changes in the standard format. this flag will removed when we have kubectl view env.",
        ),
        Flag::switch(
            "overwrite",
            None,
            "If true, allow environment to be overwritten, otherwise reject updates that overwrite existing environment.",
        ),
    ],
    run,
};

const ENV_NAME_HELP: &str = "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')";

/// What the arguments ask for: variables to set (in order) and names to remove.
struct Changes {
    set: Vec<EnvVar>,
    remove: Vec<String>,
}

fn is_env_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || "-._".contains(c))
        && chars.all(|c| c.is_ascii_alphanumeric() || "-._".contains(c))
}

/// Upstream `ParseEnv`: `KEY=VALUE` sets, `KEY-` removes.
fn parse_env(pairs: &[String]) -> Result<Changes, String> {
    let mut changes = Changes { set: Vec::new(), remove: Vec::new() };
    for pair in pairs {
        if let Some((name, value)) = pair.split_once('=') {
            if !is_env_name(name) {
                return Err(format!("error: {name:?} is not a valid key name: {ENV_NAME_HELP}"));
            }
            changes.set.push(EnvVar { name: name.into(), value: Some(value.into()), value_from: None });
        } else if let Some(name) = pair.strip_suffix('-') {
            changes.remove.push(name.to_string());
        } else {
            return Err(format!("error: unknown environment variable: {pair}"));
        }
    }
    if changes.remove.iter().any(|r| changes.set.iter().any(|e| &e.name == r)) {
        return Err("error: can not both modify and remove the same environment variable in the same command".into());
    }
    Ok(changes)
}

/// Upstream `updateEnv`: replace in place, drop removed, append new ones in order.
fn update_env(existing: &[EnvVar], changes: &Changes) -> Vec<EnvVar> {
    let mut covered: Vec<&str> = changes.remove.iter().map(String::as_str).collect();
    let mut out = Vec::new();
    for var in existing.iter().filter(|v| !changes.remove.contains(&v.name)) {
        match changes.set.iter().find(|e| e.name == var.name) {
            Some(newer) => {
                covered.push(&var.name);
                out.push(newer.clone());
            }
            None => out.push(var.clone()),
        }
    }
    for var in &changes.set {
        if !covered.contains(&var.name.as_str()) {
            covered.push(&var.name);
            out.push(var.clone());
        }
    }
    out
}

/// Refuses to overwrite a different value when `--overwrite=false`.
fn check_no_overwrites(containers: &[&mut Container], changes: &Changes) -> Result<(), String> {
    for container in containers {
        for var in &changes.set {
            if let Some(current) = container.env.iter().find(|e| e.name == var.name && e.value != var.value) {
                let value = current.value.as_deref().unwrap_or("");
                return Err(format!("'{}' already has a value ({value}), and --overwrite is false", current.name));
            }
        }
    }
    Ok(())
}

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let parsed = resources_and_pairs(&args.positionals, "environment")
        .map_err(|_| {
            format!("error: all resources must be specified before environment changes: {}", args.positionals.join(" "))
        })
        .and_then(|(resources, pairs)| Ok((resources, parse_env(&pairs)?)));
    let (resources, changes) = match parsed {
        Ok(parsed) => parsed,
        Err(message) => return Output::failed(message),
    };
    if resources.is_empty() {
        return Output::failed(
            "error: one or more resources must be specified as <resource> <name> or <resource>/<name>",
        );
    }
    let namespace = namespace_of(&args);
    let found = match targets(ctx, &resources, &namespace).and_then(|f| check_exist(ctx, &namespace, &f).map(|()| f)) {
        Ok(found) => found,
        Err(message) => return Output::failed(message),
    };
    let pattern = args.get("containers").unwrap_or("*").to_string();
    let overwrite = args.get("overwrite").is_none_or(|o| o == "true");
    let mut out = Output::default();
    let mut errors = Vec::new();
    for (kind, name) in found {
        let mut outcome: Result<Vec<String>, String> = Ok(Vec::new());
        let mut update = |spec: &mut PodSpec| outcome = update_spec(spec, &pattern, &changes, overwrite);
        let write = !args.switch("list");
        let written = update_pod_spec(ctx, (kind, &namespace, &name), write, &mut update);
        let kind_name = kind.info().kind_name;
        match outcome {
            Ok(listed) if listed.is_empty() => {
                out.warn(format!("warning: {kind_name}/{name} does not have any containers matching {pattern:?}"));
                continue;
            }
            Ok(listed) if args.switch("list") => {
                listed.iter().for_each(|text| out.line(format!("# {kind_name} {name}, {text}")));
                continue;
            }
            Ok(_) => {}
            Err(reason) => {
                errors.push(format!("error: {}/{name} {reason}", kind.info().plural));
                continue;
            }
        }
        match written {
            Ok(Patched::Written) => out.line(format!("{}/{name} env updated", kind.info().singular_qualified())),
            Ok(Patched::Unchanged) => {}
            Err(message) => errors.push(message),
        }
    }
    for message in errors {
        out.error(message);
    }
    out
}

/// Applies the changes to the matching containers; returns, per container, its `--list` text.
fn update_spec(spec: &mut PodSpec, pattern: &str, changes: &Changes, overwrite: bool) -> Result<Vec<String>, String> {
    let mut containers: Vec<&mut Container> = Vec::new();
    containers.extend(spec.containers.make_mut().iter_mut().filter(|c| glob_match(pattern, &c.name)));
    containers.extend(spec.init_containers.make_mut().iter_mut().filter(|c| glob_match(pattern, &c.name)));
    if !overwrite {
        check_no_overwrites(&containers, changes)?;
    }
    let mut listed = Vec::new();
    for container in containers {
        container.env = update_env(&container.env, changes);
        let mut text = format!("container {}", container.name);
        for var in &container.env {
            text.push_str(&format!("\n{}={}", var.name, var.value.as_deref().unwrap_or("")));
        }
        listed.push(text);
    }
    Ok(listed)
}

#[cfg(test)]
mod tests {
    use crate::api::Deployment;
    use crate::kubectl::rollout::fixtures::{deployment, kubectl};
    use crate::sim::Sim;

    fn env(sim: &Sim) -> Vec<String> {
        let d = sim.store().get::<Deployment>("default", "hello").unwrap();
        let env = &d.spec.template.spec.containers[0].env;
        env.iter().map(|e| format!("{}={}", e.name, e.value.as_deref().unwrap_or(""))).collect()
    }

    #[test]
    fn set_env_sets_replaces_and_removes() {
        let mut sim = Sim::default();
        deployment(&mut sim, "hello:v1");
        let (text, code) = kubectl(&mut sim, "set env deploy/hello GREETING=hi COLOR=blue");
        assert_eq!((text.as_str(), code), ("deployment.apps/hello env updated\n", 0));
        assert_eq!(env(&sim), ["GREETING=hi", "COLOR=blue"]);
        kubectl(&mut sim, "set env deploy/hello GREETING=hello COLOR-");
        assert_eq!(env(&sim), ["GREETING=hello"]);
        let (text, _) = kubectl(&mut sim, "set env deploy/hello GREETING=hello");
        assert_eq!(text, "");
        let (text, _) = kubectl(&mut sim, "set env deploy/hello --list");
        assert_eq!(text, "# Deployment hello, container hello\nGREETING=hello\n");
    }

    #[test]
    fn set_env_errors_read_like_kubectl() {
        let mut sim = Sim::default();
        deployment(&mut sim, "hello:v1");
        let (text, _) = kubectl(&mut sim, "set env deploy/hello A=1 A-");
        assert_eq!(text, "error: can not both modify and remove the same environment variable in the same command\n");
        let (text, _) = kubectl(&mut sim, "set env deploy/hello 1A=x");
        assert!(text.starts_with("error: \"1A\" is not a valid key name: "), "{text}");
        let (text, _) = kubectl(&mut sim, "set env deploy/hello A=1 -c web");
        assert_eq!(text, "warning: Deployment/hello does not have any containers matching \"web\"\n");
        kubectl(&mut sim, "set env deploy/hello A=1");
        let (text, _) = kubectl(&mut sim, "set env deploy/hello A=2 --overwrite=false");
        assert_eq!(text, "error: deployments/hello 'A' already has a value (1), and --overwrite is false\n");
    }
}
