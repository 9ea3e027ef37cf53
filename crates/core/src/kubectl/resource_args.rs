//! Naming objects on the command line: `pods`, `pod web-1 web-2`, `deploy/hello`,
//! `deploy,rs,pods`, and `-f FILE|DIR|-` (manifests read through the lab's files).

use super::Context;
use crate::api::Kind;
use crate::manifest;
use crate::store::Store;
use serde_json::Value;

/// What the positional arguments asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourceRequest {
    pub kinds: Vec<Kind>,
    /// (kind, name) pairs when names were given.
    pub named: Vec<(Kind, String)>,
}

pub fn unknown_type(name: &str) -> String {
    format!("error: the server doesn't have a resource type \"{name}\"")
}

/// The kind a command line names, if the server serves it (a custom resource only while its
/// CRD is installed: kubectl's discovery would not list it otherwise).
pub fn kind_of(store: &Store, name: &str) -> Result<Kind, String> {
    Kind::from_cli_name(name).filter(|kind| store.serves(*kind)).ok_or_else(|| unknown_type(name))
}

/// The kinds one word of `TYPE[,TYPE…]` names: a resource type, or a category its discovery
/// lists (`all`, `api-extensions`, a CRD's own such as `gateway-api`), expanded as kubectl's
/// category expander does. A category of no served kind is an unknown type.
fn kinds_named(store: &Store, name: &str) -> Result<Vec<Kind>, String> {
    match kind_of(store, name) {
        Ok(kind) => Ok(vec![kind]),
        Err(unknown) => {
            let kinds = crate::apiserver::rest::discovery::category_kinds(store, name);
            if kinds.is_empty() { Err(unknown) } else { Ok(kinds) }
        }
    }
}

/// kubectl's REST mapping of a manifest's kind: refused when the server does not serve it.
pub fn mapping(store: &Store, kind: Kind, document: &Value, source: &str) -> Result<(), String> {
    if store.serves(kind) {
        return Ok(());
    }
    let meta = &document["metadata"];
    let (name, namespace) = (meta["name"].as_str().unwrap_or(""), meta["namespace"].as_str().unwrap_or(""));
    let info = kind.info();
    Err(format!(
        "error: resource mapping not found for name: {name:?} namespace: {namespace:?} from {source:?}: no matches for kind {:?} in version {:?}\nensure CRDs are installed first",
        info.kind_name,
        info.api_version()
    ))
}

/// Parses `TYPE[,TYPE…] [NAME…]` or `TYPE/NAME …`.
pub fn parse(store: &Store, positionals: &[String]) -> Result<ResourceRequest, String> {
    let Some(first) = positionals.first() else {
        return Err("error: you must specify the type of resource to get. Use \"kubectl api-resources\" for a complete list of supported resources.".into());
    };
    if first.contains('/') {
        let mut named = Vec::new();
        for arg in positionals {
            let (type_, name) = arg.split_once('/').ok_or_else(|| {
                "error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'".to_string()
            })?;
            named.push((kind_of(store, type_)?, name.to_string()));
        }
        let kinds = dedup(named.iter().map(|(k, _)| *k));
        return Ok(ResourceRequest { kinds, named });
    }
    let mut kinds = Vec::new();
    for type_ in first.split(',').filter(|s| !s.is_empty()) {
        kinds.extend(kinds_named(store, type_)?);
    }
    let kinds = dedup(kinds.into_iter());
    if kinds.is_empty() {
        // Only commas (`,`): kubectl splits them into the empty type, which maps to nothing.
        return Err(unknown_type(""));
    }
    let names = &positionals[1..];
    if !names.is_empty() && kinds.len() > 1 {
        return Err("error: arguments in resource/name form must have a single resource and name".into());
    }
    let named = names.iter().map(|n| (kinds[0], n.clone())).collect();
    Ok(ResourceRequest { kinds, named })
}

/// The objects `TYPE NAME…`, `TYPE/NAME…` or `TYPE` (every object of that kind in the
/// namespace) name, as the verbs that act on existing objects resolve them.
pub fn targets(ctx: &Context<'_>, positionals: &[String], namespace: &str) -> Result<Vec<(Kind, String)>, String> {
    let store = ctx.sim.store();
    let request = parse(store, positionals)?;
    if !request.named.is_empty() {
        return Ok(request.named);
    }
    let everything = crate::api::labels::Selector::everything();
    let fields = crate::store::FieldSelector::everything();
    let mut found = Vec::new();
    for kind in request.kinds {
        for object in store.list_objects(kind, Some(namespace), &everything, &fields) {
            found.push((kind, object.metadata().name.clone()));
        }
    }
    Ok(found)
}

fn dedup(kinds: impl Iterator<Item = Kind>) -> Vec<Kind> {
    let mut out: Vec<Kind> = Vec::new();
    for kind in kinds {
        if !out.contains(&kind) {
            out.push(kind);
        }
    }
    out
}

/// One source given with `-f`: its name as kubectl shows it in errors, and its documents.
pub struct Source {
    pub name: String,
    pub documents: Result<Vec<Value>, String>,
}

/// Reads every `-f` argument: a file, a folder (its .yaml/.yml/.json files), or `-` (stdin).
pub fn read_filenames(ctx: &Context<'_>, filenames: &[String]) -> Vec<Source> {
    let mut sources = Vec::new();
    for filename in filenames {
        if filename == "-" {
            let text = ctx.stdin.unwrap_or("");
            sources.push(parse_source("STDIN", text));
            continue;
        }
        if let Some(entries) = ctx.files.list_dir(filename) {
            let manifests = entries.into_iter().filter(|e| [".yaml", ".yml", ".json"].iter().any(|x| e.ends_with(x)));
            for entry in manifests {
                sources.push(read_one(ctx, &entry));
            }
            continue;
        }
        sources.push(read_one(ctx, filename));
    }
    sources
}

fn read_one(ctx: &Context<'_>, path: &str) -> Source {
    match ctx.files.read_file(path) {
        Ok(text) => parse_source(path, &text),
        Err(message) => Source { name: path.to_string(), documents: Err(format!("error: {message}")) },
    }
}

fn parse_source(name: &str, text: &str) -> Source {
    let documents = manifest::parse_documents(text)
        .map(manifest::expand_lists)
        .map_err(|e| format!("error: error parsing {name}: {e}"));
    Source { name: name.to_string(), documents }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(args: &[&str]) -> Vec<String> {
        args.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn resource_arguments_in_each_form() {
        let store = Store::new(1);
        let parse = |args: &[String]| parse(&store, args);
        let req = parse(&strings(&["deploy,rs,pods"])).unwrap();
        assert_eq!(req.kinds, [Kind::Deployment, Kind::ReplicaSet, Kind::Pod]);
        let req = parse(&strings(&["po", "a", "b"])).unwrap();
        assert_eq!(req.named, [(Kind::Pod, "a".to_string()), (Kind::Pod, "b".to_string())]);
        let req = parse(&strings(&["deploy/hello", "svc/hello"])).unwrap();
        assert_eq!(req.kinds, [Kind::Deployment, Kind::Service]);
        assert_eq!(parse(&strings(&["pdo"])).unwrap_err(), "error: the server doesn't have a resource type \"pdo\"");
        // A custom resource is a type only once its CRD is installed.
        assert_eq!(parse(&strings(&["pg"])).unwrap_err(), "error: the server doesn't have a resource type \"pg\"");
    }

    #[test]
    fn a_type_of_only_commas_is_refused_not_a_panic() {
        // Found by fuzzing (kubectl_args, sim_script): no kind left, then a name took kinds[0].
        let line = "get \t\t\t\t\t,\t\t\t\u{FFFD}\u{FFFD}\t\t";
        let mut sim = crate::sim::Sim::default();
        let files = crate::kubectl::MemoryFiles::new();
        let mut ctx = Context { sim: &mut sim, files: &files, stdin: None };
        let output = crate::kubectl::run(&mut ctx, &crate::script::words::split(line).unwrap());
        assert_eq!(output.render(), "error: the server doesn't have a resource type \"\"\n");
        assert_eq!(output.exit_code, 1);
        let store = Store::new(1);
        for args in [&[","][..], &[",,", "web"], &[",", "replace,", "patch,"]] {
            assert_eq!(parse(&store, &strings(args)).unwrap_err(), unknown_type(""), "{args:?}");
        }
    }
}
