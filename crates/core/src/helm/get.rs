//! `helm get values|manifest|notes NAME` and `helm status NAME`: what the latest revision
//! recorded.

use super::release::Release;
use super::{status, storage, values};
use crate::kubectl::Context;
use crate::kubectl::args::{Args, Flag};

pub const VALUES_FLAGS: &[Flag] = &[
    Flag::switch("all", Some('a'), "dump all (computed) values"),
    Flag::value("revision", None, "get the named release with revision"),
];

pub const REVISION_FLAGS: &[Flag] = &[Flag::value("revision", None, "get the named release with revision")];

/// The revision asked for (`--revision`), else the latest.
fn release(ctx: &Context<'_>, args: &Args) -> Result<Release, String> {
    let name = &args.positionals[0];
    let namespace = super::namespace(ctx, args);
    let history = storage::history(ctx.sim, &namespace, name)?;
    let found = match args.get("revision") {
        Some(text) => {
            let version: i64 = text.parse().map_err(|_| {
                format!("invalid argument \"{text}\" for \"--revision\" flag: strconv.ParseInt: parsing \"{text}\": invalid syntax")
            })?;
            history.into_iter().find(|r| r.version == version)
        }
        None => history.into_iter().last(),
    };
    found.ok_or_else(|| "release: not found".to_string())
}

pub fn values(ctx: &mut Context<'_>, args: &Args) -> Result<String, String> {
    let release = release(ctx, args)?;
    if args.switch("all") {
        let computed = values::coalesce(&release.chart.values, &release.config);
        return Ok(format!("COMPUTED VALUES:\n{}", values::to_yaml(&computed)));
    }
    // An empty config is left out of the stored JSON, so Helm reads it back as nil.
    let text = if release.config.is_empty() { "null\n".to_string() } else { values::to_yaml(&release.config) };
    Ok(format!("USER-SUPPLIED VALUES:\n{text}"))
}

pub fn manifest(ctx: &mut Context<'_>, args: &Args) -> Result<String, String> {
    Ok(format!("{}\n", release(ctx, args)?.manifest))
}

pub fn notes(ctx: &mut Context<'_>, args: &Args) -> Result<String, String> {
    let release = release(ctx, args)?;
    if release.info.notes.is_empty() {
        return Ok(String::new());
    }
    Ok(format!("NOTES:\n{}\n", release.info.notes))
}

pub fn status(ctx: &mut Context<'_>, args: &Args) -> Result<String, String> {
    Ok(status::report(&release(ctx, args)?))
}
