//! `kubectl create -f FILE|-` (create only: an existing object is an AlreadyExists error) and the
//! generators `create clusterrole|clusterrolebinding|configmap|cronjob|deployment|ingress|job|namespace|poddisruptionbudget|priorityclass|
//! role|rolebinding|secret|service|serviceaccount|token`. Mirrors
//! staging/src/k8s.io/kubectl/pkg/cmd/create (create.go and one file per generator).

pub mod configmap;
pub mod cronjob;
pub mod deployment;
mod env_file;
pub mod ingress;
pub mod job;
pub mod namespace;
pub mod pdb;
pub mod priorityclass;
pub mod quota;
pub mod role;
pub mod rolebinding;
pub mod secret;
mod secret_docker_registry;
mod secret_tls;
pub mod service;
pub mod serviceaccount;
pub mod token;

use super::apply::{api_error, decode_error, set_namespace, type_error};
use super::args::{Args, Flag};
use super::output::Output;
use super::print_flags::{self, DRY_RUN, DryRun, OUTPUT, Printer};
use super::resource_args::read_filenames;
use super::{Context, Verb};
use crate::api::codec;
use crate::kubectl::UsageError;
use serde_json::{Map, Value, json};

pub const VERB: Verb = Verb {
    name: "create",
    short: "Create a resource from a file or from stdin",
    usage: "kubectl create -f FILENAME [options]",
    flags: &[
        Flag::repeated("filename", Some('f'), "Filename, directory, or URL to files to use to create the resource"),
        DRY_RUN,
        OUTPUT,
    ],
    run,
};

pub const SUBCOMMANDS: &[Verb] = &[
    role::CLUSTER_ROLE,
    rolebinding::CLUSTER_ROLE_BINDING,
    configmap::VERB,
    cronjob::VERB,
    deployment::VERB,
    ingress::VERB,
    job::VERB,
    namespace::VERB,
    pdb::VERB,
    priorityclass::VERB,
    quota::VERB,
    role::ROLE,
    rolebinding::ROLE_BINDING,
    secret::VERB,
    service::VERB,
    serviceaccount::VERB,
    token::VERB,
];

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let filenames = args.all("filename").to_vec();
    if filenames.is_empty() {
        if let Some(word) = args.positionals.first() {
            return UsageError::unknown_command(word).output("create");
        }
        return Output::failed("error: must specify one of -f and -k");
    }
    let (dry_run, printer) = match print_flags::parse(&args) {
        Ok(parsed) => parsed,
        Err(message) => return Output::failed(message),
    };
    let namespace = args.get("namespace").map(str::to_string);
    let mut out = Output::default();
    for source in read_filenames(ctx, &filenames) {
        let documents = match source.documents {
            Ok(documents) => documents,
            Err(message) => {
                out.error(message);
                continue;
            }
        };
        for document in documents {
            let sent = (dry_run, printer, namespace.as_deref());
            if let Err(message) = create_one(ctx, &source.name, document, sent, &mut out) {
                out.error(message);
            }
        }
    }
    if out.items.is_empty() {
        out.error("error: no objects passed to create");
    }
    out
}

fn create_one(
    ctx: &mut Context<'_>,
    source: &str,
    mut document: Value,
    (dry_run, printer, namespace): (DryRun, Printer, Option<&str>),
    out: &mut Output,
) -> Result<(), String> {
    let kind = codec::kind_of(&document).map_err(|e| type_error(&e, source, &document))?;
    crate::kubectl::resource_args::mapping(ctx.sim.store(), kind, &document, source)?;
    set_namespace(&mut document, kind.info().namespaced, namespace)?;
    if dry_run == DryRun::Client {
        print_flags::print(out, printer, dry_run, &document, "created");
        return Ok(());
    }
    let object = codec::decode(document).map_err(|e| decode_error(&e, "creating", source))?;
    let created = print_flags::create_object(ctx, object, dry_run).map_err(|e| api_error(&e, "creating", source))?;
    print_flags::print(out, printer, dry_run, &created.to_json_value(), "created");
    Ok(())
}

/// The one NAME a generator takes: `exactly one NAME is required, got N`.
/// Upstream `NameFromCommandArgs`: exactly one word before any `--` (what follows it is a
/// command, for the verbs that take one).
pub fn one_name(args: &Args, verb: &Verb) -> Result<String, String> {
    let before_dash = args.args_len_at_dash.unwrap_or(args.positionals.len());
    match &args.positionals[..before_dash] {
        [name] => Ok(name.clone()),
        other => {
            Err(UsageError::command(format!("exactly one NAME is required, got {}", other.len())).render(verb.name))
        }
    }
}

/// The metadata a generator writes: name, the namespace when `-n` names one, and labels when
/// there are any. (Before v1.33 a zero `creationTimestamp` printed as `null`; 1.36 omits it.)
pub fn generated_metadata(args: &Args, name: &str, labels: Option<Value>) -> Value {
    let mut meta = Map::new();
    meta.insert("name".into(), json!(name));
    if let Some(namespace) = args.get("namespace").filter(|n| !n.is_empty()) {
        meta.insert("namespace".into(), json!(namespace));
    }
    if let Some(labels) = labels {
        meta.insert("labels".into(), labels);
    }
    Value::Object(meta)
}

#[cfg(test)]
pub(crate) mod tests {
    use crate::kubectl::{Context, MemoryFiles};
    use crate::sim::Sim;

    /// Runs a command line (words split on spaces, `'…'` kept together) with optional stdin.
    pub fn kubectl_in(sim: &mut Sim, line: &str, stdin: Option<&str>) -> (String, i32) {
        run_with(sim, line, stdin, MemoryFiles::new())
    }

    /// A command that reads these files (`--from-file`, `--cert`).
    pub fn kubectl_with_files(sim: &mut Sim, line: &str, files: &[(&str, &str)]) -> (String, i32) {
        let mut memory = MemoryFiles::new();
        for (name, text) in files {
            memory.insert(*name, *text);
        }
        run_with(sim, line, None, memory)
    }

    fn run_with(sim: &mut Sim, line: &str, stdin: Option<&str>, files: MemoryFiles) -> (String, i32) {
        let mut ctx = Context { sim, files: &files, stdin };
        let argv = crate::script::words::split(line).unwrap();
        let out = crate::kubectl::run(&mut ctx, &argv);
        // As every host does after a command: the cluster reacts to what it sent.
        ctx.sim.settle();
        (out.render(), out.exit_code)
    }

    pub fn kubectl(sim: &mut Sim, line: &str) -> (String, i32) {
        kubectl_in(sim, line, None)
    }

    const DEPLOYMENT: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: hello\nspec:\n  selector:\n    matchLabels: {app: hello}\n  template:\n    metadata:\n      labels: {app: hello}\n    spec:\n      containers:\n      - name: hello\n        image: hello:v1\n";

    #[test]
    fn create_from_stdin_refuses_what_exists() {
        let mut sim = Sim::default();
        let (text, code) = kubectl_in(&mut sim, "create -f -", Some(DEPLOYMENT));
        assert_eq!((text.as_str(), code), ("deployment.apps/hello created\n", 0));
        let (text, code) = kubectl_in(&mut sim, "create -f -", Some(DEPLOYMENT));
        assert_eq!(
            (text.as_str(), code),
            (
                "Error from server (AlreadyExists): error when creating \"STDIN\": deployments.apps \"hello\" already exists\n",
                1
            )
        );
        let (text, _) = kubectl_in(&mut sim, "create -f - --dry-run=server -o name", Some(DEPLOYMENT));
        assert!(text.contains("already exists"), "{text}");
        let (text, _) = kubectl_in(&mut sim, "create -f - --dry-run=client", Some(DEPLOYMENT));
        assert_eq!(text, "deployment.apps/hello created (dry run)\n");
        let (text, _) = kubectl(&mut sim, "create");
        assert_eq!(text, "error: must specify one of -f and -k\n");
    }
}
