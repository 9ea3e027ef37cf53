//! `kubectl create configmap NAME [--from-literal=k=v] [--from-file=[k=]PATH]`. Mirrors
//! staging/src/k8s.io/kubectl/pkg/cmd/create/create_configmap.go and util/hash's key rules.

use super::{generated_metadata, one_name};
use crate::kubectl::args::{Args, Flag};
use crate::kubectl::output::Output;
use crate::kubectl::print_flags::Refusal;
use crate::kubectl::print_flags::{self, DRY_RUN, OUTPUT};
use crate::kubectl::{Context, Verb};
use serde_json::{Map, Value, json};

pub const VERB: Verb = Verb {
    name: "create configmap",
    short: "Create a config map from a local file, directory or literal value",
    usage: "kubectl create configmap NAME [--from-file=[key=]source] [--from-literal=key1=value1] [--from-env-file=source] [--dry-run=server|client|none] [options]",
    flags: &[
        Flag::repeated(
            "from-literal",
            None,
            "Specify a key and literal value to insert in configmap (i.e. mykey=somevalue)",
        ),
        Flag::repeated(
            "from-file",
            None,
            "Key file can be specified using its file path, in which case file basename will be used as configmap key, or optionally with a key and file path, in which case the given key will be used.",
        ),
        Flag::repeated(
            "from-env-file",
            None,
            "Specify the path to a file to read lines of key=val pairs to create a configmap.",
        ),
        DRY_RUN,
        OUTPUT,
    ],
    run,
};

/// One `key=value` or file read into the object's data, in flag order (files, literals, then
/// env files, as upstream).
pub fn sources(ctx: &Context<'_>, args: &Args) -> Result<Vec<(String, String)>, String> {
    let env_files = args.all("from-env-file");
    if !env_files.is_empty() && (args.has("from-file") || args.has("from-literal")) {
        return Err("error: from-env-file cannot be combined with from-file or from-literal".to_string());
    }
    let mut entries = super::env_file::read_all(ctx, env_files)?;
    for source in args.all("from-file") {
        let (key, path) = match source.split_once('=') {
            Some((key, path)) => (Some(key.to_string()), path),
            None => (None, source.as_str()),
        };
        if let (None, Some(listed)) = (&key, ctx.files.list_dir(path)) {
            for file in listed {
                let text = ctx.files.read_file(&file).map_err(|e| format!("error: {e}"))?;
                entries.push((base_name(&file), text));
            }
            continue;
        }
        let text =
            ctx.files.read_file(path).map_err(|_| format!("error: error reading {path}: no such file or directory"))?;
        entries.push((key.unwrap_or_else(|| base_name(path)), text));
    }
    for literal in args.all("from-literal") {
        match literal.split_once('=') {
            Some((key, value)) if !key.is_empty() => entries.push((key.to_string(), value.to_string())),
            _ => return Err(format!("error: invalid literal source {literal}, expected key=value")),
        }
    }
    Ok(entries)
}

fn base_name(path: &str) -> String {
    path.rsplit('/').next().unwrap_or(path).to_string()
}

/// Upstream `validation.IsConfigMapKey`.
pub fn is_config_key(key: &str) -> bool {
    !key.is_empty() && key.len() <= 253 && key.chars().all(|c| c.is_ascii_alphanumeric() || "-._".contains(c))
}

pub const CONFIG_KEY_RULE: &str = "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let name = match one_name(&args, &VERB) {
        Ok(name) => name,
        Err(message) => return Output::failed(message),
    };
    let entries = match sources(ctx, &args) {
        Ok(entries) => entries,
        Err(message) => return Output::failed(message),
    };
    let mut data = Map::new();
    for (key, value) in entries {
        if !is_config_key(&key) {
            return Output::failed(format!(
                "error: {key:?} is not a valid key name for a ConfigMap: {CONFIG_KEY_RULE}"
            ));
        }
        if data.contains_key(&key) {
            return Output::failed(format!(
                "error: cannot add key {key:?}, another key by that name already exists in Data for ConfigMap {name:?}"
            ));
        }
        data.insert(key, Value::String(value));
    }
    let mut config_map =
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": generated_metadata(&args, &name, None)});
    if !data.is_empty() {
        config_map["data"] = Value::Object(data);
    }
    print_flags::create(ctx, &args, config_map, Refusal::Prefixed("failed to create configmap: "))
}

#[cfg(test)]
mod tests {
    use crate::kubectl::create::tests::kubectl;
    use crate::sim::Sim;

    #[test]
    fn literals_become_data_and_bad_ones_are_refused() {
        let mut sim = Sim::default();
        let (text, _) =
            kubectl(&mut sim, "create configmap cfg --from-literal=a=1 --from-literal=b=two --dry-run=client -o yaml");
        assert_eq!(text, "apiVersion: v1\ndata:\n  a: \"1\"\n  b: two\nkind: ConfigMap\nmetadata:\n  name: cfg\n");
        let (text, _) = kubectl(&mut sim, "create cm cfg --from-literal=a=1");
        assert_eq!(text, "configmap/cfg created\n");
        let (text, _) = kubectl(&mut sim, "create configmap c --from-literal=a");
        assert_eq!(text, "error: invalid literal source a, expected key=value\n");
        let (text, _) = kubectl(&mut sim, "create configmap c --from-literal=a=1 --from-literal=a=2");
        assert_eq!(
            text,
            "error: cannot add key \"a\", another key by that name already exists in Data for ConfigMap \"c\"\n"
        );
        let (text, _) = kubectl(&mut sim, "create configmap c --from-file=nope.txt");
        assert_eq!(text, "error: error reading nope.txt: no such file or directory\n");
    }
}
