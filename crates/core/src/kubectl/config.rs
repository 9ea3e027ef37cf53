//! `kubectl config`: the learner's kubeconfig, which has kind's one context, `kind-kind`.
//! `set-context --current --namespace=X` makes X the namespace of every later command that
//! names none; `current-context` and `get-contexts` show it. Mirrors
//! staging/src/k8s.io/kubectl/pkg/cmd/config (create_context.go, current_context.go,
//! get_contexts.go).

use super::args::{Args, Flag};
use super::output::{Output, Table};
use super::{Context, Verb, group_run};

/// The context (and its cluster and user) `kind create cluster` writes.
pub const CONTEXT: &str = "kind-kind";

pub const VERB: Verb = Verb {
    name: "config",
    short: "Modify kubeconfig files",
    usage: "kubectl config SUBCOMMAND [options]",
    flags: &[],
    run: |_ctx, args| group_run(&VERB, &args),
};

pub const SUBCOMMANDS: &[Verb] = &[CURRENT_CONTEXT, GET_CONTEXTS, SET_CONTEXT];

const SET_CONTEXT: Verb = Verb {
    name: "config set-context",
    short: "Set a context entry in kubeconfig",
    usage: "kubectl config set-context [NAME | --current] [--cluster=cluster_nickname] [--user=user_nickname] [--namespace=namespace] [options]",
    flags: &[
        Flag::switch("current", None, "Modify the current context"),
        Flag::value("cluster", None, "cluster for the context entry in kubeconfig"),
        Flag::value("user", None, "user for the context entry in kubeconfig"),
    ],
    run: set_context,
};

const CURRENT_CONTEXT: Verb = Verb {
    name: "config current-context",
    short: "Display the current-context",
    usage: "kubectl config current-context [options]",
    flags: &[],
    run: |_ctx, _args| {
        let mut out = Output::default();
        out.line(CONTEXT);
        out
    },
};

const GET_CONTEXTS: Verb = Verb {
    name: "config get-contexts",
    short: "Describe one or many contexts",
    usage: "kubectl config get-contexts [(-o|--output=)name)] [options]",
    flags: &[],
    run: get_contexts,
};

/// `create_context.go`: only the lab's context can be changed; its namespace is what changes.
fn set_context(ctx: &mut Context<'_>, args: Args) -> Output {
    let name = match (args.positionals.as_slice(), args.switch("current")) {
        ([], true) => CONTEXT,
        ([_, ..], true) => return Output::failed("error: you cannot specify both a context name and --current"),
        ([], false) => return Output::failed("error: you must specify a non-empty context name or --current"),
        ([name, ..], false) => name.as_str(),
    };
    if name != CONTEXT {
        return Output::failed(format!("error: this lab's kubeconfig has one context, {CONTEXT:?}, not {name:?}"));
    }
    if let Some(namespace) = args.get("namespace") {
        ctx.sim.set_context_namespace(Some(namespace.to_string()).filter(|n| !n.is_empty()));
    }
    let mut out = Output::default();
    out.line(format!("Context {CONTEXT:?} modified."));
    out
}

/// `get_contexts.go`: the one context, marked current, with its namespace.
fn get_contexts(ctx: &mut Context<'_>, _args: Args) -> Output {
    let namespace = ctx.sim.context_namespace().unwrap_or("").to_string();
    let headers = ["CURRENT", "NAME", "CLUSTER", "AUTHINFO", "NAMESPACE"].map(String::from).to_vec();
    let row = vec!["*".into(), CONTEXT.into(), CONTEXT.into(), CONTEXT.into(), namespace];
    let mut out = Output::default();
    out.table(Table { headers, rows: vec![row] });
    out
}

#[cfg(test)]
mod tests {
    use crate::kubectl::create::tests::kubectl;
    use crate::kubectl::fixture::lab;

    #[test]
    fn the_current_contexts_namespace_is_every_later_commands_default() {
        let mut sim = lab("kubectl create namespace team\nkubectl create configmap here -n team\n");
        assert_eq!(
            kubectl(&mut sim, "config set-context --current --namespace=team").0,
            "Context \"kind-kind\" modified.\n"
        );
        assert_eq!(kubectl(&mut sim, "get configmap here -o name").0, "configmap/here\n");
        assert_eq!(
            kubectl(&mut sim, "get configmap here -n default -o name").0.lines().next(),
            Some("Error from server (NotFound): configmaps \"here\" not found")
        );
        assert_eq!(
            kubectl(&mut sim, "config get-contexts").0,
            "CURRENT   NAME        CLUSTER     AUTHINFO    NAMESPACE\n*         kind-kind   kind-kind   kind-kind   team\n"
        );
        assert_eq!(kubectl(&mut sim, "config current-context").0, "kind-kind\n");
        let (text, code) = kubectl(&mut sim, "config set-context");
        assert_eq!((text.as_str(), code), ("error: you must specify a non-empty context name or --current\n", 1));
    }
}
