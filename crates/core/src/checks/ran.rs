//! `ran`: the learner ran a kubectl verb (and, optionally, on a kind of resource), successfully,
//! read from the lab's command history.
//!
//! A check can also ask which object the command named and a flag it carried: looking at a
//! crashed container's output is `ran: {verb: logs, name: crashy, flag: --previous}`, which
//! `kubectl logs crashy` alone does not pass (nor does `--previous` on a pod that never crashed:
//! kubectl refuses it, and failed commands do not count).
//!
//! ```yaml
//! ran: {verb: delete, resource: pod}
//! ran: {verb: rollout undo}
//! ran: {verb: describe, resource: pod, name_prefix: hello-}
//! ```

use super::{Context, Verdict, namespace_or_default, parse_kind};
use crate::api::Kind;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RanCheck {
    /// `get`, `delete`, `scale`, `rollout undo`…
    pub verb: String,
    /// The kind the command named first (`pod`, `pods/x`, `deploy`…), any when left out.
    #[serde(default)]
    pub resource: Option<String>,
    /// The object the command named (`kubectl logs crashy`, `pod/crashy`).
    #[serde(default)]
    pub name: Option<String>,
    /// Or the start of its name. A command that names nothing (`kubectl describe pods`) covers
    /// every name.
    #[serde(default)]
    pub name_prefix: Option<String>,
    /// A flag the command carried, long form (`--previous` also matches `-p` and `--previous=true`).
    #[serde(default)]
    pub flag: Option<String>,
    /// The namespace the command looked in (`default` when left out); `-A` covers every one.
    #[serde(default)]
    pub namespace: Option<String>,
}

/// Flags whose value is the next word when written without `=`.
const VALUE_FLAGS: &[&str] = &[
    "-n",
    "--namespace",
    "-l",
    "--selector",
    "-o",
    "--output",
    "-f",
    "--filename",
    "--field-selector",
    "--sort-by",
    "-c",
    "--container",
];

/// Short forms of the long flags a check may name, per verb (`None`: every verb), as kubectl
/// declares them.
const SHORT_FLAGS: &[(Option<&str>, &str, &str)] = &[
    (Some("logs"), "-p", "--previous"),
    (Some("logs"), "-f", "--follow"),
    (None, "-c", "--container"),
    (None, "-l", "--selector"),
    (None, "-n", "--namespace"),
    (None, "-o", "--output"),
    (None, "-A", "--all-namespaces"),
    (None, "-w", "--watch"),
];

impl RanCheck {
    pub fn problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        let verb = self.verb.split_whitespace().next().unwrap_or("");
        if !crate::kubectl::VERBS.iter().any(|v| v.name == verb) {
            problems.push(format!("ran: \"{}\" is not a kubectl verb", self.verb));
        }
        problems.extend(self.resource.as_deref().and_then(|r| parse_kind(r).err()));
        if let Some(flag) = self.flag.as_deref().filter(|f| !f.starts_with("--")) {
            problems.push(format!("ran: write the flag {flag:?} in its long form (--previous)"));
        }
        problems
    }

    pub fn evaluate(&self, ctx: &Context<'_>) -> Verdict {
        let resource = self.resource.as_deref().and_then(|r| parse_kind(r).ok());
        let wanted = self.wanted();
        let found = ctx
            .history
            .commands()
            .iter()
            .rev()
            .find(|c| c.succeeded && !c.found_nothing && self.matches(&c.kubectl_argv, resource));
        match found {
            Some(command) => Verdict::new(true, format!("you ran {}", command.line.lines().next().unwrap_or(""))),
            None => Verdict::new(false, format!("you have not run {wanted} yet")),
        }
    }

    /// The command the learner has not run yet, for messages: `kubectl logs crashy --previous`.
    fn wanted(&self) -> String {
        let mut words = vec!["kubectl".to_string(), self.verb.clone()];
        words.extend(self.resource.clone());
        words.extend(self.name.clone().or_else(|| self.name_prefix.as_ref().map(|p| format!("{p}…"))));
        words.extend(self.flag.clone());
        words.join(" ")
    }

    fn matches(&self, argv: &[String], resource: Option<Kind>) -> bool {
        let words = positionals(argv);
        let verb: Vec<&str> = self.verb.split_whitespace().collect();
        if words.len() < verb.len() || words[..verb.len()] != verb[..] {
            return false;
        }
        let mut rest = &words[verb.len()..];
        let mut names: Vec<&str> = Vec::new();
        if let Some(resource) = resource {
            let Some(first) = rest.first() else { return false };
            let (kinds, name) = first.split_once('/').map_or((*first, None), |(k, n)| (k, Some(n)));
            if kinds.split(',').find_map(Kind::from_cli_name) != Some(resource) {
                return false;
            }
            names.extend(name);
            rest = &rest[1..];
        }
        names.extend(rest.iter().map(|w| w.split_once('/').map_or(*w, |(_, n)| n)));
        self.names_match(&names)
            && self.flag.as_deref().is_none_or(|flag| carries(argv, verb[0], flag))
            && self.namespace_matches(argv)
    }

    /// Whether the command looked in the check's namespace: `kubectl describe pods -n
    /// kube-system` described no pod of the learner's.
    fn namespace_matches(&self, argv: &[String]) -> bool {
        if carries(argv, "", "--all-namespaces") {
            return true;
        }
        command_namespace(argv).unwrap_or("default") == namespace_or_default(&self.namespace)
    }

    fn names_match(&self, names: &[&str]) -> bool {
        if let Some(name) = &self.name {
            return names.contains(&name.as_str());
        }
        match &self.name_prefix {
            Some(prefix) => names.is_empty() || names.iter().any(|n| n.starts_with(prefix.as_str())),
            None => true,
        }
    }
}

/// Whether the command carried a long flag (`--previous`, `--previous=true`) or its short form.
fn carries(argv: &[String], verb: &str, flag: &str) -> bool {
    let short = SHORT_FLAGS.iter().find(|(v, _, long)| *long == flag && v.is_none_or(|v| v == verb)).map(|f| f.1);
    argv.iter().any(|word| {
        let (name, value) = word.split_once('=').map_or((word.as_str(), None), |(n, v)| (n, Some(v)));
        (name == flag || Some(name) == short) && value != Some("false")
    })
}

/// The namespace a command's `-n`/`--namespace` names, in any of its spellings.
fn command_namespace(argv: &[String]) -> Option<&str> {
    let mut words = argv.iter();
    while let Some(word) = words.next() {
        match word.as_str() {
            "-n" | "--namespace" => return words.next().map(String::as_str),
            w => {
                if let Some(value) = w.strip_prefix("--namespace=").or_else(|| w.strip_prefix("-n=")) {
                    return Some(value);
                }
            }
        }
    }
    None
}

/// The words of a kubectl command that are not flags or flag values.
fn positionals(argv: &[String]) -> Vec<&str> {
    let mut words = Vec::new();
    let mut skip_value = false;
    for word in argv {
        if std::mem::take(&mut skip_value) {
            continue;
        }
        if word.starts_with('-') {
            skip_value = VALUE_FLAGS.contains(&word.as_str());
            continue;
        }
        words.push(word.as_str());
    }
    words
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{check, hello_lab};

    #[test]
    fn verbs_and_resources_from_the_history() {
        let mut lab = hello_lab(10);
        let delete_pod = check("ran: {verb: delete, resource: pod}");
        let verdict = delete_pod.evaluate(&lab.context());
        assert_eq!((verdict.passed, verdict.message.as_str()), (false, "you have not run kubectl delete pod yet"));
        lab.run("kubectl delete pod nope\nkubectl delete -n default deploy/hello");
        assert!(!delete_pod.evaluate(&lab.context()).passed, "a failed command does not count");
        let verdict = check("ran: {verb: delete, resource: deployments}").evaluate(&lab.context());
        assert_eq!(
            (verdict.passed, verdict.message.as_str()),
            (true, "you ran kubectl delete -n default deploy/hello")
        );
    }

    #[test]
    fn subcommands_and_problems() {
        let mut lab = hello_lab(10);
        lab.run("kubectl rollout restart deployment hello");
        assert!(check("ran: {verb: rollout restart}").evaluate(&lab.context()).passed);
        assert!(!check("ran: {verb: rollout undo}").evaluate(&lab.context()).passed);
        assert_eq!(check("ran: {verb: teleport}").problems().len(), 1);
        assert_eq!(check("ran: {verb: get, resource: gadgets}").problems().len(), 1);
        assert_eq!(check("ran: {verb: logs, flag: -p}").problems().len(), 1);
    }

    #[test]
    fn names_and_flags() {
        let mut lab = hello_lab(10);
        let previous = check("ran: {verb: logs, name: crashy, flag: --previous}");
        lab.run("kubectl run crashy --image=crashy\nsleep 30s\nkubectl logs crashy\nkubectl logs hello --previous");
        let verdict = previous.evaluate(&lab.context());
        assert_eq!(verdict.message, "you have not run kubectl logs crashy --previous yet");
        lab.run("kubectl logs pod/crashy -p");
        assert!(previous.evaluate(&lab.context()).passed);
        let described = check("ran: {verb: describe, resource: pod, name_prefix: hello-}");
        lab.run(
            "kubectl describe pod crashy\nkubectl describe pods -l app=nothing\nkubectl describe pods -n kube-public",
        );
        assert!(!described.evaluate(&lab.context()).passed, "a describe that found nothing described nothing");
        lab.run("kubectl describe pods");
        assert!(described.evaluate(&lab.context()).passed, "naming nothing covers every pod");
        let system = check("ran: {verb: get, resource: pods, namespace: kube-system}");
        lab.run("kubectl get pods\nkubectl get pods -n kube-public");
        assert!(!system.evaluate(&lab.context()).passed, "another namespace's pods are not kube-system's");
        lab.run("kubectl get pods --namespace=kube-system");
        assert!(system.evaluate(&lab.context()).passed);
    }
}
