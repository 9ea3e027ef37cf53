//! kubectl: the command layer that the terminal, the scenario runner and the lessons all speak.
//! One file per verb (its flags, help, parse and run); output is data (`output.rs`) printed by
//! one renderer (`render.rs`). Wording follows kubectl 1.36.

pub mod age;
pub mod annotate;
pub mod api_resources;
pub mod api_versions;
pub mod apply;
pub mod args;
pub mod auth;
pub mod autoscale;
pub mod cluster_info;
pub mod complete;
pub mod config;
pub mod control_plane_down;
pub mod cordon;
pub mod create;
pub mod custom_columns;
pub mod debug;
pub mod delete;
pub mod describe;
pub mod drain;
pub mod edit;
pub mod events;
pub mod exec;
pub mod explain;
pub mod expose;
pub mod files;
#[cfg(test)]
pub(crate) mod fixture;
pub mod get;
pub mod get_raw;
pub mod go_sort;
pub mod jsonpath;
pub mod kustomize;
pub mod label;
pub mod logs;
pub mod managed_fields;
pub mod output;
pub mod patch;
pub mod pod_shell;
pub mod pods;
pub mod port_forward;
pub mod print_flags;
pub mod printers;
pub mod render;
pub mod replace;
pub mod request_log;
pub mod resource_args;
pub mod rollout;
pub mod run;
pub mod scale;
pub mod server_side_apply;
pub mod set;
pub mod sort_by;
pub mod storage_printers;
pub mod strategic_merge;
pub mod taint;
pub mod top;
pub mod usage_error;
pub mod verbosity;
pub mod version;
pub mod wait;
pub mod watch;
pub mod yaml;

use crate::sim::Sim;
use args::Flag;
pub use complete::complete;
pub use files::{FileSystem, MemoryFiles};
pub use output::Output;
pub use usage_error::{CommandError, UsageError};
pub use watch::Watch;

/// Where a command runs: the lab, plus what it can read (`-f FILE`, stdin).
pub struct Context<'a> {
    pub sim: &'a mut Sim,
    pub files: &'a dyn FileSystem,
    pub stdin: Option<&'a str>,
}

impl Context<'_> {
    /// The API server, as the learner's kubeconfig user (kubeadm's `kubernetes-admin`): every
    /// write a verb makes is a request through the door.
    pub fn api(&mut self) -> crate::apiserver::Client<'_> {
        let user = self.sim.kubectl_user();
        crate::apiserver::Client::new(self.sim.store_mut(), user)
    }

    /// The API for reading, as the same user.
    pub fn reader(&self) -> crate::apiserver::Reader<'_> {
        crate::apiserver::Reader::new(self.sim.store(), self.sim.kubectl_user())
    }
}

/// A verb: its name, one-line summary, usage, flags and entry point.
pub struct Verb {
    pub name: &'static str,
    pub short: &'static str,
    pub usage: &'static str,
    pub flags: &'static [Flag],
    pub run: fn(&mut Context<'_>, args::Args) -> Output,
}

/// Every verb, in the order `kubectl --help` lists them.
pub const VERBS: &[Verb] = &[
    get::VERB,
    apply::VERB,
    delete::VERB,
    set::VERB,
    scale::VERB,
    autoscale::VERB,
    rollout::VERB,
    describe::VERB,
    events::VERB,
    // Writing verbs.
    create::VERB,
    run::VERB,
    expose::VERB,
    replace::VERB,
    patch::VERB,
    wait::VERB,
    kustomize::verb::VERB,
    edit::VERB,
    label::VERB,
    annotate::VERB,
    cordon::CORDON,
    cordon::UNCORDON,
    drain::VERB,
    taint::VERB,
    logs::VERB,
    exec::VERB,
    port_forward::VERB,
    debug::VERB,
    top::VERB,
    api_resources::VERB,
    api_versions::VERB,
    cluster_info::VERB,
    config::VERB,
    auth::VERB,
    version::VERB,
    explain::VERB,
];

/// The subcommands of a verb that has them (`rollout status`, `set image`); empty otherwise.
/// A subcommand's `name` is its full path (`rollout status`), as its help and errors print it.
pub fn subcommands_of(verb: &str) -> &'static [Verb] {
    match verb {
        "rollout" => rollout::SUBCOMMANDS,
        "set" => set::SUBCOMMANDS,
        "create" => create::SUBCOMMANDS,
        "create secret" => create::secret::SUBCOMMANDS,
        "create service" => create::service::SUBCOMMANDS,
        "config" => config::SUBCOMMANDS,
        "auth" => auth::SUBCOMMANDS,
        _ => &[],
    }
}

/// The full name of a subcommand spelled by one of its aliases (`create ns` → `namespace`).
fn subcommand_alias(word: &str) -> &str {
    match word {
        "ns" => "namespace",
        "cm" => "configmap",
        "cj" => "cronjob",
        "deploy" => "deployment",
        "svc" => "service",
        "resourcequota" => "quota",
        "sa" => "serviceaccount",
        "pdb" => "poddisruptionbudget",
        other => other,
    }
}

/// The verb an argument list names: a subcommand (at any depth, `create secret generic`) when
/// the words after the verb name one.
fn select<'a>(verb: &'static Verb, rest: &'a [String]) -> (&'static Verb, &'a [String]) {
    let sub = rest.first().and_then(|word| {
        let word = subcommand_alias(word);
        subcommands_of(verb.name).iter().find(|s| s.name.rsplit(' ').next() == Some(word))
    });
    match sub {
        Some(sub) => select(sub, &rest[1..]),
        None => (verb, rest),
    }
}

/// Moves global flags written before the verb (`kubectl -n staging create …`) after its
/// arguments (before any `--`), where every verb's parser reads them.
fn hoist_global_flags(argv: &[String]) -> Vec<String> {
    let mut leading = Vec::new();
    let mut i = 0;
    while let Some(word) = argv.get(i) {
        let takes_value = matches!(word.as_str(), "-n" | "--namespace" | "--as" | "--as-group");
        let inline = ["--namespace=", "--as=", "--as-group="].iter().any(|p| word.starts_with(p))
            || (word.starts_with("-n") && word.len() > 2);
        if !takes_value && !inline {
            break;
        }
        let width = if takes_value { 2 } else { 1 };
        let end = (i + width).min(argv.len());
        leading.extend(argv[i..end].iter().cloned());
        i = end;
    }
    let mut rest = argv[i..].to_vec();
    let at = rest.iter().position(|w| w == "--").unwrap_or(rest.len());
    rest.splice(at..at, leading);
    rest
}

/// Runs one kubectl command line (`argv` without the leading `kubectl`).
pub fn run(ctx: &mut Context<'_>, argv: &[String]) -> Output {
    let (out, ()) = verbosity::logged(ctx, argv, |ctx, argv| {
        let out = match resolve(argv) {
            Ok((verb, parsed)) => {
                let parsed = with_context_namespace(ctx, verb, parsed);
                run_as(ctx, verb, parsed)
            }
            Err(out) => out,
        };
        (out, ())
    });
    out
}

/// Runs a verb; the `Warning`s the API server sent with its requests come first on stderr, as
/// kubectl prints each response's warnings as it arrives.
fn run_verb(ctx: &mut Context<'_>, verb: &Verb, parsed: args::Args) -> Output {
    ctx.sim.store_mut().take_warnings();
    let mut out = (verb.run)(ctx, parsed);
    let warnings = ctx.sim.store_mut().take_warnings();
    let warnings = warnings.into_iter().map(|w| output::Item::Stderr(format!("Warning: {w}")));
    out.items.splice(0..0, warnings);
    out
}

/// A command without `-n` works in the kubeconfig context's namespace, when one is set
/// (`config` verbs read `--namespace` as their own flag).
fn with_context_namespace(ctx: &Context<'_>, verb: &Verb, mut args: args::Args) -> args::Args {
    if let Some(namespace) = ctx.sim.context_namespace()
        && !verb.name.starts_with("config")
    {
        args.set_default("namespace", namespace);
    }
    args
}

/// Runs a verb as the user `--as`/`--as-group` name (impersonation), or as the kubeconfig's.
fn run_as(ctx: &mut Context<'_>, verb: &Verb, parsed: args::Args) -> Output {
    if let Some(refused) = control_plane_down::refusal(ctx, verb, &parsed) {
        return refused;
    }
    let user = match auth::impersonation::user(ctx.sim, &parsed) {
        Ok(user) => user,
        Err(out) => return out,
    };
    ctx.sim.set_kubectl_user(user);
    let out = run_verb(ctx, verb, parsed);
    ctx.sim.set_kubectl_user(None);
    out
}

/// Runs one command line and, for `get --watch`, opens the stream that follows the listing:
/// poll it for the rows of later changes, close it when the user stops watching.
pub fn run_watching(ctx: &mut Context<'_>, argv: &[String]) -> (Output, Option<Watch>) {
    verbosity::logged(ctx, argv, |ctx, argv| {
        let (verb, parsed) = match resolve(argv) {
            Ok(resolved) => resolved,
            Err(out) => return (out, None),
        };
        let parsed = with_context_namespace(ctx, verb, parsed);
        let watch = if verb.name == "get" { get::watch_of(ctx.sim.store(), &parsed).ok().flatten() } else { None };
        let out = run_as(ctx, verb, parsed);
        let watch = watch.filter(|_| out.succeeded()).map(|w| Watch::open(ctx.sim, w, &out));
        (out, watch)
    })
}

/// The verb a command line names and its parsed flags, or what to print instead (help, a
/// usage error).
fn resolve(argv: &[String]) -> Result<(&'static Verb, args::Args), Output> {
    let argv = &hoist_global_flags(argv);
    let Some(verb_name) = argv.first() else {
        return Err(Output { items: vec![output::Item::Stdout(output::Block::Text(top_level_help()))], exit_code: 0 });
    };
    if verb_name == "--help" || verb_name == "-h" || verb_name == "help" {
        let mut out = Output::default();
        out.line(top_level_help());
        return Err(out);
    }
    let Some(verb) = VERBS.iter().find(|v| v.name == verb_name) else {
        return Err(Output::failed(format!(
            "error: unknown command \"{verb_name}\" for \"kubectl\"{}",
            suggest(verb_name)
        )));
    };
    let (verb, rest) = select(verb, &argv[1..]);
    match args::parse(rest, verb.flags) {
        Err(message) => Err(usage_error(verb, &message)),
        Ok(parsed) if parsed.switch("help") => {
            let mut out = Output::default();
            out.line(verb_help(verb));
            Err(out)
        }
        Ok(parsed) => Ok((verb, parsed)),
    }
}

/// A flag that cobra/pflag rejects: `Error: …` plus where to find the usage.
pub fn usage_error(verb: &Verb, message: impl std::fmt::Display) -> Output {
    UsageError::flag(message.to_string()).output(verb.name)
}

/// cobra's "Did you mean this?" for verbs within two edits.
fn suggest(name: &str) -> String {
    let close: Vec<&str> = VERBS.iter().filter(|v| edit_distance(v.name, name) <= 2).map(|v| v.name).collect();
    if close.is_empty() {
        return String::new();
    }
    format!("\n\nDid you mean this?\n\t{}", close.join("\n\t"))
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            let next = (row[j + 1] + 1).min(row[j] + 1).min(prev + cost);
            prev = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// `kubectl --help`.
pub fn top_level_help() -> String {
    let mut text = String::from("kubectl controls the Kubernetes cluster manager.\n\nCommands:\n");
    for verb in VERBS {
        text.push_str(&format!("  {:<14}{}\n", verb.name, verb.short));
    }
    text.push_str("\nUsage:\n  kubectl [flags] [options]\n\nUse \"kubectl <command> --help\" for more information about a given command.");
    text
}

/// `kubectl VERB --help`, from the verb's own flag table, laid out as kubectl's templates lay
/// it out: description, subcommands, `Options:` (sorted by name), `Usage:`, then the footer.
pub fn verb_help(verb: &Verb) -> String {
    let short = verb.short.trim_end_matches('.');
    let mut text = format!("{short}.\n\n");
    let subcommands = subcommands_of(verb.name);
    if !subcommands.is_empty() {
        text.push_str("Available Commands:\n");
        let words: Vec<&str> = subcommands.iter().map(|s| s.name.rsplit(' ').next().unwrap_or(s.name)).collect();
        let width = words.iter().map(|w| w.len()).max().unwrap_or(0).max(11) + 3;
        for (word, sub) in words.iter().zip(subcommands) {
            text.push_str(&format!("  {word:<width$}{}\n", sub.short));
        }
        text.push('\n');
    }
    let mut flags: Vec<&Flag> = verb.flags.iter().collect();
    flags.sort_by_key(|f| f.long);
    if !flags.is_empty() {
        text.push_str("Options:\n");
        for flag in flags {
            text.push_str(&flag_help(flag));
        }
    }
    text.push_str(&format!("Usage:\n  {}\n\n", verb.usage));
    if !subcommands.is_empty() {
        text.push_str(&format!(
            "Use \"kubectl {} <command> --help\" for more information about a given command.\n",
            verb.name
        ));
    }
    text.push_str("Use \"kubectl options\" for a list of global command-line options (applies to all commands).");
    text
}

/// One entry of `Options:`: `    -o, --output='':` then the help on a tab-indented line.
fn flag_help(flag: &Flag) -> String {
    let short = flag.short.map_or(String::new(), |c| format!("-{c}, "));
    let value = match (flag.takes_value, flag.repeatable) {
        (false, _) => "=false",
        (true, true) => "=[]",
        (true, false) => "=''",
    };
    format!("    {short}--{}{value}:\n\t{}\n\n", flag.long, flag.help)
}

/// The namespace a command works in: `-n`, else `default`.
pub fn namespace_of(args: &args::Args) -> String {
    args.get("namespace").filter(|n| !n.is_empty()).unwrap_or("default").to_string()
}

/// A verb with subcommands run without a known one (cmdutil.DefaultSubCommandRun): its help on
/// stderr and a failing exit, or kubectl's complaint about the unknown subcommand.
pub fn group_run(verb: &Verb, args: &args::Args) -> Output {
    if !args.positionals.is_empty() {
        return UsageError::unknown_command(&args.positionals.join(" ")).output(verb.name);
    }
    Output::failed(verb_help(verb))
}

#[cfg(test)]
mod tests {
    use super::{Context, MemoryFiles, VERBS, Verb, hoist_global_flags, run, subcommands_of};
    use crate::sim::Sim;

    /// Every verb and subcommand, at any depth.
    fn all_verbs() -> Vec<&'static Verb> {
        let mut verbs: Vec<&'static Verb> = VERBS.iter().collect();
        let mut i = 0;
        while let Some(verb) = verbs.get(i) {
            verbs.extend(subcommands_of(verb.name));
            i += 1;
        }
        verbs
    }

    #[test]
    fn every_verb_has_help_that_lists_its_flags() {
        let mut sim = Sim::default();
        let files = MemoryFiles::new();
        for verb in all_verbs() {
            let mut ctx = Context { sim: &mut sim, files: &files, stdin: None };
            let mut argv: Vec<String> = verb.name.split(' ').map(String::from).collect();
            argv.push("--help".into());
            let out = run(&mut ctx, &argv);
            let text = out.stdout();
            assert!(out.succeeded(), "{}: {text}", verb.name);
            assert!(text.starts_with(verb.short.trim_end_matches('.')), "{}: {text}", verb.name);
            let usage = text.find("\nUsage:\n  kubectl ").unwrap_or_else(|| panic!("{}: no Usage: {text}", verb.name));
            assert!(text.ends_with("(applies to all commands).\n"), "{}: {text}", verb.name);
            for flag in verb.flags {
                let at = text.find(&format!("--{}=", flag.long));
                assert!(at.is_some_and(|at| at < usage), "{}: --{} not under Options: {text}", verb.name, flag.long);
                assert_ne!(flag.long, "help", "{}: -h is every verb's", verb.name);
            }
            assert_eq!(text.contains("\nOptions:\n"), !verb.flags.is_empty(), "{}", verb.name);
        }
    }

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn global_flags_before_the_verb_move_after_it() {
        assert_eq!(hoist_global_flags(&words("-n staging create ns x")), words("create ns x -n staging"));
        assert_eq!(hoist_global_flags(&words("--namespace=a run x -- sh")), words("run x --namespace=a -- sh"));
        assert_eq!(hoist_global_flags(&words("get pods")), words("get pods"));
        assert_eq!(hoist_global_flags(&words("-n")), words("-n"));
    }
}
