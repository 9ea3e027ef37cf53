//! `configMapGenerator` and `secretGenerator` (api/internal/generators, api/kv): ConfigMaps and
//! Secrets made from literals, files and env files, with `generatorOptions` merged into each
//! one's `options`, and `behavior: merge|replace` folding an overlay's generator into the
//! base's object (resWrangler.appendReplaceOrMerge).

use super::kustomization::{GeneratorArgs, GeneratorOptions, Kustomization};
use super::resources::{join, read_text, within_root};
use super::{FileSystem, Resource};
use crate::api::secret::base64_encode;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// Runs the kustomization's generators (ConfigMaps first, then Secrets) into `resources`.
pub fn run(files: &dyn FileSystem, dir: &str, k: &Kustomization, resources: &mut Vec<Resource>) -> Result<(), String> {
    let global = k.generator_options.as_ref();
    for args in &k.config_map_generator {
        let options = merge_options(args.options.as_ref(), global);
        let resource = make(files, dir, "ConfigMap", args, &options)?;
        absorb(resources, resource, &args.behavior)?;
    }
    for args in &k.secret_generator {
        let options = merge_options(args.options.as_ref(), global);
        let resource = make(files, dir, "Secret", args, &options)?;
        absorb(resources, resource, &args.behavior)?;
    }
    Ok(())
}

/// types.MergeGlobalOptionsIntoLocal: the generator's own labels, annotations and switches win.
fn merge_options(local: Option<&GeneratorOptions>, global: Option<&GeneratorOptions>) -> GeneratorOptions {
    let mut merged = global.cloned().unwrap_or_default();
    if let Some(local) = local {
        merged.labels.extend(local.labels.clone());
        merged.annotations.extend(local.annotations.clone());
        if local.disable_name_suffix_hash.is_some() {
            merged.disable_name_suffix_hash = local.disable_name_suffix_hash;
        }
        merged.immutable |= local.immutable;
    }
    merged
}

/// generators.MakeConfigMap / MakeSecret.
fn make(
    files: &dyn FileSystem,
    dir: &str,
    kind: &str,
    args: &GeneratorArgs,
    options: &GeneratorOptions,
) -> Result<Resource, String> {
    if args.name.is_empty() {
        return Err("a configmap must have a name".into());
    }
    let pairs = load_pairs(files, dir, args).map_err(|e| format!("loading KV pairs: {e}"))?;
    let mut data = Map::new();
    for (key, value) in pairs {
        validate_key(&key)?;
        if data.contains_key(&key) {
            return Err(format!("configmap {} illegally repeats the key `{key}`", args.name));
        }
        let value = if kind == "Secret" { wrapped_base64(&value) } else { value };
        data.insert(key, json!(value));
    }
    let mut metadata = json!({"name": args.name});
    if !args.namespace.is_empty() {
        metadata["namespace"] = json!(args.namespace);
    }
    if !options.labels.is_empty() {
        metadata["labels"] = json!(options.labels);
    }
    if !options.annotations.is_empty() {
        metadata["annotations"] = json!(options.annotations);
    }
    let mut object = json!({"apiVersion": "v1", "kind": kind, "metadata": metadata});
    if kind == "Secret" {
        object["type"] = json!(if args.type_.is_empty() { "Opaque" } else { &args.type_ });
    }
    if !data.is_empty() {
        object["data"] = Value::Object(data);
    }
    if options.immutable {
        object["immutable"] = json!(true);
    }
    let mut resource = Resource::new(object);
    resource.needs_hash = options.disable_name_suffix_hash != Some(true);
    Ok(resource)
}

/// kyaml datamap.go `encodeBase64`: a Secret's value in lines of 70 characters, each ended by
/// a newline once there is more than one (so `kubectl kustomize` prints a long one as a block).
fn wrapped_base64(value: &str) -> String {
    const LINE: usize = 70;
    let encoded = base64_encode(value.as_bytes());
    if encoded.len() < LINE {
        return encoded;
    }
    let mut out = String::with_capacity(encoded.len() + encoded.len() / LINE + 1);
    for chunk in encoded.as_bytes().chunks(LINE) {
        out.push_str(std::str::from_utf8(chunk).unwrap_or_default());
        out.push('\n');
    }
    out
}

/// kv.go `Load`: env files, then literals, then files — in that order.
fn load_pairs(files: &dyn FileSystem, dir: &str, args: &GeneratorArgs) -> Result<Vec<(String, String)>, String> {
    let mut pairs = Vec::new();
    for env in &args.envs {
        let path = join(dir, env);
        let text = within_root(dir, &path)
            .and_then(|()| read_text(files, &path))
            .map_err(|e| format!("env source files: [{}]: {e}", args.envs.join(" ")))?;
        pairs.extend(env_file_pairs(&text)?);
    }
    for literal in &args.literals {
        pairs.push(literal_pair(literal).map_err(|e| format!("literal sources [{}]: {e}", args.literals.join(" ")))?);
    }
    for source in &args.files {
        let (key, path) = file_source(source).map_err(|e| format!("file sources: [{}]: {e}", args.files.join(" ")))?;
        let path = join(dir, &path);
        let text = within_root(dir, &path)
            .and_then(|()| read_text(files, &path))
            .map_err(|e| format!("file sources: [{}]: {e}", args.files.join(" ")))?;
        pairs.push((key, text));
    }
    Ok(pairs)
}

/// kv.go `parseLiteralSource`: `key=value`, one pair of matching surrounding quotes removed.
fn literal_pair(source: &str) -> Result<(String, String), String> {
    let invalid = || format!("invalid literal source {source}, expected key=value");
    let (key, value) = source.split_once('=').ok_or_else(invalid)?;
    if key.is_empty() {
        return Err(invalid());
    }
    let bytes = value.as_bytes();
    let quoted = bytes.len() >= 2 && bytes[0] == bytes[bytes.len() - 1] && (bytes[0] == b'"' || bytes[0] == b'\'');
    let value = if quoted { &value[1..value.len() - 1] } else { value };
    Ok((key.to_string(), value.to_string()))
}

/// generators.ParseFileSource: `path` (its base name is the key) or `key=path`.
fn file_source(source: &str) -> Result<(String, String), String> {
    match source.matches('=').count() {
        0 => Ok((source.rsplit('/').next().unwrap_or(source).to_string(), source.to_string())),
        1 if source.starts_with('=') => {
            Err(format!("missing key name for file path {:?} in source {source:?}", source.trim_start_matches('=')))
        }
        1 if source.ends_with('=') => {
            Err(format!("missing file path for key name {:?} in source {source:?}", source.trim_end_matches('=')))
        }
        1 => {
            let (key, path) = source.split_once('=').unwrap_or_default();
            Ok((key.to_string(), path.to_string()))
        }
        _ => Err(format!("source {source:?} key name or file path contains '='")),
    }
}

/// kv.go `keyValuesFromLines`: `KEY=value` lines; blank lines and `#` comments skipped, a line
/// without `=` is the key with an empty value.
fn env_file_pairs(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut pairs = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = if number == 0 { line.trim_start_matches('\u{feff}') } else { line };
        let line = line.trim_start();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once('=').unwrap_or((line, ""));
        if !is_env_var_name(key) {
            return Err(format!(
                "\"{key}\" is not a valid environment variable name: a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit"
            ));
        }
        pairs.push((key.to_string(), value.to_string()));
    }
    Ok(pairs)
}

fn is_env_var_name(key: &str) -> bool {
    !key.is_empty()
        && !key.starts_with(|c: char| c.is_ascii_digit())
        && key.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// validation.IsConfigMapKey: alphanumerics, `-`, `_` and `.`.
fn validate_key(key: &str) -> Result<(), String> {
    let legal = !key.is_empty()
        && key.len() <= 253
        && key != "."
        && key != ".."
        && !key.starts_with("..")
        && key.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if legal {
        return Ok(());
    }
    Err(format!(
        "\"{key}\" is not a valid key name: a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"
    ))
}

/// resWrangler.appendReplaceOrMerge: `create` adds; `merge` and `replace` take over the object
/// that already answers to the generator's name (a base's, renamed or not).
fn absorb(resources: &mut Vec<Resource>, mut generated: Resource, behavior: &str) -> Result<(), String> {
    let name = generated.name().to_string();
    let kind = generated.kind().to_string();
    let existing = resources.iter().position(|r| r.kind() == kind && r.answers_to(&name));
    let behavior = if behavior.is_empty() { "create" } else { behavior };
    let id = format!(
        "resid.ResId{{Gvk:resid.Gvk{{Group:\"\", Version:\"v1\", Kind:\"{kind}\", isClusterScoped:false}}, Name:\"{name}\", Namespace:\"{}\"}}",
        generated.namespace()
    );
    match (existing, behavior) {
        (None, "create") => resources.push(generated),
        (None, "merge" | "replace") => return Err(format!("id {id} does not exist; cannot merge or replace")),
        (Some(at), "merge" | "replace") => {
            let old = &resources[at];
            copy_metadata(&mut generated, old);
            if behavior == "merge" {
                merge_data(&mut generated, old);
            }
            resources[at] = generated;
        }
        (Some(_), "create") => {
            return Err(format!("id {id} exists; can not use behavior: 'create', behavior must be merge or replace"));
        }
        (_, other) => return Err(format!("unknown generator behavior '{other}'")),
    }
    Ok(())
}

/// resource.CopyMergeMetaDataFieldsFrom: the old labels and annotations under the new ones,
/// the old name (with its history) and namespace.
fn copy_metadata(new: &mut Resource, old: &Resource) {
    for field in ["labels", "annotations"] {
        let mut merged: BTreeMap<String, Value> = string_map(&old.object, field);
        merged.extend(string_map(&new.object, field));
        if !merged.is_empty() {
            new.object["metadata"][field] = json!(merged);
        }
    }
    new.object["metadata"]["name"] = json!(old.name());
    new.previous_names = old.previous_names.clone();
    match old.object.pointer("/metadata/namespace") {
        Some(namespace) => new.object["metadata"]["namespace"] = namespace.clone(),
        None => {
            if let Some(metadata) = new.object["metadata"].as_object_mut() {
                metadata.remove("namespace");
            }
        }
    }
}

/// resource.MergeDataMapFrom: the old data under the new.
fn merge_data(new: &mut Resource, old: &Resource) {
    for field in ["data", "binaryData"] {
        let mut merged: BTreeMap<String, Value> = BTreeMap::new();
        if let Some(Value::Object(map)) = old.object.get(field) {
            merged.extend(map.clone());
        }
        if let Some(Value::Object(map)) = new.object.get(field) {
            merged.extend(map.clone());
        }
        if !merged.is_empty() {
            new.object[field] = json!(merged);
        }
    }
}

fn string_map(object: &Value, field: &str) -> BTreeMap<String, Value> {
    let map = object.pointer(&format!("/metadata/{field}")).and_then(Value::as_object);
    map.map(|m| m.clone().into_iter().collect()).unwrap_or_default()
}
