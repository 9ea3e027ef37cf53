//! `helm template NAME CHART`: the chart rendered as an install would render it, printed
//! without touching the cluster (cmd/helm/template.go).

use super::render::{self, ReleaseOptions};
use super::{chart, install};
use crate::kubectl::Context;
use crate::kubectl::args::{Args, Flag};

pub const FLAGS: &[Flag] = &[
    Flag::repeated(
        "set",
        None,
        "set values on the command line (can specify multiple or separate values with commas: key1=val1,key2=val2)",
    ),
    Flag::repeated("values", Some('f'), "specify values in a YAML file (can specify multiple)"),
];

pub fn run(ctx: &mut Context<'_>, args: &Args) -> Result<String, String> {
    let (name, chart_ref) = match args.positionals.as_slice() {
        [_] => return Err("must either provide a name or specify --generate-name".into()),
        [name, chart_ref] => (name.as_str(), chart_ref.as_str()),
        more => return Err(format!("expected at most two arguments, unexpected arguments: {}", more[2..].join(", "))),
    };
    let chart = chart::locate(chart_ref)?;
    let config = install::user_values(ctx, args)?;
    install::validate_name(name)?;
    let namespace = super::namespace(ctx, args);
    let options = ReleaseOptions { name, namespace: &namespace, revision: 1, is_upgrade: false };
    let rendered = render::render(&chart, &config, &options)?;
    Ok(format!("{}\n", rendered.manifest.trim()))
}
