//! `helm install NAME CHART` (pkg/action/install.go): a free, valid name, the chart rendered
//! with the user's values, the release recorded pending, its objects created, then recorded
//! deployed — or failed, with Helm's reason.

use serde_json::{Map, Value};

use super::chart::{self, Chart};
use super::release::{self, ChartFile, ChartRecord, Info, Release};
use super::render::{self, ReleaseOptions};
use super::{kube, status, storage};
use crate::api::secret::base64_encode;
use crate::kubectl::Context;
use crate::kubectl::args::{Args, Flag};

pub const FLAGS: &[Flag] = &[
    Flag::repeated(
        "set",
        None,
        "set values on the command line (can specify multiple or separate values with commas: key1=val1,key2=val2)",
    ),
    Flag::repeated("values", Some('f'), "specify values in a YAML file (can specify multiple)"),
    Flag::switch("create-namespace", None, "create the release namespace if not present"),
];

pub fn run(ctx: &mut Context<'_>, args: &Args) -> Result<String, String> {
    let [name, chart_ref] = match args.positionals.as_slice() {
        [_] => return Err("must either provide a name or specify --generate-name".into()),
        [name, chart_ref] => [name, chart_ref],
        more => return Err(format!("expected at most two arguments, unexpected arguments: {}", more[2..].join(", "))),
    };
    let namespace = super::namespace(ctx, args);
    install(ctx, args, (name, chart_ref), &namespace).map_err(|e| format!("INSTALLATION FAILED: {e}"))
}

/// The install itself, shared with `helm upgrade --install`.
pub fn install(
    ctx: &mut Context<'_>,
    args: &Args,
    (name, chart_ref): (&str, &str),
    namespace: &str,
) -> Result<String, String> {
    let chart = chart::locate(chart_ref)?;
    let config = user_values(ctx, args)?;
    validate_name(name)?;
    if !storage::history(ctx.sim, namespace, name)?.is_empty() {
        return Err("cannot re-use a name that is still in use".into());
    }
    if args.switch("create-namespace") {
        create_namespace(ctx, namespace)?;
    }
    let options = ReleaseOptions { name, namespace, revision: 1, is_upgrade: false };
    let rendered = render::render(&chart, &config, &options)?;
    let mut resources = kube::build(ctx.sim, &rendered.manifest, namespace)?;
    kube::check_ownership(ctx.sim, &resources, name, namespace).map_err(|e| {
        format!("rendered manifests contain a resource that already exists. Unable to continue with install: {e}")
    })?;
    kube::mark_owned(&mut resources, name, namespace);
    let now = release::format_time(ctx.sim.now());
    let mut record = new_release(&chart, config, (name, namespace, 1), rendered, &now);
    record.info.status = release::PENDING_INSTALL.into();
    record.info.description = "Initial install underway".into();
    storage::create(ctx.sim, &record)?;
    if let Err(e) = kube::create(ctx.sim, &resources) {
        record.info.status = release::FAILED.into();
        record.info.description = format!("Release \"{name}\" failed: {e}");
        storage::update(ctx.sim, &record)?;
        return Err(e);
    }
    record.info.status = release::DEPLOYED.into();
    record.info.description = "Install complete".into();
    storage::update(ctx.sim, &record)?;
    Ok(status::report(&record))
}

/// A release record for a freshly rendered chart.
pub fn new_release(
    chart: &Chart,
    config: Map<String, Value>,
    (name, namespace, version): (&str, &str, i64),
    rendered: render::Rendered,
    now: &str,
) -> Release {
    let templates = chart
        .templates
        .iter()
        .map(|(path, text)| ChartFile {
            name: path.strip_prefix(&format!("{}/", chart.metadata.name)).unwrap_or(path).to_string(),
            data: base64_encode(text.as_bytes()),
        })
        .collect();
    Release {
        name: name.into(),
        info: Info {
            first_deployed: now.into(),
            last_deployed: now.into(),
            deleted: String::new(),
            description: String::new(),
            status: String::new(),
            notes: rendered.notes,
        },
        chart: ChartRecord { metadata: chart.metadata.clone(), templates, values: chart.values.clone() },
        config,
        manifest: rendered.manifest,
        version,
        namespace: namespace.into(),
    }
}

/// `-f` files then `--set` values, merged in that order (pkg/cli/values `MergeValues`).
pub fn user_values(ctx: &Context<'_>, args: &Args) -> Result<Map<String, Value>, String> {
    let mut values = Map::new();
    for path in args.all("values") {
        let text = ctx.files.read_file(path).map_err(|_| format!("open {path}: no such file or directory"))?;
        let file = super::values::parse_values_file(&text).map_err(|e| format!("failed to parse {path}: {e}"))?;
        super::values::merge(&mut values, file);
    }
    for set in args.all("set") {
        super::strvals::parse_into(set, &mut values).map_err(|e| format!("failed parsing --set data: {e}"))?;
    }
    Ok(values)
}

/// chartutil.ValidateReleaseName: a DNS-1123 subdomain of at most 53 characters.
pub fn validate_name(name: &str) -> Result<(), String> {
    let label_ok = |label: &str| {
        !label.is_empty()
            && label.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            && !label.starts_with('-')
            && !label.ends_with('-')
    };
    if name.is_empty() || name.len() > 53 || !name.split('.').all(label_ok) {
        return Err(format!(
            "release name \"{name}\": invalid release name, must match regex ^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$ and the length must not be longer than 53"
        ));
    }
    Ok(())
}

/// `--create-namespace`: a Namespace labelled with its name, unless it exists.
fn create_namespace(ctx: &mut Context<'_>, namespace: &str) -> Result<(), String> {
    let document = serde_json::json!({
        "apiVersion": "v1",
        "kind": "Namespace",
        "metadata": {"name": namespace, "labels": {"name": namespace}},
    });
    let object = crate::api::codec::decode(document).map_err(|e| e.to_string())?;
    match ctx.api().create(object) {
        Ok(_) | Err(crate::error::ApiError::AlreadyExists { .. }) => Ok(()),
        Err(e) => Err(kube::api_message(&e)),
    }
}
