//! `helm upgrade NAME CHART` (pkg/action/upgrade.go): the next revision rendered from the
//! values given (or the last revision's, when none are), recorded pending, the objects moved
//! from the deployed manifest to the new one, the old revision superseded.

use super::release::{self, Release};
use super::render::{self, ReleaseOptions};
use super::{chart, install, kube, status, storage};
use crate::kubectl::Context;
use crate::kubectl::args::{Args, Flag};

pub const FLAGS: &[Flag] = &[
    Flag::repeated(
        "set",
        None,
        "set values on the command line (can specify multiple or separate values with commas: key1=val1,key2=val2)",
    ),
    Flag::repeated("values", Some('f'), "specify values in a YAML file (can specify multiple)"),
    Flag::switch("install", Some('i'), "if a release by this name doesn't already exist, run an install"),
    Flag::switch(
        "reuse-values",
        None,
        "when upgrading, reuse the last release's values and merge in any overrides from the command line via --set and -f",
    ),
    Flag::switch("reset-values", None, "when upgrading, reset the values to the ones built into the chart"),
    Flag::switch("create-namespace", None, "if --install is set, create the release namespace if not present"),
];

pub fn run(ctx: &mut Context<'_>, args: &Args) -> Result<String, String> {
    let [name, chart_ref] = [&args.positionals[0], &args.positionals[1]];
    let namespace = super::namespace(ctx, args);
    if args.switch("install") && storage::history(ctx.sim, &namespace, name)?.is_empty() {
        let installed = install::install(ctx, args, (name, chart_ref), &namespace)
            .map_err(|e| format!("INSTALLATION FAILED: {e}"))?;
        return Ok(format!("Release \"{name}\" does not exist. Installing it now.\n{installed}"));
    }
    let upgraded = upgrade(ctx, args, (name, chart_ref), &namespace).map_err(|e| format!("UPGRADE FAILED: {e}"))?;
    Ok(format!("Release \"{name}\" has been upgraded. Happy Helming!\n{}", status::report(&upgraded)))
}

fn upgrade(
    ctx: &mut Context<'_>,
    args: &Args,
    (name, chart_ref): (&str, &str),
    namespace: &str,
) -> Result<Release, String> {
    let chart = chart::locate(chart_ref)?;
    let given = install::user_values(ctx, args)?;
    install::validate_name(name)?;
    let history = storage::history(ctx.sim, namespace, name)?;
    let (last, current) = current_release(&history, name)?;
    let config = if args.switch("reset-values") {
        given
    } else if args.switch("reuse-values") {
        let mut merged = current.config.clone();
        super::values::merge(&mut merged, given);
        merged
    } else if given.is_empty() {
        current.config.clone()
    } else {
        given
    };
    let version = last.version + 1;
    let options = ReleaseOptions { name, namespace, revision: version, is_upgrade: true };
    let rendered = render::render(&chart, &config, &options)?;
    let original = kube::build(ctx.sim, &current.manifest, namespace)?;
    let mut target = kube::build(ctx.sim, &rendered.manifest, namespace)?;
    let new_objects: Vec<kube::Resource> = target
        .iter()
        .filter(|t| !original.iter().any(|o| (o.kind, &o.name, &o.namespace) == (t.kind, &t.name, &t.namespace)))
        .cloned()
        .collect();
    kube::check_ownership(ctx.sim, &new_objects, name, namespace).map_err(|e| {
        format!("rendered manifests contain a resource that already exists. Unable to continue with update: {e}")
    })?;
    kube::mark_owned(&mut target, name, namespace);
    let now = release::format_time(ctx.sim.now());
    let mut record = install::new_release(&chart, config, (name, namespace, version), rendered, &now);
    record.info.first_deployed = current.info.first_deployed.clone();
    record.info.status = release::PENDING_UPGRADE.into();
    record.info.description = "Preparing upgrade".into();
    storage::create(ctx.sim, &record)?;
    if let Err(e) = kube::update(ctx.sim, &original, &target) {
        record.info.status = release::FAILED.into();
        record.info.description = format!("Upgrade \"{name}\" failed: {e}");
        storage::update(ctx.sim, &record)?;
        return Err(e);
    }
    let mut superseded = current.clone();
    superseded.info.status = release::SUPERSEDED.into();
    storage::update(ctx.sim, &superseded)?;
    record.info.status = release::DEPLOYED.into();
    record.info.description = "Upgrade complete".into();
    storage::update(ctx.sim, &record)?;
    Ok(record)
}

/// The last revision and the one deployed now (or the last, if it failed or was superseded).
fn current_release<'a>(history: &'a [Release], name: &str) -> Result<(&'a Release, &'a Release), String> {
    let Some(last) = history.last() else { return Err(format!("\"{name}\" has no deployed releases")) };
    if last.info.status.starts_with("pending") {
        return Err("another operation (install/upgrade/rollback) is in progress".into());
    }
    if last.info.status == release::DEPLOYED {
        return Ok((last, last));
    }
    match history.iter().rev().find(|r| r.info.status == release::DEPLOYED) {
        Some(deployed) => Ok((last, deployed)),
        None if last.info.status == release::FAILED || last.info.status == release::SUPERSEDED => Ok((last, last)),
        None => Err(format!("\"{name}\" has no deployed releases")),
    }
}
