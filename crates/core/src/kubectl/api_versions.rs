//! `kubectl api-versions`: every group/version discovery lists, sorted, one per line (the core
//! group's `v1` among them). Mirrors staging/src/k8s.io/kubectl/pkg/cmd/apiresources/apiversions.go:
//! `ServerGroups`, `metav1.ExtractGroupVersions`, `sort.Strings`.

use super::args::Args;
use super::output::Output;
use super::usage_error::UsageError;
use super::{Context, Verb};
use crate::apiserver::rest::{self, HttpRequest};
use serde_json::Value;

pub const VERB: Verb = Verb {
    name: "api-versions",
    short: "Print the supported API versions on the server, in the form of \"group/version\"",
    usage: "kubectl api-versions [flags]",
    flags: &[],
    run,
};

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    if !args.positionals.is_empty() {
        // `Complete`'s `UsageErrorf(cmd, "unexpected arguments: %v", args)`: Go prints a slice as `[a b]`.
        let words = args.positionals.join(" ");
        return UsageError::command(format!("unexpected arguments: [{words}]")).output(VERB.name);
    }
    let mut versions = Vec::new();
    for path in ["/api", "/apis"] {
        let user = ctx.sim.kubectl_user();
        let request = HttpRequest { method: "GET", path, accept: "application/json", ..HttpRequest::default() };
        let document: Value = serde_json::from_str(&rest::serve(ctx.sim, user, &request).body).unwrap_or_default();
        versions.extend(group_versions(&document));
    }
    versions.sort();
    let mut out = Output::default();
    for version in versions {
        out.line(version);
    }
    out
}

/// `/api` lists bare versions; `/apis` lists each group's `groupVersion`s.
fn group_versions(document: &Value) -> Vec<String> {
    let bare = document["versions"].as_array().into_iter().flatten().filter_map(Value::as_str);
    let grouped = document["groups"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|group| group["versions"].as_array().into_iter().flatten())
        .filter_map(|version| version["groupVersion"].as_str());
    bare.chain(grouped).map(str::to_string).collect()
}

#[cfg(test)]
mod tests {
    use crate::kubectl::rollout::fixtures::kubectl;
    use crate::sim::Sim;

    #[test]
    fn versions_are_listed_sorted_with_the_core_group_last() {
        let mut sim = Sim::default();
        let (text, code) = kubectl(&mut sim, "api-versions");
        assert_eq!(code, 0);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.first(), Some(&"admissionregistration.k8s.io/v1"));
        assert!(lines.contains(&"apps/v1") && lines.contains(&"metrics.k8s.io/v1beta1"), "{text}");
        assert_eq!(lines.last(), Some(&"v1"));
        let mut sorted = lines.clone();
        sorted.sort_unstable();
        assert_eq!(lines, sorted);
        let (text, code) = kubectl(&mut sim, "api-versions foo bar");
        assert_eq!(
            (text.as_str(), code),
            ("error: unexpected arguments: [foo bar]\nSee 'kubectl api-versions -h' for help and examples\n", 1)
        );
    }
}
