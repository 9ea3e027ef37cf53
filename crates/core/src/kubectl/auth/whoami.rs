//! `kubectl auth whoami`: the SelfSubjectReview's user (authentication.k8s.io/v1), printed as
//! pkg/cmd/auth/whoami.go's table (`ATTRIBUTE  VALUE`: Username, Groups) or as the review
//! object with `-o yaml|json`.

use crate::kubectl::args::{Args, Flag};
use crate::kubectl::output::{DocumentFormat, Output, Table};
use crate::kubectl::{Context, Verb};
use crate::store::UserInfo;
use serde_json::{Value, json};

pub const VERB: Verb = Verb {
    name: "auth whoami",
    short: "Experimental: Check self subject attributes",
    usage: "kubectl auth whoami [options]",
    flags: &[Flag::value(
        "output",
        Some('o'),
        "Output format. One of: (json, yaml, name, go-template, go-template-file, template, templatefile, jsonpath, jsonpath-as-json, jsonpath-file).",
    )],
    run,
};

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let user = ctx.sim.kubectl_user();
    let mut out = Output::default();
    match args.get("output") {
        None | Some("") => out.table(table(&user)),
        Some("yaml") => out.document(review(&user), DocumentFormat::Yaml),
        Some("json") => out.document(review(&user), DocumentFormat::Json),
        Some(other) => {
            return Output::failed(format!(
                "error: unable to match a printer suitable for the output format \"{other}\", allowed formats are: json,yaml"
            ));
        }
    }
    out
}

/// The table: Username, then Groups as Go prints a `[]string`.
pub fn table(user: &UserInfo) -> Table {
    let mut rows = vec![vec!["Username".to_string(), user.name.clone()]];
    if !user.groups.is_empty() {
        rows.push(vec!["Groups".to_string(), format!("[{}]", user.groups.join(" "))]);
    }
    Table { headers: vec!["ATTRIBUTE".into(), "VALUE".into()], rows }
}

/// The SelfSubjectReview the API server answers with.
fn review(user: &UserInfo) -> Value {
    json!({
        "apiVersion": "authentication.k8s.io/v1",
        "kind": "SelfSubjectReview",
        "metadata": {},
        "status": {"userInfo": {"groups": user.groups, "username": user.name}},
    })
}
