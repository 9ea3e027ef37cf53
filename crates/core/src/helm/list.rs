//! `helm list` and `helm history` (cmd/helm/list.go, history.go): the latest revision of
//! each deployed or failed release, and one release's revisions, as uitable tables.

use std::collections::BTreeMap;

use super::release::{self, Release};
use super::{storage, table};
use crate::kubectl::Context;
use crate::kubectl::args::{Args, Flag};

pub const LIST_FLAGS: &[Flag] = &[
    Flag::switch("all-namespaces", Some('A'), "list releases across all namespaces"),
    Flag::switch("all", Some('a'), "show all releases without any filter applied"),
];

pub const HISTORY_FLAGS: &[Flag] = &[Flag::value("max", None, "maximum number of revision to include in history")];

pub fn list(ctx: &mut Context<'_>, args: &Args) -> Result<String, String> {
    let namespace = super::namespace(ctx, args);
    let scope = if args.switch("all-namespaces") { None } else { Some(namespace.as_str()) };
    let mut latest: BTreeMap<(String, String), Release> = BTreeMap::new();
    for release in storage::all(ctx.sim, scope)? {
        latest.insert((release.name.clone(), release.namespace.clone()), release);
    }
    let shown =
        |r: &Release| args.switch("all") || r.info.status == release::DEPLOYED || r.info.status == release::FAILED;
    let mut rows = vec![header(&["NAME", "NAMESPACE", "REVISION", "UPDATED", "STATUS", "CHART", "APP VERSION"])];
    for release in latest.values().filter(|r| shown(r)) {
        rows.push(vec![
            release.name.clone(),
            release.namespace.clone(),
            release.version.to_string(),
            release::go_time_string(release.last_deployed()),
            release.info.status.clone(),
            release.chart_label(),
            release.chart.metadata.app_version.clone(),
        ]);
    }
    Ok(table::render(&rows, 0))
}

pub fn history(ctx: &mut Context<'_>, args: &Args) -> Result<String, String> {
    let name = &args.positionals[0];
    let namespace = super::namespace(ctx, args);
    let max = match args.get("max") {
        Some(text) => text.parse::<usize>().map_err(|_| {
            format!(
                "invalid argument \"{text}\" for \"--max\" flag: strconv.ParseInt: parsing \"{text}\": invalid syntax"
            )
        })?,
        None => 256,
    };
    let revisions = storage::history(ctx.sim, &namespace, name)?;
    if revisions.is_empty() {
        return Err("release: not found".into());
    }
    let mut rows = vec![header(&["REVISION", "UPDATED", "STATUS", "CHART", "APP VERSION", "DESCRIPTION"])];
    let skip = revisions.len().saturating_sub(max);
    for release in &revisions[skip..] {
        rows.push(vec![
            release.version.to_string(),
            release.last_deployed().to_ctime(),
            release.info.status.clone(),
            release.chart_label(),
            release.chart.metadata.app_version.clone(),
            release.info.description.clone(),
        ]);
    }
    Ok(table::render(&rows, 0))
}

fn header(names: &[&str]) -> Vec<String> {
    names.iter().map(|n| n.to_string()).collect()
}
