//! `kubectl delete`: by name, by file, by label selector or `--all`, with grace periods and
//! cascading (`--cascade=background|foreground|orphan`).

use super::args::{Args, Flag};
use super::output::Output;
use super::resource_args::{self, read_filenames};
use super::{Context, Verb, namespace_of};
use crate::api::codec;
use crate::api::labels::Selector;
use crate::api::{Kind, Object};
use crate::store::{DeleteOptions, FieldSelector, PropagationPolicy};

pub const VERB: Verb = Verb {
    name: "delete",
    short: "Delete resources by file names, stdin, resources and names, or by resources and label selector",
    usage: "kubectl delete ([-f FILENAME] | TYPE [(NAME | -l label | --all)]) [options]",
    flags: &[
        Flag::repeated("filename", Some('f'), "containing the resource to delete."),
        Flag::value("selector", Some('l'), "Selector (label query) to filter on."),
        Flag::switch("all", None, "Delete all resources, in the namespace of the specified resource types."),
        Flag::switch("all-namespaces", Some('A'), "If present, list the requested object(s) across all namespaces."),
        Flag::value("grace-period", None, "Period of time in seconds given to the resource to terminate gracefully."),
        Flag::switch("now", None, "If true, resources are signaled for immediate shutdown (same as --grace-period=1)."),
        Flag::switch("force", None, "If true, immediately remove resources from API and bypass graceful deletion."),
        Flag::value("cascade", None, "Must be \"background\", \"orphan\", or \"foreground\"."),
        Flag::value("wait", None, "If true, wait for resources to be gone before returning."),
        Flag::switch("ignore-not-found", None, "Treat \"resource not found\" as a successful delete."),
    ],
    run,
};

fn options(args: &Args, out: &mut Output) -> Result<DeleteOptions, String> {
    let mut grace = match args.get("grace-period") {
        Some(text) => Some(text.parse::<i64>().map_err(|_| format!("error: invalid argument \"{text}\" for \"--grace-period\" flag: strconv.ParseInt: parsing \"{text}\": invalid syntax"))?),
        None => None,
    };
    if args.switch("now") {
        grace = Some(1);
    }
    if args.switch("force") {
        out.warn("Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.");
        grace = Some(grace.unwrap_or(0).clamp(0, 1));
    }
    let propagation_policy = match args.get("cascade").unwrap_or("background") {
        "background" | "true" => PropagationPolicy::Background,
        "foreground" => PropagationPolicy::Foreground,
        "orphan" | "false" => PropagationPolicy::Orphan,
        other => {
            return Err(format!(
                "error: invalid cascade value ({other}). Must be \"background\", \"foreground\", or \"orphan\""
            ));
        }
    };
    Ok(DeleteOptions { grace_period_seconds: grace.filter(|g| *g >= 0), propagation_policy })
}

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let mut out = Output::default();
    let options = match options(&args, &mut out) {
        Ok(o) => o,
        Err(message) => return Output::failed(message),
    };
    let targets = match targets(ctx, &args, &mut out) {
        Ok(t) => t,
        Err(message) => return Output::failed(message),
    };
    if targets.is_empty() && out.succeeded() {
        out.warn("No resources found");
    }
    let ignore_missing = args.switch("ignore-not-found");
    for (kind, namespace, name) in targets {
        match ctx.sim.store_mut().delete_object(kind, &namespace, &name, &options) {
            Ok(_) => out.line(deleted_message(kind, &namespace, &name)),
            Err(err) if ignore_missing && err.reason() == "NotFound" => {}
            Err(err) => out.error(err.to_string()),
        }
        ctx.sim.settle();
    }
    out
}

/// `pod "x" deleted from default namespace`, or `node "x" deleted` for cluster-scoped kinds.
pub fn deleted_message(kind: Kind, namespace: &str, name: &str) -> String {
    let info = kind.info();
    if info.namespaced {
        format!("{} \"{name}\" deleted from {namespace} namespace", info.singular_qualified())
    } else {
        format!("{} \"{name}\" deleted", info.singular_qualified())
    }
}

type Target = (Kind, String, String);

fn targets(ctx: &Context<'_>, args: &Args, out: &mut Output) -> Result<Vec<Target>, String> {
    let namespace = namespace_of(args);
    let filenames = args.all("filename");
    if !filenames.is_empty() {
        return Ok(targets_from_files(ctx, filenames, &namespace, out));
    }
    if args.positionals.is_empty() {
        return Err("error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'".into());
    }
    let request = resource_args::parse(&args.positionals)?;
    if !request.named.is_empty() {
        return Ok(request.named.into_iter().map(|(k, n)| (k, namespace.clone(), n)).collect());
    }
    let selector_given = args.has("selector");
    if !selector_given && !args.switch("all") {
        return Err("error: resource(s) were provided, but no name was specified".into());
    }
    let labels = Selector::parse(args.get("selector").unwrap_or("")).map_err(|e| format!("error: {e}"))?;
    let scope = (!args.switch("all-namespaces")).then_some(namespace.as_str());
    let mut found = Vec::new();
    for kind in request.kinds {
        for object in ctx.sim.store().list_objects(kind, scope, &labels, &FieldSelector::everything()) {
            found.push(target_of(&object));
        }
    }
    Ok(found)
}

fn target_of(object: &Object) -> Target {
    let meta = object.metadata();
    (object.kind(), meta.namespace.clone(), meta.name.clone())
}

fn targets_from_files(ctx: &Context<'_>, filenames: &[String], namespace: &str, out: &mut Output) -> Vec<Target> {
    let mut found = Vec::new();
    for source in read_filenames(ctx, filenames) {
        let documents = match source.documents {
            Ok(d) => d,
            Err(message) => {
                out.error(message);
                continue;
            }
        };
        for document in documents {
            match codec::kind_of(&document) {
                Ok(kind) => {
                    let name = document.pointer("/metadata/name").and_then(|v| v.as_str()).unwrap_or("").to_string();
                    let ns = document
                        .pointer("/metadata/namespace")
                        .and_then(|v| v.as_str())
                        .unwrap_or(namespace)
                        .to_string();
                    found.push((kind, ns, name));
                }
                Err(err) => out.error(format!("error: error validating \"{}\": {err}", source.name)),
            }
        }
    }
    found
}
