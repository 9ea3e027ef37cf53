//! Shell completion: the words that may finish what is typed, read from the same tables that
//! parse it (verbs, subcommands, flags, the discovery table, the store). Mirrors what
//! kubectl's `__complete` (cobra's ValidArgsFunction and flag completions) offers.

use super::args::{Flag, GLOBAL_FLAGS};
use super::{VERBS, Verb, subcommands_of};
use crate::api::labels::Selector;
use crate::api::{Kind, RESOURCES};
use crate::sim::Sim;
use crate::store::FieldSelector;

/// Candidates for the word under the cursor in `line` (with or without a leading `kubectl`),
/// sorted and without duplicates. Each candidate replaces that whole word.
pub fn complete(sim: &Sim, line: &str, cursor: usize) -> Vec<String> {
    let Some(typed) = line.get(..cursor.min(line.len())) else { return Vec::new() };
    let mut words: Vec<&str> = typed.split_whitespace().collect();
    let current = if typed.ends_with(char::is_whitespace) || typed.is_empty() { "" } else { words.pop().unwrap_or("") };
    if words.first() == Some(&"kubectl") {
        words.remove(0);
    }
    let mut candidates = candidates(sim, &words, current);
    candidates.retain(|c| c.starts_with(current));
    candidates.sort();
    candidates.dedup();
    candidates
}

/// What the words before the cursor say about the one being typed.
struct Context<'a> {
    verb: Option<&'static Verb>,
    positionals: Vec<&'a str>,
    namespace: String,
    /// The flag whose value is being typed (`-o ` then the cursor).
    pending_flag: Option<Flag>,
    /// A first word that names no verb: nothing completes after it.
    unknown_verb: bool,
}

fn candidates(sim: &Sim, words: &[&str], current: &str) -> Vec<String> {
    let context = read(words);
    if context.unknown_verb {
        return Vec::new();
    }
    let Some(verb) = context.verb else {
        return if current.starts_with('-') {
            flag_names(GLOBAL_FLAGS)
        } else {
            VERBS.iter().map(|v| v.name.into()).collect()
        };
    };
    if let Some(flag) = context.pending_flag {
        return flag_values(sim, verb, flag.long);
    }
    if let Some((name, _)) = current.strip_prefix("--").and_then(|c| c.split_once('=')) {
        let prefix = format!("--{name}=");
        return flag_values(sim, verb, name).into_iter().map(|v| format!("{prefix}{v}")).collect();
    }
    if current.starts_with('-') {
        return flag_names(verb.flags.iter().chain(GLOBAL_FLAGS));
    }
    arguments(sim, verb, &context.positionals, &context.namespace, current)
}

/// Walks the words: the verb (and subcommands), positionals, `-n`, and a flag left waiting
/// for its value.
fn read<'a>(words: &[&'a str]) -> Context<'a> {
    let mut context = Context {
        verb: None,
        positionals: Vec::new(),
        namespace: "default".into(),
        pending_flag: None,
        unknown_verb: false,
    };
    let mut i = 0;
    while let Some(word) = words.get(i) {
        i += 1;
        let flags: &[Flag] = context.verb.map_or(&[], |v| v.flags);
        if let Some(flag) = flag_spelled(word, flags) {
            if flag.takes_value && !word.contains('=') && !is_attached_shorthand(word) {
                match words.get(i) {
                    Some(value) => {
                        note_namespace(&mut context, flag, value);
                        i += 1;
                    }
                    None => context.pending_flag = Some(flag),
                }
            } else if let Some((_, value)) = word.split_once('=') {
                note_namespace(&mut context, flag, value);
            }
            continue;
        }
        match context.verb {
            None => {
                context.verb = VERBS.iter().find(|v| v.name == *word);
                context.unknown_verb = context.verb.is_none();
            }
            Some(verb) if context.positionals.is_empty() => {
                let sub = subcommands_of(verb.name).iter().find(|s| s.name.rsplit(' ').next() == Some(word));
                match sub {
                    Some(sub) => context.verb = Some(sub),
                    None => context.positionals.push(word),
                }
            }
            Some(_) => context.positionals.push(word),
        }
    }
    context
}

fn note_namespace(context: &mut Context<'_>, flag: Flag, value: &str) {
    if flag.long == "namespace" {
        context.namespace = value.to_string();
    }
}

fn is_attached_shorthand(word: &str) -> bool {
    !word.starts_with("--") && word.len() > 2
}

/// The flag a word spells (`--output`, `--output=x`, `-o`, `-owide`), among the verb's and the
/// global ones.
fn flag_spelled(word: &str, flags: &[Flag]) -> Option<Flag> {
    let all = || flags.iter().chain(GLOBAL_FLAGS);
    if let Some(long) = word.strip_prefix("--") {
        let name = long.split('=').next().unwrap_or(long);
        return all().find(|f| f.long == name).copied();
    }
    let short = word.strip_prefix('-')?.chars().next()?;
    all().find(|f| f.short == Some(short)).copied()
}

/// `--replicas=` for a flag that takes a value, `--force` for a switch.
fn flag_names<'a>(flags: impl IntoIterator<Item = &'a Flag>) -> Vec<String> {
    flags
        .into_iter()
        .filter(|f| f.long != "help")
        .map(|f| if f.takes_value { format!("--{}=", f.long) } else { format!("--{}", f.long) })
        .collect()
}

/// Values of flags that take one of a fixed set (or a namespace's name).
fn flag_values(sim: &Sim, verb: &Verb, flag: &str) -> Vec<String> {
    let fixed: &[&str] = match (verb.name, flag) {
        ("get", "output") => &["yaml", "json", "wide", "name", "jsonpath=", "custom-columns="],
        (_, "output") => &["yaml", "json", "name"],
        ("patch", "type") => &["json", "merge", "strategic"],
        (_, "cascade") => &["background", "foreground", "orphan"],
        (_, "dry-run") => &["none", "server", "client"],
        (_, "namespace") => return names(sim, Kind::Namespace, ""),
        _ => &[],
    };
    fixed.iter().map(|s| s.to_string()).collect()
}

/// Positional arguments: subcommands, kinds, `kind/name`, or names of the chosen kind.
fn arguments(sim: &Sim, verb: &Verb, positionals: &[&str], namespace: &str, current: &str) -> Vec<String> {
    let subcommands = subcommands_of(verb.name);
    if !subcommands.is_empty() && positionals.is_empty() {
        return subcommands.iter().filter_map(|s| s.name.rsplit(' ').next()).map(String::from).collect();
    }
    let root = verb.name.split(' ').next().unwrap_or(verb.name);
    if let Some(kind) = implied_kind(root) {
        return if positionals.is_empty() { names(sim, kind, namespace) } else { Vec::new() };
    }
    if !takes_resources(root) {
        return Vec::new();
    }
    if let Some((type_, _)) = current.split_once('/') {
        let Some(kind) = Kind::from_cli_name(type_) else { return Vec::new() };
        return names(sim, kind, namespace).into_iter().map(|n| format!("{type_}/{n}")).collect();
    }
    match positionals {
        [] => kind_names(sim),
        [type_] if !type_.contains('/') && !type_.contains(',') => {
            Kind::from_cli_name(type_).map_or_else(Vec::new, |kind| names(sim, kind, namespace))
        }
        _ => Vec::new(),
    }
}

/// Verbs whose first argument is an object of one kind.
fn implied_kind(verb: &str) -> Option<Kind> {
    match verb {
        "logs" | "exec" | "debug" | "port-forward" => Some(Kind::Pod),
        "cordon" | "uncordon" | "drain" => Some(Kind::Node),
        _ => None,
    }
}

fn takes_resources(verb: &str) -> bool {
    matches!(
        verb,
        "get"
            | "describe"
            | "delete"
            | "label"
            | "annotate"
            | "edit"
            | "patch"
            | "scale"
            | "expose"
            | "explain"
            | "rollout"
            | "set"
            | "taint"
            | "top"
            | "wait"
    )
}

/// Every served kind's plural, singular and short names.
fn kind_names(sim: &Sim) -> Vec<String> {
    RESOURCES
        .iter()
        .filter(|r| sim.store().serves(r.kind))
        .flat_map(|r| [r.plural, r.singular].into_iter().chain(r.short_names.iter().copied()))
        .map(String::from)
        .collect()
}

/// Names of the objects of `kind` in `namespace` (all of them for cluster-scoped kinds).
fn names(sim: &Sim, kind: Kind, namespace: &str) -> Vec<String> {
    let objects =
        sim.store().list_objects(kind, Some(namespace), &Selector::everything(), &FieldSelector::everything());
    objects.iter().map(|o| o.metadata().name.clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::complete;
    use crate::kubectl::fixture::hello_lab;

    #[test]
    fn completion_offers_what_the_tables_define() {
        let mut sim = hello_lab(5);
        crate::kubectl::create::tests::kubectl(&mut sim, "create ns staging");
        crate::kubectl::create::tests::kubectl(&mut sim, "create cm settings -n staging");
        let pods: Vec<String> =
            sim.store().list::<crate::api::Pod>(Some("default")).map(|p| p.metadata.name.clone()).collect();
        let cases: &[(&str, Vec<String>)] = &[
            ("kubectl ro", vec!["rollout".into()]),
            ("kubectl rollout st", vec!["status".into()]),
            ("kubectl get dep", vec!["deploy".into(), "deployment".into(), "deployments".into()]),
            ("kubectl get deploy ", vec!["hello".into()]),
            ("kubectl get deploy/h", vec!["deploy/hello".into()]),
            ("kubectl scale deploy hello --rep", vec!["--replicas=".into()]),
            (
                "kubectl get pods -o ",
                ["custom-columns=", "json", "jsonpath=", "name", "wide", "yaml"].map(String::from).to_vec(),
            ),
            ("kubectl get pods -o w", vec!["wide".into()]),
            ("kubectl get pods --output=ya", vec!["--output=yaml".into()]),
            ("kubectl patch deploy hello --type ", vec!["json".into(), "merge".into(), "strategic".into()]),
            ("kubectl get cm -n staging ", vec!["kube-root-ca.crt".into(), "settings".into()]),
            ("kubectl -n staging get cm s", vec!["settings".into()]),
            ("kubectl get ns st", vec!["staging".into()]),
            ("kubectl logs ", pods.clone()),
            ("kubectl cordon node-", vec!["node-1".into(), "node-2".into(), "node-3".into()]),
            ("kubectl get pods --watch", vec!["--watch".into(), "--watch-only".into()]),
            ("kubectl version ", vec![]),
            ("kubectl frobnicate ", vec![]),
        ];
        for (line, expected) in cases {
            assert_eq!(&complete(&sim, line, line.len()), expected, "{line:?}");
        }
        assert_eq!(complete(&sim, "kubectl get pods", 11), vec!["get".to_string()]);
        assert!(complete(&sim, "kubectl gét", 10).is_empty(), "a cursor inside a character");
    }
}
