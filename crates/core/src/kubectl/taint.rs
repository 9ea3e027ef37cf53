//! `kubectl taint nodes NAME key=value:Effect | key:Effect- | key-`. Mirrors
//! staging/src/k8s.io/kubectl/pkg/cmd/taint (taint.go, utils.go).

use super::args::{Args, Flag};
use super::output::Output;
use super::{Context, UsageError, Verb};
use crate::api::Node;
use crate::api::labels::{Selector, validate_label_key, validate_label_value};
use crate::api::node::Taint;
use crate::store::FieldSelector;

pub const VERB: Verb = Verb {
    name: "taint",
    short: "Update the taints on one or more nodes",
    usage: "kubectl taint NODE NAME KEY_1=VAL_1:TAINT_EFFECT_1 ... KEY_N=VAL_N:TAINT_EFFECT_N [options]",
    flags: &[
        Flag::switch(
            "overwrite",
            None,
            "If true, allow taints to be overwritten, otherwise reject taint updates that overwrite existing taints.",
        ),
        Flag::value(
            "selector",
            Some('l'),
            "Selector (label query) to filter on, supports '=', '==', '!=', 'in', 'notin'.",
        ),
        Flag::switch("all", None, "Select all nodes in the cluster"),
    ],
    run,
};

const EFFECTS: &[&str] = &["NoSchedule", "PreferNoSchedule", "NoExecute"];

fn usage(message: &str) -> String {
    UsageError::command(message).render("taint")
}

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let (nodes, add, remove) = match prepare(ctx, &args) {
        Ok(prepared) => prepared,
        Err(message) => return Output::failed(message),
    };
    let overwrite = args.switch("overwrite");
    let mut out = Output::default();
    for name in nodes {
        match taint_one(ctx, &name, &add, &remove, overwrite) {
            Ok(operation) => out.line(format!("node/{name} {operation}")),
            Err(message) => out.error(message),
        }
    }
    out
}

type Prepared = (Vec<String>, Vec<Taint>, Vec<Taint>);

/// Upstream `Complete` and `Validate`: resources before taints, node types only, no taint both
/// added and removed, names unless `--all` or `-l`.
fn prepare(ctx: &Context<'_>, args: &Args) -> Result<Prepared, String> {
    let mut resources = Vec::new();
    let mut specs = Vec::new();
    for arg in &args.positionals {
        let is_taint = arg.contains('=') || arg.contains(':') || arg.ends_with('-');
        match (is_taint, specs.is_empty()) {
            (true, _) => specs.push(arg.clone()),
            (false, true) => resources.push(arg.clone()),
            (false, false) => {
                return Err(format!("error: all resources must be specified before taint changes: {arg}"));
            }
        }
    }
    if let Some((type_, name)) =
        resources.first().and_then(|r| r.split_once('/')).map(|(t, n)| (t.to_string(), n.to_string()))
    {
        resources.splice(0..1, [type_, name]);
    }
    let Some(type_) = resources.first() else {
        return Err("error: one or more resources must be specified as <resource> <name>".into());
    };
    if specs.is_empty() {
        return Err("error: at least one taint update is required".into());
    }
    let (add, remove) = parse_taints(&specs).map_err(|e| usage(&e))?;
    match crate::api::Kind::from_cli_name(type_) {
        Some(crate::api::Kind::Node) => {}
        Some(_) => {
            return Err(format!(
                "error: invalid resource type {}, only node types are supported",
                type_.to_lowercase()
            ));
        }
        None => return Err(super::resource_args::unknown_type(type_)),
    }
    check_conflicts(&add, &remove)?;
    let (all, selector) = (args.switch("all"), args.get("selector").filter(|s| !s.is_empty()));
    if all && selector.is_some() {
        return Err("error: setting 'all' parameter with a non empty selector is prohibited".into());
    }
    if !all && selector.is_none() {
        if resources.len() < 2 {
            return Err("error: at least one resource name must be specified since 'all' parameter is not set".into());
        }
        return Ok((resources[1..].to_vec(), add, remove));
    }
    let labels = Selector::parse(selector.unwrap_or("")).map_err(|e| format!("error: {e}"))?;
    let fields = FieldSelector::everything();
    let nodes =
        ctx.sim.store().list_selected::<Node>(None, &labels, &fields).map(|n| n.metadata.name.clone()).collect();
    Ok((nodes, add, remove))
}

fn check_conflicts(add: &[Taint], remove: &[Taint]) -> Result<(), String> {
    let conflicts: Vec<String> = add
        .iter()
        .flat_map(|a| remove.iter().filter(move |r| r.key == a.key && (r.effect.is_empty() || r.effect == a.effect)))
        .map(|r| format!("{{\"{}\":\"{}\"}}", r.key, r.effect))
        .collect();
    if conflicts.is_empty() {
        return Ok(());
    }
    Err(format!(
        "error: can not both modify and remove the following taint(s) in the same command: {}",
        conflicts.join(", ")
    ))
}

/// Upstream `parseTaints`: `k=v:E` and `k:E` add, `…-` removes (the effect optional there).
fn parse_taints(specs: &[String]) -> Result<(Vec<Taint>, Vec<Taint>), String> {
    let (mut add, mut remove): (Vec<Taint>, Vec<Taint>) = (Vec::new(), Vec::new());
    for spec in specs {
        if let Some(body) = spec.strip_suffix('-') {
            let taint = parse_taint(body)?;
            remove.push(Taint { value: None, ..taint });
            continue;
        }
        let taint = parse_taint(spec)?;
        if taint.effect.is_empty() {
            return Err(format!("invalid taint spec: {spec}"));
        }
        if add.iter().any(|t| t.key == taint.key && t.effect == taint.effect) {
            let value = taint.value.clone().unwrap_or_default();
            return Err(format!(
                "duplicated taints with the same key and effect: {{{} {value} {} <nil>}}",
                taint.key, taint.effect
            ));
        }
        add.push(taint);
    }
    Ok((add, remove))
}

/// Upstream `parseTaint`: `<key>=<value>:<effect>`, `<key>:<effect>` or `<key>`.
fn parse_taint(spec: &str) -> Result<Taint, String> {
    let parts: Vec<&str> = spec.split(':').collect();
    let (key_value, effect) = match parts.as_slice() {
        [key] => (*key, ""),
        [key_value, effect] => {
            if !EFFECTS.contains(effect) {
                return Err(format!("invalid taint effect: {effect}, unsupported taint effect"));
            }
            (*key_value, *effect)
        }
        _ => return Err(format!("invalid taint spec: {spec}")),
    };
    let (key, value) = match key_value.split('=').collect::<Vec<_>>().as_slice() {
        [key] => (key.to_string(), None),
        [key, value] if effect.is_empty() => {
            return Err(format!("invalid taint spec: {spec}, {}", key_problems(&format!("{key}={value}"))));
        }
        [key, value] => {
            let problems = validate_label_value(value);
            if !problems.is_empty() {
                return Err(format!("invalid taint spec: {spec}, {}", problems.join("; ")));
            }
            (key.to_string(), Some(value.to_string()))
        }
        _ => return Err(format!("invalid taint spec: {spec}")),
    };
    let problems = validate_label_key(&key);
    if !problems.is_empty() {
        return Err(format!("invalid taint spec: {spec}, {}", problems.join("; ")));
    }
    Ok(Taint { key, value: value.filter(|v| !v.is_empty()), effect: effect.to_string(), time_added: None })
}

fn key_problems(key: &str) -> String {
    validate_label_key(key).join("; ")
}

/// `key=value:Effect`, `key:Effect` or `key`, as upstream's `Taint.ToString` prints.
fn describe(taint: &Taint) -> String {
    let head = match &taint.value {
        Some(value) => format!("{}={value}", taint.key),
        None => taint.key.clone(),
    };
    if taint.effect.is_empty() { head } else { format!("{head}:{}", taint.effect) }
}

/// Upstream `updateTaints` and `reorganizeTaints`: returns `tainted`, `untainted` or `modified`.
fn taint_one(
    ctx: &mut Context<'_>,
    name: &str,
    add: &[Taint],
    remove: &[Taint],
    overwrite: bool,
) -> Result<&'static str, String> {
    let mut node = ctx.sim.store().get::<Node>("", name).map_err(|e| e.to_string())?.clone();
    let old = node.spec.taints.clone();
    if !overwrite {
        let existing: Vec<&str> = add
            .iter()
            .filter(|t| old.iter().any(|o| o.key == t.key && o.effect == t.effect))
            .map(|t| t.key.as_str())
            .collect();
        if !existing.is_empty() {
            return Err(format!(
                "error: node {name} already has {} taint(s) with same effect(s) and --overwrite is false",
                existing.join(",")
            ));
        }
    }
    let mut taints = add.to_vec();
    for taint in &old {
        if !taints.iter().any(|t| t.key == taint.key && t.effect == taint.effect) {
            taints.push(taint.clone());
        }
    }
    let added = old.len() != taints.len();
    let mut errors = Vec::new();
    let mut deleted = false;
    for taint in remove {
        let before = taints.len();
        taints.retain(|t| !(t.key == taint.key && (taint.effect.is_empty() || t.effect == taint.effect)));
        deleted = taints.len() != before;
        if !deleted {
            errors.push(format!("taint {:?} not found", describe(taint)));
        }
    }
    if !errors.is_empty() {
        return Err(super::set::aggregate(&errors));
    }
    node.spec.taints = taints;
    ctx.api().update_typed(node).map_err(|e| e.to_string())?;
    Ok(if (added && deleted) || overwrite {
        "modified"
    } else if added {
        "tainted"
    } else {
        "untainted"
    })
}

#[cfg(test)]
mod tests {
    use crate::api::Node;
    use crate::kubectl::create::tests::kubectl;
    use crate::sim::Sim;

    fn taints(sim: &Sim) -> Vec<String> {
        let node = sim.store().get::<Node>("", "node-1").unwrap();
        node.spec.taints.iter().map(super::describe).collect()
    }

    #[test]
    fn taints_are_added_and_removed() {
        let mut sim = Sim::new(1, &crate::cluster::ClusterSpec::default());
        let (text, _) = kubectl(&mut sim, "taint nodes node-1 dedicated=gpu:NoSchedule");
        assert_eq!(text, "node/node-1 tainted\n");
        assert_eq!(taints(&sim), ["dedicated=gpu:NoSchedule"]);
        let (text, _) = kubectl(&mut sim, "taint node node-1 dedicated=ml:NoSchedule");
        assert_eq!(
            text,
            "error: node node-1 already has dedicated taint(s) with same effect(s) and --overwrite is false\n"
        );
        let (text, _) = kubectl(&mut sim, "taint node node-1 dedicated=ml:NoSchedule --overwrite");
        assert_eq!(text, "node/node-1 modified\n");
        let (text, _) = kubectl(&mut sim, "taint node node-1 dedicated:NoSchedule-");
        assert_eq!(text, "node/node-1 untainted\n");
        assert!(taints(&sim).is_empty());
        let (text, _) = kubectl(&mut sim, "taint node node-1 dedicated-");
        assert_eq!(text, "error: taint \"dedicated\" not found\n");
    }

    #[test]
    fn taint_arguments_are_checked() {
        let mut sim = Sim::new(1, &crate::cluster::ClusterSpec::default());
        let (text, _) = kubectl(&mut sim, "taint nodes node-1 a=b:Sometimes");
        assert_eq!(
            text,
            "error: invalid taint effect: Sometimes, unsupported taint effect\nSee 'kubectl taint -h' for help and examples\n"
        );
        let (text, _) = kubectl(&mut sim, "taint pods web a=b:NoSchedule");
        assert_eq!(text, "error: invalid resource type pods, only node types are supported\n");
        let (text, _) = kubectl(&mut sim, "taint nodes node-1");
        assert_eq!(text, "error: at least one taint update is required\n");
        let (text, _) = kubectl(&mut sim, "taint nodes a=b:NoSchedule");
        assert_eq!(text, "error: at least one resource name must be specified since 'all' parameter is not set\n");
        let (text, _) = kubectl(&mut sim, "taint nodes nope a=b:NoSchedule");
        assert_eq!(text, "Error from server (NotFound): nodes \"nope\" not found\n");
    }
}
