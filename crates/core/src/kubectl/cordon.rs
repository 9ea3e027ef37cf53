//! `kubectl cordon NODE` and `kubectl uncordon NODE`: mark a node (un)schedulable. Mirrors
//! staging/src/k8s.io/kubectl/pkg/cmd/drain/drain.go (NewCmdCordon, NewCmdUncordon) and
//! pkg/drain/cordon.go (CordonHelper).

use super::args::{Args, Flag};
use super::output::Output;
use super::{Context, UsageError, Verb};
use crate::api::Node;
use crate::api::labels::Selector;
use crate::store::FieldSelector;

pub const CORDON: Verb = Verb {
    name: "cordon",
    short: "Mark node as unschedulable",
    usage: "kubectl cordon NODE [options]",
    flags: FLAGS,
    run: |ctx, args| run(ctx, &args, "cordon", true),
};

pub const UNCORDON: Verb = Verb {
    name: "uncordon",
    short: "Mark node as schedulable",
    usage: "kubectl uncordon NODE [options]",
    flags: FLAGS,
    run: |ctx, args| run(ctx, &args, "uncordon", false),
};

const FLAGS: &[Flag] = &[Flag::value("selector", Some('l'), "Selector (label query) to filter on")];

fn run(ctx: &mut Context<'_>, args: &Args, verb: &str, desired: bool) -> Output {
    let nodes = match node_names(ctx, args, verb) {
        Ok(nodes) => nodes,
        Err(message) => return Output::failed(message),
    };
    let mut out = Output::default();
    for name in nodes {
        match set_unschedulable(ctx, &name, desired) {
            Ok(line) => out.line(line),
            Err(message) => out.error(message),
        }
    }
    out
}

/// The nodes a node verb names: `NODE…` or `-l SELECTOR`; kubectl's usage error for neither.
pub fn node_names(ctx: &Context<'_>, args: &Args, verb: &str) -> Result<Vec<String>, String> {
    if let Some(text) = args.get("selector") {
        let labels = Selector::parse(text).map_err(|e| format!("error: {e}"))?;
        let fields = FieldSelector::everything();
        return Ok(ctx
            .sim
            .store()
            .list_selected::<Node>(None, &labels, &fields)
            .map(|n| n.metadata.name.clone())
            .collect());
    }
    if args.positionals.is_empty() {
        return Err(UsageError::command(format!("USAGE: {verb} NODE [flags]")).render(verb));
    }
    Ok(args.positionals.iter().map(|n| n.strip_prefix("node/").unwrap_or(n).to_string()).collect())
}

/// Upstream `CordonHelper`: writes `spec.unschedulable` only when it differs; returns
/// `node/NAME cordoned`, `… already uncordoned`, ….
pub fn set_unschedulable(ctx: &mut Context<'_>, name: &str, desired: bool) -> Result<String, String> {
    let mut node = ctx.sim.store().get::<Node>("", name).map_err(|e| e.to_string())?.clone();
    let operation = if desired { "cordoned" } else { "uncordoned" };
    if node.spec.unschedulable.unwrap_or(false) == desired {
        return Ok(format!("node/{name} already {operation}"));
    }
    node.spec.unschedulable = desired.then_some(true);
    let written = ctx.api().update_typed(node);
    written.map(|_| format!("node/{name} {operation}")).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use crate::api::Node;
    use crate::kubectl::create::tests::kubectl;
    use crate::sim::Sim;

    fn unschedulable(sim: &Sim) -> Option<bool> {
        sim.store().get::<Node>("", "node-1").unwrap().spec.unschedulable
    }

    #[test]
    fn cordon_and_uncordon_report_what_they_changed() {
        let mut sim = Sim::new(1, &crate::cluster::ClusterSpec::default());
        let (text, _) = kubectl(&mut sim, "cordon node-1");
        assert_eq!(text, "node/node-1 cordoned\n");
        assert_eq!(unschedulable(&sim), Some(true));
        let (text, _) = kubectl(&mut sim, "cordon node-1");
        assert_eq!(text, "node/node-1 already cordoned\n");
        let (text, _) = kubectl(&mut sim, "uncordon node/node-1");
        assert_eq!(text, "node/node-1 uncordoned\n");
        assert_eq!(unschedulable(&sim), None);
        let (text, _) = kubectl(&mut sim, "uncordon node-1");
        assert_eq!(text, "node/node-1 already uncordoned\n");
        let (text, code) = kubectl(&mut sim, "cordon nope");
        assert_eq!((text.as_str(), code), ("Error from server (NotFound): nodes \"nope\" not found\n", 1));
        let (text, _) = kubectl(&mut sim, "cordon");
        assert_eq!(text, "error: USAGE: cordon NODE [flags]\nSee 'kubectl cordon -h' for help and examples\n");
    }
}
