//! Helm 3 in the lab's terminal: `helm …` lines render the built-in charts with Go's
//! text/template and install them through the API door as the admin, keeping each release
//! in a Secret as Helm's storage driver does, so `kubectl get secrets` shows it.

pub mod chart;
pub mod complete;
pub mod get;
pub mod gzip;
pub mod install;
pub mod kube;
pub mod list;
pub mod release;
pub mod render;
pub mod repo;
pub mod rollback;
pub mod status;
pub mod storage;
pub mod strvals;
pub mod table;
pub mod template;
pub mod template_command;
pub mod uninstall;
pub mod upgrade;
pub mod values;

use crate::kubectl::args::{self, Args, Flag};
use crate::kubectl::{Context, Output};

/// How many arguments a command takes (cmd/helm/require).
#[derive(Clone, Copy)]
pub enum Arity {
    None,
    Exactly(usize),
    AtLeast(usize),
}

/// One `helm` command: its words, summary, usage line, flags and entry point.
pub struct Command {
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    pub short: &'static str,
    pub usage: &'static str,
    pub flags: &'static [Flag],
    pub arity: Arity,
    pub run: fn(&mut Context<'_>, &Args) -> Result<String, String>,
}

/// Every command the lab's Helm runs, in `helm --help`'s order.
pub const COMMANDS: &[Command] = &[
    Command {
        name: "get manifest",
        aliases: &[],
        short: "download the manifest for a named release",
        usage: "helm get manifest RELEASE_NAME [flags]",
        flags: get::REVISION_FLAGS,
        arity: Arity::Exactly(1),
        run: get::manifest,
    },
    Command {
        name: "get notes",
        aliases: &[],
        short: "download the notes for a named release",
        usage: "helm get notes RELEASE_NAME [flags]",
        flags: get::REVISION_FLAGS,
        arity: Arity::Exactly(1),
        run: get::notes,
    },
    Command {
        name: "get values",
        aliases: &[],
        short: "download the values file for a named release",
        usage: "helm get values RELEASE_NAME [flags]",
        flags: get::VALUES_FLAGS,
        arity: Arity::Exactly(1),
        run: get::values,
    },
    Command {
        name: "history",
        aliases: &["hist"],
        short: "fetch release history",
        usage: "helm history RELEASE_NAME [flags]",
        flags: list::HISTORY_FLAGS,
        arity: Arity::Exactly(1),
        run: list::history,
    },
    Command {
        name: "install",
        aliases: &[],
        short: "install a chart",
        usage: "helm install [NAME] [CHART] [flags]",
        flags: install::FLAGS,
        arity: Arity::AtLeast(1),
        run: install::run,
    },
    Command {
        name: "list",
        aliases: &["ls"],
        short: "list releases",
        usage: "helm list [flags]",
        flags: list::LIST_FLAGS,
        arity: Arity::None,
        run: list::list,
    },
    Command {
        name: "repo list",
        aliases: &["repo ls"],
        short: "list chart repositories",
        usage: "helm repo list [flags]",
        flags: &[],
        arity: Arity::None,
        run: repo::list,
    },
    Command {
        name: "rollback",
        aliases: &[],
        short: "roll back a release to a previous revision",
        usage: "helm rollback <RELEASE> [REVISION] [flags]",
        flags: &[],
        arity: Arity::AtLeast(1),
        run: rollback::run,
    },
    Command {
        name: "search repo",
        aliases: &[],
        short: "search repositories for a keyword in charts",
        usage: "helm search repo [keyword] [flags]",
        flags: &[],
        arity: Arity::AtLeast(0),
        run: repo::search,
    },
    Command {
        name: "status",
        aliases: &[],
        short: "display the status of the named release",
        usage: "helm status RELEASE_NAME [flags]",
        flags: get::REVISION_FLAGS,
        arity: Arity::Exactly(1),
        run: get::status,
    },
    Command {
        name: "template",
        aliases: &[],
        short: "locally render templates",
        usage: "helm template [NAME] [CHART] [flags]",
        flags: template_command::FLAGS,
        arity: Arity::AtLeast(1),
        run: template_command::run,
    },
    Command {
        name: "uninstall",
        aliases: &["un", "delete", "del"],
        short: "uninstall a release",
        usage: "helm uninstall RELEASE_NAME [...] [flags]",
        flags: &[],
        arity: Arity::AtLeast(1),
        run: uninstall::run,
    },
    Command {
        name: "upgrade",
        aliases: &[],
        short: "upgrade a release",
        usage: "helm upgrade [RELEASE] [CHART] [flags]",
        flags: upgrade::FLAGS,
        arity: Arity::Exactly(2),
        run: upgrade::run,
    },
];

/// Runs one `helm` line (`argv` without the leading `helm`).
pub fn run(ctx: &mut Context<'_>, argv: &[String]) -> Output {
    let mut out = Output::default();
    match resolve(argv) {
        Ok(None) => out.raw(help()),
        Ok(Some((command, args))) if args.switch("help") => out.raw(command_help(command)),
        Ok(Some((command, args))) => match check_arity(command, &args).and_then(|()| (command.run)(ctx, &args)) {
            Ok(text) => out.raw(text),
            Err(message) => out.error(format!("Error: {message}")),
        },
        Err(message) => out.error(format!("Error: {message}")),
    }
    out
}

/// The command a line names and its parsed flags; `None` for `helm` alone or `helm --help`.
fn resolve(argv: &[String]) -> Result<Option<(&'static Command, Args)>, String> {
    let Some(first) = argv.first() else { return Ok(None) };
    if matches!(first.as_str(), "--help" | "-h" | "help") {
        return Ok(None);
    }
    let two_words = argv.get(1).map(|second| format!("{first} {second}"));
    let named = |words: &str| COMMANDS.iter().find(|c| c.name == words || c.aliases.contains(&words));
    let (command, rest) = match two_words.as_deref().and_then(named) {
        Some(command) => (command, &argv[2..]),
        None => match named(first) {
            Some(command) => (command, &argv[1..]),
            None => return Err(unknown_command(first, argv.get(1))),
        },
    };
    let args = args::parse(rest, command.flags)?;
    Ok(Some((command, args)))
}

/// cobra's words for a command it does not have (a group without a known subcommand, too).
fn unknown_command(first: &str, second: Option<&String>) -> String {
    match (first, second) {
        ("get" | "repo" | "search", Some(sub)) => {
            format!("unknown command \"{sub}\" for \"helm {first}\"\nRun 'helm {first} --help' for usage.")
        }
        ("get" | "repo" | "search", None) => {
            format!("\"helm {first}\" requires a subcommand\nRun 'helm {first} --help' for usage.")
        }
        _ => format!("unknown command \"{first}\" for \"helm\"\nRun 'helm --help' for usage."),
    }
}

/// cmd/helm/require's checks, worded as they are.
fn check_arity(command: &Command, args: &Args) -> Result<(), String> {
    let n = args.positionals.len();
    let plural = |k: usize| if k == 1 { "argument" } else { "arguments" };
    let path = format!("helm {}", command.name);
    let usage = format!("\n\nUsage:  {}", command.usage);
    match command.arity {
        Arity::None if n > 0 => Err(format!("\"{path}\" accepts no arguments{usage}")),
        Arity::Exactly(k) if n != k => Err(format!("\"{path}\" requires {k} {}{usage}", plural(k))),
        Arity::AtLeast(k) if n < k => Err(format!("\"{path}\" requires at least {k} {}{usage}", plural(k))),
        _ => Ok(()),
    }
}

/// The namespace a command works in: `-n`, else the kubeconfig context's, else `default`.
pub fn namespace(ctx: &Context<'_>, args: &Args) -> String {
    match args.get("namespace").filter(|n| !n.is_empty()) {
        Some(namespace) => namespace.to_string(),
        None => ctx.sim.context_namespace().unwrap_or("default").to_string(),
    }
}

/// `helm --help`: the commands the lab's Helm knows.
pub fn help() -> String {
    let mut text = String::from(
        "The Kubernetes package manager (the lab's Helm 3: its built-in repository is \"kubelab\").\n\nAvailable Commands:\n",
    );
    for command in COMMANDS {
        text.push_str(&format!("  {:<14}{}\n", command.name, command.short));
    }
    text.push_str("\nUse \"helm [command] --help\" for more information about a command.\n");
    text
}

fn command_help(command: &Command) -> String {
    let mut text = format!("{}\n\nUsage:\n  {}\n", command.short, command.usage);
    if !command.flags.is_empty() {
        text.push_str("\nFlags:\n");
        for flag in command.flags {
            let short = flag.short.map_or("    ".to_string(), |c| format!("-{c}, "));
            text.push_str(&format!("  {short}--{:<20} {}\n", flag.long, flag.help));
        }
    }
    text
}
