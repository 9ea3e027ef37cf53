//! `kubectl apply -f FILE|DIR|-`: create, or three-way merge into what is live, remembering
//! what was applied in the `kubectl.kubernetes.io/last-applied-configuration` annotation.
//! Mirrors kubectl's apply (staging/src/k8s.io/kubectl/pkg/cmd/apply) with a JSON three-way
//! merge standing in for strategic merge (lists are replaced whole).

use super::args::{Args, Flag};
use super::output::Output;
use super::resource_args::{Source, read_filenames};
use super::{Context, Verb, kustomize, server_side_apply};
use crate::api::codec::{self, DecodeError};
use crate::api::{Object, Resource};
use crate::error::ApiError;
use serde_json::{Map, Value};

pub const VERB: Verb = Verb {
    name: "apply",
    short: "Apply a configuration to a resource by file name or stdin",
    usage: "kubectl apply (-f FILENAME | -k DIRECTORY) [options]",
    flags: &[
        Flag::repeated("filename", Some('f'), "The files that contain the configurations to apply."),
        Flag::value(
            "kustomize",
            Some('k'),
            "Process a kustomization directory. This flag can't be used together with -f or -R.",
        ),
        super::print_flags::DRY_RUN,
        server_side_apply::SERVER_SIDE,
        server_side_apply::FORCE_CONFLICTS,
    ],
    run,
};

pub const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let filenames = args.all("filename").to_vec();
    let mut out = Output::default();
    let sources = match (filenames.is_empty(), args.get("kustomize")) {
        (true, None) => return Output::failed("error: must specify one of -f and -k"),
        (false, Some(_)) => return Output::failed("error: only one of -f or -k can be specified"),
        (true, Some(dir)) => {
            let built = kustomize::build_with_warnings(ctx.files, dir);
            // kustomize prints its deprecation notices while it reads the kustomization.
            if let Ok(build) = &built {
                build.warnings.iter().for_each(|w| out.warn(w.clone()));
            }
            vec![Source { name: dir.to_string(), documents: built.map(|b| b.objects) }]
        }
        (false, None) => read_filenames(ctx, &filenames),
    };
    let namespace = args.get("namespace").map(str::to_string);
    let dry_run = match super::print_flags::parse(&args) {
        Ok((dry_run, _)) => dry_run,
        Err(message) => return Output::failed(message),
    };
    let server_side = match server_side_apply::mode(&args) {
        Ok(mode) => mode,
        Err(message) => return Output::failed(message),
    };
    let notices = out.items.len();
    for source in sources {
        let documents = match source.documents {
            Ok(documents) => documents,
            Err(message) => {
                out.error(message);
                continue;
            }
        };
        for document in documents {
            match apply_one(ctx, &source.name, document, (namespace.as_deref(), server_side), dry_run) {
                Ok(line) => out.line(format!("{line}{}", dry_run.suffix())),
                Err(message) => out.error(message),
            }
            // kubectl sends one request per object, and the controllers see each before the
            // next arrives (as they see the same requests from the real kubectl).
            ctx.sim.settle();
        }
    }
    if out.items.len() == notices {
        out.error("error: no objects passed to apply");
    }
    out
}

/// Applies one document; returns `deployment.apps/hello created|configured|unchanged`.
fn apply_one(
    ctx: &mut Context<'_>,
    source: &str,
    mut document: Value,
    (namespace, server_side): (Option<&str>, Option<bool>),
    dry_run: super::print_flags::DryRun,
) -> Result<String, String> {
    let kind = codec::kind_of(&document).map_err(|e| type_error(&e, source, &document))?;
    super::resource_args::mapping(ctx.sim.store(), kind, &document, source)?;
    let info = kind.info();
    set_namespace(&mut document, info.namespaced, namespace)?;
    let name = document.pointer("/metadata/name").and_then(Value::as_str).unwrap_or("").to_string();
    let ns = document.pointer("/metadata/namespace").and_then(Value::as_str).unwrap_or("").to_string();
    let label = format!("{}/{name}", info.singular_qualified());
    let client_only = dry_run == super::print_flags::DryRun::Client;
    let api = &mut ctx.api().dry_run(dry_run == super::print_flags::DryRun::Server);
    if let Some(force) = server_side {
        if client_only {
            return Ok(format!("{label} serverside-applied"));
        }
        return server_side_apply::apply(api, (kind, &ns, &name), document, force);
    }
    set_last_applied(&mut document);
    // kubectl fetches the live object through the API: absent, it creates; present, it patches.
    match api.get(kind, &ns, &name) {
        Err(_) if client_only => Ok(format!("{label} created")),
        Ok(_) if client_only => Ok(format!("{label} configured")),
        Err(_) => {
            let object = codec::decode(document).map_err(|e| decode_error(&e, "creating", source))?;
            api.create(object).map(|_| format!("{label} created")).map_err(|e| api_error(&e, "creating", source))
        }
        Ok(live) => patch_live(api, live, document, source)
            .map(|changed| if changed { format!("{label} configured") } else { format!("{label} unchanged") }),
    }
}

fn patch_live(
    api: &mut crate::apiserver::Client<'_>,
    live: Object,
    modified: Value,
    source: &str,
) -> Result<bool, String> {
    let before = live.metadata().resource_version;
    let current = live.to_json_value();
    let original: Option<Value> =
        live.metadata().annotations.get(LAST_APPLIED).and_then(|text| serde_json::from_str(text).ok());
    let patch = three_way_merge_patch(original.as_ref(), &modified, &current);
    let mut patched = current;
    json_patch::merge(&mut patched, &patch);
    let object = codec::decode(patched).map_err(|e| decode_error(&e, "patching", source))?;
    let updated = api.update(object).map_err(|e| api_error(&e, "patching", source))?;
    Ok(updated.metadata().resource_version != before)
}

/// Upstream's three-way patch: every value `modified` sets that differs from `current`, plus
/// a null (delete) for every key `original` had that `modified` dropped.
pub fn three_way_merge_patch(original: Option<&Value>, modified: &Value, current: &Value) -> Value {
    let mut patch = changes(current, modified);
    if let Some(original) = original {
        merge_deletions(&mut patch, original, modified);
    }
    patch
}

fn changes(current: &Value, modified: &Value) -> Value {
    let (Value::Object(cur), Value::Object(m)) = (current, modified) else {
        return modified.clone();
    };
    let mut patch = Map::new();
    for (key, value) in m {
        match cur.get(key) {
            Some(existing) if existing == value => {}
            Some(existing) if existing.is_object() && value.is_object() => {
                patch.insert(key.clone(), changes(existing, value));
            }
            _ => {
                patch.insert(key.clone(), value.clone());
            }
        }
    }
    Value::Object(patch)
}

fn merge_deletions(patch: &mut Value, original: &Value, modified: &Value) {
    let (Value::Object(orig), Value::Object(m)) = (original, modified) else { return };
    let Value::Object(patch_map) = patch else { return };
    for (key, old_value) in orig {
        match m.get(key) {
            None => {
                patch_map.insert(key.clone(), Value::Null);
            }
            Some(new_value) if old_value.is_object() && new_value.is_object() => {
                let entry = patch_map.entry(key.clone()).or_insert_with(|| Value::Object(Map::new()));
                if entry.is_object() {
                    merge_deletions(entry, old_value, new_value);
                }
            }
            Some(_) => {}
        }
    }
}

pub(crate) fn set_namespace(document: &mut Value, namespaced: bool, namespace: Option<&str>) -> Result<(), String> {
    let Some(meta) = document.get_mut("metadata").and_then(Value::as_object_mut) else {
        if let Some(map) = document.as_object_mut() {
            map.insert("metadata".into(), Value::Object(Map::new()));
            return set_namespace(document, namespaced, namespace);
        }
        return Ok(());
    };
    if !namespaced {
        meta.remove("namespace");
        return Ok(());
    }
    let in_file = meta.get("namespace").and_then(Value::as_str).filter(|n| !n.is_empty()).map(str::to_string);
    match (in_file, namespace) {
        (Some(file_ns), Some(flag_ns)) if file_ns != flag_ns => Err(format!(
            "error: the namespace from the provided object \"{file_ns}\" does not match the namespace \"{flag_ns}\". You must pass '--namespace={file_ns}' to perform this operation."
        )),
        (Some(_), _) => Ok(()),
        (None, flag_ns) => {
            meta.insert("namespace".into(), Value::String(flag_ns.unwrap_or("default").to_string()));
            Ok(())
        }
    }
}

/// Records the manifest itself (without this annotation) as the last-applied configuration.
fn set_last_applied(document: &mut Value) {
    let mut recorded = document.clone();
    if let Some(annotations) = recorded.pointer_mut("/metadata/annotations").and_then(Value::as_object_mut) {
        annotations.remove(LAST_APPLIED);
    } else if let Some(meta) = recorded.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.insert("annotations".into(), Value::Object(Map::new()));
    }
    let text = format!("{}\n", serde_json::to_string(&recorded).unwrap_or_default());
    if let Some(meta) = document.get_mut("metadata").and_then(Value::as_object_mut) {
        let annotations = meta.entry("annotations").or_insert_with(|| Value::Object(Map::new()));
        if let Some(map) = annotations.as_object_mut() {
            map.insert(LAST_APPLIED.into(), Value::String(text));
        }
    }
}

pub(crate) fn type_error(err: &DecodeError, source: &str, document: &Value) -> String {
    match err {
        DecodeError::NoKindMatch { .. } => {
            let name = document.pointer("/metadata/name").and_then(Value::as_str).unwrap_or("");
            let ns = document.pointer("/metadata/namespace").and_then(Value::as_str).unwrap_or("");
            format!(
                "error: resource mapping not found for name: \"{name}\" namespace: \"{ns}\" from \"{source}\": {err}\nensure CRDs are installed first"
            )
        }
        _ => format!(
            "error: error validating \"{source}\": {err}; if you choose to ignore these errors, turn validation off with --validate=false"
        ),
    }
}

pub(crate) fn decode_error(err: &DecodeError, action: &str, source: &str) -> String {
    format!("Error from server (BadRequest): error when {action} \"{source}\": {err}")
}

/// Invalid objects print bare, as kubectl does; other refusals name the file.
pub fn api_error(err: &ApiError, action: &str, source: &str) -> String {
    match err {
        ApiError::Invalid { .. } => err.to_string(),
        ApiError::PolicyDenied(d) if matches!(d.reason, "Invalid" | "Unauthorized") => err.to_string(),
        _ => format!("Error from server ({}): error when {action} \"{source}\": {}", err.reason(), err.message()),
    }
}

/// The last-applied configuration of a live object, if it was applied.
pub fn last_applied<T: Resource>(object: &T) -> Option<&str> {
    object.metadata().annotations.get(LAST_APPLIED)
}
