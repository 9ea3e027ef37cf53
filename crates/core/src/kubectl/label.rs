//! `kubectl label TYPE NAME k=v k2- [--overwrite] [-l SEL | --all]`, and what `annotate`
//! shares with it: splitting resources from `key=value`/`key-` pairs and writing one map of
//! metadata. Mirrors staging/src/k8s.io/kubectl/pkg/cmd/label/label.go.

use super::args::{Args, Flag};
use super::output::Output;
use super::print_flags::{self, DRY_RUN, DryRun, OUTPUT};
use super::resource_args;
use super::{Context, Verb, namespace_of};
use crate::api::labels::Selector;
use crate::api::string_map::StringMap;
use crate::api::{Kind, ObjectMeta};
use crate::store::FieldSelector;

pub const VERB: Verb = Verb {
    name: "label",
    short: "Update the labels on a resource",
    usage: "kubectl label [--overwrite] (-f FILENAME | TYPE NAME) KEY_1=VAL_1 ... KEY_N=VAL_N [--resource-version=version] [options]",
    flags: FLAGS,
    run: |ctx, args| update_metadata(ctx, &args, &LABELS),
};

/// The flags label and annotate share.
pub const FLAGS: &[Flag] = &[
    Flag::switch(
        "overwrite",
        None,
        "If true, allow labels to be overwritten, otherwise reject label updates that overwrite existing labels.",
    ),
    Flag::value("selector", Some('l'), "Selector (label query) to filter on, supports '=', '==', '!=', 'in', 'notin'."),
    Flag::switch("all", None, "Select all resources, in the namespace of the specified resource types"),
    Flag::switch("all-namespaces", Some('A'), "If true, check the specified action in all namespaces."),
    DRY_RUN,
    OUTPUT,
];

/// Refuses `key=value` pairs that would overwrite a value without `--overwrite`.
pub type OverwriteCheck = fn(&StringMap, &[(String, String)]) -> Result<(), String>;

/// What differs between `label` and `annotate`.
pub struct MapUpdate {
    /// `label` / `annotation`, as the messages name one entry.
    pub noun: &'static str,
    pub map: fn(&mut ObjectMeta) -> &mut StringMap,
    /// Refuses pairs that would overwrite a value without `--overwrite`.
    pub check_overwrite: OverwriteCheck,
    /// The operation printed, from the object's JSON before and after.
    pub message: fn(&str, &str, bool) -> &'static str,
    /// Whether keys removed but absent are reported (`label "x" not found.`).
    pub reports_missing: bool,
}

pub const LABELS: MapUpdate = MapUpdate {
    noun: "label",
    map: |meta| &mut meta.labels,
    check_overwrite: no_label_overwrites,
    message: label_message,
    reports_missing: true,
};

/// Upstream `updateDataChangeMsg`: a shorter object without --overwrite reads as removal.
fn label_message(old: &str, new: &str, overwrite: bool) -> &'static str {
    if old == new {
        "not labeled"
    } else if !overwrite && new.len() < old.len() {
        "unlabeled"
    } else {
        "labeled"
    }
}

fn no_label_overwrites(current: &StringMap, pairs: &[(String, String)]) -> Result<(), String> {
    let errors: Vec<String> = pairs
        .iter()
        .filter_map(|(key, _)| {
            current.get(key).map(|v| format!("'{key}' already has a value ({v}), and --overwrite is false"))
        })
        .collect();
    match errors.as_slice() {
        [] => Ok(()),
        [one] => Err(one.clone()),
        many => Err(format!("[{}]", many.join(", "))),
    }
}

/// The changes asked for: pairs to set and keys to remove.
pub struct Changes {
    pub set: Vec<(String, String)>,
    pub remove: Vec<String>,
}

/// Upstream `GetResourcesAndPairs` and `parseLabels`: resources first, then `k=v` / `k-`.
pub fn split_arguments(positionals: &[String], noun: &str) -> Result<(Vec<String>, Changes), String> {
    let mut resources = Vec::new();
    let mut changes = Changes { set: Vec::new(), remove: Vec::new() };
    for arg in positionals {
        let is_pair = arg.contains('=') || arg.ends_with('-');
        if !is_pair {
            if !changes.set.is_empty() || !changes.remove.is_empty() {
                return Err(format!("error: all resources must be specified before {noun} changes: {arg}"));
            }
            resources.push(arg.clone());
        } else if let Some((key, value)) = arg.split_once('=') {
            if value.contains('=') {
                return Err(format!("error: invalid {noun} spec: {arg}"));
            }
            changes.set.push((key.to_string(), value.to_string()));
        } else {
            changes.remove.push(arg[..arg.len() - 1].to_string());
        }
    }
    if changes.remove.iter().any(|key| changes.set.iter().any(|(k, _)| k == key)) {
        return Err(format!("error: can not both modify and remove {} {noun} in the same command", article(noun)));
    }
    Ok((resources, changes))
}

fn article(noun: &str) -> &'static str {
    if noun.starts_with('a') { "an" } else { "a" }
}

/// The objects named, or selected by `-l` / `--all` among the types named.
pub fn select_targets(
    ctx: &Context<'_>,
    args: &Args,
    resources: &[String],
) -> Result<Vec<(Kind, String, String)>, String> {
    if resources.is_empty() {
        return Err("error: one or more resources must be specified as <resource> <name> or <resource>/<name>".into());
    }
    let namespace = namespace_of(args);
    let request = resource_args::parse(ctx.sim.store(), resources)?;
    if !request.named.is_empty() {
        return Ok(request.named.into_iter().map(|(kind, name)| (kind, namespace.clone(), name)).collect());
    }
    if !args.has("selector") && !args.switch("all") {
        return Err("error: resource(s) were provided, but no name was specified".into());
    }
    let labels = Selector::parse(args.get("selector").unwrap_or("")).map_err(|e| format!("error: {e}"))?;
    let scope = (!args.switch("all-namespaces")).then_some(namespace.as_str());
    let mut found = Vec::new();
    for kind in request.kinds {
        for object in ctx.sim.store().list_objects(kind, scope, &labels, &FieldSelector::everything()) {
            let meta = object.metadata();
            found.push((kind, meta.namespace.clone(), meta.name.clone()));
        }
    }
    Ok(found)
}

/// Runs `label` or `annotate`: every target is changed and written back (or, on a client dry
/// run, only printed); errors are reported together after the objects that worked.
pub fn update_metadata(ctx: &mut Context<'_>, args: &Args, update: &MapUpdate) -> Output {
    let prepared = print_flags::parse(args).and_then(|flags| {
        let (resources, changes) = split_arguments(&args.positionals, update.noun)?;
        if changes.set.is_empty() && changes.remove.is_empty() {
            return Err(format!("error: at least one {} update is required", update.noun));
        }
        let targets = select_targets(ctx, args, &resources)?;
        Ok((flags, changes, targets))
    });
    let ((dry_run, printer), changes, targets) = match prepared {
        Ok(prepared) => prepared,
        Err(message) => return Output::failed(message),
    };
    let overwrite = args.switch("overwrite");
    let mut out = Output::default();
    let mut errors = Vec::new();
    for (kind, namespace, name) in targets {
        match update_one(ctx, (kind, &namespace, &name), update, &changes, (overwrite, dry_run), &mut out) {
            Ok((object, operation)) => print_flags::print(&mut out, printer, dry_run, &object, operation),
            Err(message) => errors.push(message),
        }
    }
    for message in errors {
        out.error(message);
    }
    out
}

fn update_one(
    ctx: &mut Context<'_>,
    (kind, namespace, name): (Kind, &str, &str),
    update: &MapUpdate,
    changes: &Changes,
    (overwrite, dry_run): (bool, DryRun),
    out: &mut Output,
) -> Result<(serde_json::Value, &'static str), String> {
    let mut object = ctx.sim.store().get_object(kind, namespace, name).map_err(|e| e.to_string())?;
    let before = object.to_json_value().to_string();
    let map = (update.map)(object.metadata_mut());
    if update.reports_missing && dry_run == DryRun::None {
        for key in changes.remove.iter().filter(|k| !map.contains_key(k)) {
            out.line(format!("{} {key:?} not found.", update.noun));
        }
    }
    if !overwrite {
        (update.check_overwrite)(map, &changes.set).map_err(|e| format!("error: {e}"))?;
    }
    for (key, value) in &changes.set {
        map.insert(key.clone(), value.clone());
    }
    for key in &changes.remove {
        map.remove(key);
    }
    let after = object.to_json_value();
    let operation = (update.message)(&before, &after.to_string(), overwrite);
    if dry_run == DryRun::Client {
        return Ok((after, operation));
    }
    let written = match dry_run {
        DryRun::Server => ctx.api().dry_run(true).update(object),
        _ => ctx.api().update(object),
    };
    written.map(|o| (o.to_json_value(), operation)).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use crate::kubectl::create::tests::kubectl;
    use crate::sim::Sim;

    #[test]
    fn labels_are_added_overwritten_and_removed() {
        let mut sim = Sim::default();
        kubectl(&mut sim, "run web --image=nginx");
        let (text, _) = kubectl(&mut sim, "label pod web tier=fe");
        assert_eq!(text, "pod/web labeled\n");
        let (text, code) = kubectl(&mut sim, "label pod web run=other");
        assert_eq!((text.as_str(), code), ("error: 'run' already has a value (web), and --overwrite is false\n", 1));
        let (text, _) = kubectl(&mut sim, "label pods web run=other --overwrite");
        assert_eq!(text, "pod/web labeled\n");
        let (text, _) = kubectl(&mut sim, "label po/web tier-");
        assert_eq!(text, "pod/web unlabeled\n");
        let (text, _) = kubectl(&mut sim, "label pod web tier-");
        assert_eq!(text, "label \"tier\" not found.\npod/web not labeled\n");
        let (text, _) = kubectl(&mut sim, "label pods --all env=dev");
        assert_eq!(text, "pod/web labeled\n");
        let (text, _) = kubectl(&mut sim, "label pods -l env=dev env=prod --overwrite --dry-run=client");
        assert_eq!(text, "pod/web labeled (dry run)\n");
        let pod = sim.store().get::<crate::api::Pod>("default", "web").unwrap();
        assert_eq!(pod.metadata.labels.to_selector_string(), "env=dev,run=other");
    }

    #[test]
    fn label_arguments_are_checked() {
        let mut sim = Sim::default();
        let (text, _) = kubectl(&mut sim, "label pod web");
        assert_eq!(text, "error: at least one label update is required\n");
        let (text, _) = kubectl(&mut sim, "label pod web a=1 a-");
        assert_eq!(text, "error: can not both modify and remove a label in the same command\n");
        let (text, _) = kubectl(&mut sim, "label pods a=1");
        assert_eq!(text, "error: resource(s) were provided, but no name was specified\n");
        let (text, _) = kubectl(&mut sim, "label pod nope a=1");
        assert_eq!(text, "Error from server (NotFound): pods \"nope\" not found\n");
    }
}
