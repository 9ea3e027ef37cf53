//! `helm uninstall NAME…` (pkg/action/uninstall.go): the release marked uninstalling, its
//! objects deleted, then every revision's Secret purged.

use super::release;
use super::{kube, storage};
use crate::kubectl::Context;
use crate::kubectl::args::Args;

pub fn run(ctx: &mut Context<'_>, args: &Args) -> Result<String, String> {
    let namespace = super::namespace(ctx, args);
    let mut out = String::new();
    for name in &args.positionals {
        uninstall(ctx, name, &namespace)?;
        out.push_str(&format!("release \"{name}\" uninstalled\n"));
    }
    Ok(out)
}

fn uninstall(ctx: &mut Context<'_>, name: &str, namespace: &str) -> Result<(), String> {
    let history = storage::history(ctx.sim, namespace, name)?;
    let Some(last) = history.last() else {
        return Err(format!("uninstall: Release not loaded: {name}: release: not found"));
    };
    let mut record = last.clone();
    record.info.status = release::UNINSTALLING.into();
    record.info.deleted = release::format_time(ctx.sim.now());
    record.info.description = "Deletion in progress (or silently failed)".into();
    storage::update(ctx.sim, &record)?;
    let objects = kube::build(ctx.sim, &record.manifest, namespace)?;
    kube::delete(ctx.sim, &objects);
    for revision in &history {
        storage::delete(ctx.sim, revision)?;
    }
    Ok(())
}
