//! `helm rollback NAME [REVISION]` (pkg/action/rollback.go): a new revision carrying an
//! earlier one's chart, values and manifest, applied over the current objects; every
//! deployed revision before it superseded.

use super::release::{self, Release};
use super::{kube, storage};
use crate::kubectl::Context;
use crate::kubectl::args::Args;

pub fn run(ctx: &mut Context<'_>, args: &Args) -> Result<String, String> {
    let name = &args.positionals[0];
    let revision = match args.positionals.get(1) {
        Some(text) => text.parse::<i64>().map_err(|_| {
            format!("could not convert revision to a number: strconv.Atoi: parsing \"{text}\": invalid syntax")
        })?,
        None => 0,
    };
    let namespace = super::namespace(ctx, args);
    rollback(ctx, name, revision, &namespace)?;
    Ok("Rollback was a success! Happy Helming!\n".into())
}

fn rollback(ctx: &mut Context<'_>, name: &str, revision: i64, namespace: &str) -> Result<(), String> {
    if revision < 0 {
        return Err("invalid release revision".into());
    }
    let history = storage::history(ctx.sim, namespace, name)?;
    let Some(current) = history.last().cloned() else { return Err("release: not found".into()) };
    let previous_version = if revision == 0 { current.version - 1 } else { revision };
    let Some(previous) = history.iter().find(|r| r.version == previous_version) else {
        return Err(format!("release has no {previous_version} version"));
    };
    let now = release::format_time(ctx.sim.now());
    let mut target = Release {
        version: current.version + 1,
        info: release::Info {
            first_deployed: current.info.first_deployed.clone(),
            last_deployed: now,
            deleted: String::new(),
            description: format!("Rollback to {previous_version}"),
            status: release::PENDING_ROLLBACK.into(),
            notes: previous.info.notes.clone(),
        },
        ..previous.clone()
    };
    storage::create(ctx.sim, &target)?;
    let original = kube::build(ctx.sim, &current.manifest, namespace)?;
    let mut objects = kube::build(ctx.sim, &target.manifest, namespace)?;
    kube::mark_owned(&mut objects, name, namespace);
    if let Err(e) = kube::update(ctx.sim, &original, &objects) {
        target.info.status = release::FAILED.into();
        target.info.description = format!("Rollback \"{name}\" failed: {e}");
        storage::update(ctx.sim, &target)?;
        return Err(e);
    }
    for deployed in history.iter().filter(|r| r.info.status == release::DEPLOYED || r.version == current.version) {
        let mut superseded = deployed.clone();
        superseded.info.status = release::SUPERSEDED.into();
        storage::update(ctx.sim, &superseded)?;
    }
    target.info.status = release::DEPLOYED.into();
    storage::update(ctx.sim, &target)
}
