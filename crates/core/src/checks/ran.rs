//! `ran`: the learner ran a kubectl verb (and, optionally, on a kind of resource), successfully,
//! read from the lab's command history.
//!
//! ```yaml
//! ran: {verb: delete, resource: pod}
//! ran: {verb: rollout undo}
//! ```

use super::{Context, Verdict, parse_kind};
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
}

/// Flags whose value is the next word when written without `=`.
const VALUE_FLAGS: &[&str] =
    &["-n", "--namespace", "-l", "--selector", "-o", "--output", "-f", "--filename", "--field-selector", "--sort-by"];

impl RanCheck {
    pub fn problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        let verb = self.verb.split_whitespace().next().unwrap_or("");
        if !crate::kubectl::VERBS.iter().any(|v| v.name == verb) {
            problems.push(format!("ran: \"{}\" is not a kubectl verb", self.verb));
        }
        problems.extend(self.resource.as_deref().and_then(|r| parse_kind(r).err()));
        problems
    }

    pub fn evaluate(&self, ctx: &Context<'_>) -> Verdict {
        let resource = self.resource.as_deref().and_then(|r| parse_kind(r).ok());
        let wanted = match self.resource.as_deref() {
            Some(r) => format!("kubectl {} {r}", self.verb),
            None => format!("kubectl {}", self.verb),
        };
        let found =
            ctx.history.commands().iter().rev().find(|c| c.succeeded && self.matches(&c.kubectl_argv, resource));
        match found {
            Some(command) => Verdict::new(true, format!("you ran {}", command.line.lines().next().unwrap_or(""))),
            None => Verdict::new(false, format!("you have not run {wanted} yet")),
        }
    }

    fn matches(&self, argv: &[String], resource: Option<Kind>) -> bool {
        let words = positionals(argv);
        let verb: Vec<&str> = self.verb.split_whitespace().collect();
        if words.len() < verb.len() || words[..verb.len()] != verb[..] {
            return false;
        }
        let Some(resource) = resource else { return true };
        let named = words.get(verb.len()).map(|w| w.split('/').next().unwrap_or(w));
        named.and_then(|w| w.split(',').find_map(Kind::from_cli_name)) == Some(resource)
    }
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
    }
}
