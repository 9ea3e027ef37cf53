//! Tab completion for `helm` lines, from the same command table that runs them: commands,
//! subcommands, flags, the built-in charts and the releases in the namespace.

use super::{COMMANDS, chart, storage};
use crate::sim::Sim;

/// Candidates for the word being typed (`current`) after `words` (without `helm`), sorted.
pub fn candidates(sim: &Sim, words: &[&str], current: &str) -> Vec<String> {
    let mut found: Vec<String> = match words {
        [] => COMMANDS.iter().map(|c| c.name.split(' ').next().unwrap_or(c.name).to_string()).collect(),
        [group] if matches!(*group, "get" | "repo" | "search") => {
            COMMANDS.iter().filter_map(|c| c.name.strip_prefix(&format!("{group} "))).map(str::to_string).collect()
        }
        _ => rest(sim, words, current),
    };
    found.retain(|c| c.starts_with(current));
    found.sort();
    found.dedup();
    found
}

/// After the command's words: its flags, a chart, or a release.
fn rest(sim: &Sim, words: &[&str], current: &str) -> Vec<String> {
    let two = words.get(1).map(|second| format!("{} {second}", words[0]));
    let (command, used) = match two.as_deref().and_then(|w| COMMANDS.iter().find(|c| c.name == w)) {
        Some(command) => (command, 2),
        None => match COMMANDS.iter().find(|c| c.name == words[0] || c.aliases.contains(&words[0])) {
            Some(command) => (command, 1),
            None => return Vec::new(),
        },
    };
    if current.starts_with('-') {
        let mut flags: Vec<String> = command.flags.iter().map(|f| format!("--{}", f.long)).collect();
        flags.extend(["--namespace".to_string(), "--help".to_string()]);
        return flags;
    }
    let positionals: Vec<&&str> = words[used..].iter().filter(|w| !w.starts_with('-')).collect();
    let wants_chart = matches!(command.name, "install" | "template" | "upgrade") && positionals.len() == 1;
    if wants_chart {
        return chart::built_in().into_iter().map(|c| format!("{}/{}", chart::REPO_NAME, c.metadata.name)).collect();
    }
    let wants_release = matches!(command.name, "history" | "status" | "rollback" | "uninstall" | "upgrade")
        || command.name.starts_with("get ");
    if wants_release && positionals.is_empty() {
        let namespace = sim.context_namespace().unwrap_or("default");
        return storage::all(sim, Some(namespace)).unwrap_or_default().into_iter().map(|r| r.name).collect();
    }
    Vec::new()
}
