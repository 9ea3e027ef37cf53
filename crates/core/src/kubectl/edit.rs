//! `kubectl edit TYPE NAME`: the object as YAML in an editor, the saved text sent back. In a
//! script (and, later, the browser's editor) the saved text is given: a heredoc on the line,
//! or `edit_with`. Mirrors staging/src/k8s.io/kubectl/pkg/cmd/edit/edit.go and
//! pkg/cmd/util/editor/editoptions.go (without its second round in the editor: an invalid
//! edit is reported and cancelled).

use super::args::Args;
use super::output::Output;
use super::print_flags::resource_name;
use super::resource_args;
use super::{Context, Verb, namespace_of};
use crate::api::{Kind, codec};
use crate::manifest;
use serde_json::Value;

pub const VERB: Verb = Verb {
    name: "edit",
    short: "Edit a resource on the server",
    usage: "kubectl edit (RESOURCE/NAME | -f FILENAME) [options]",
    flags: &[],
    run,
};

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let target = match target(ctx.sim.store(), &args) {
        Ok(target) => target,
        Err(message) => return Output::failed(message),
    };
    let Some(text) = ctx.stdin.map(str::to_string) else {
        return Output::failed(
            "error: no editor here: give the edited object on the line's stdin (kubectl edit TYPE NAME <<EOF … EOF)",
        );
    };
    let namespace = namespace_of(&args);
    edit_with(ctx, target.0, &namespace, &target.1, &text)
}

fn target(store: &crate::store::Store, args: &Args) -> Result<(Kind, String), String> {
    if args.positionals.is_empty() {
        return Err("error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'".into());
    }
    let request = resource_args::parse(store, &args.positionals)?;
    match request.named.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err("error: resource(s) were provided, but no name was specified".into()),
        _ => Err("error: edit of several objects at once is not supported here".into()),
    }
}

/// Sends `new_text` (what the editor saved) in place of the live object: `KIND/NAME edited`,
/// `Edit cancelled, no changes made.` when nothing changed, or kubectl's refusal.
pub fn edit_with(ctx: &mut Context<'_>, kind: Kind, namespace: &str, name: &str, new_text: &str) -> Output {
    let live = match ctx.sim.store().get_object(kind, namespace, name) {
        Ok(live) => live,
        Err(err) => return Output::failed(err.to_string()),
    };
    // The editor shows the object without managedFields; they are put back as they were.
    let original = super::managed_fields::omit(live.to_json_value());
    let edited = match manifest::parse_documents(new_text) {
        Ok(documents) => documents.into_iter().next(),
        Err(err) => return cancelled(&format!("error: The edited file had a syntax error: {err}")),
    };
    let Some(edited) = edited else {
        let mut out = Output::default();
        out.warn("Edit cancelled, saved file was empty.");
        return out;
    };
    if edited == original {
        let mut out = Output::default();
        out.warn("Edit cancelled, no changes made.");
        return out;
    }
    let identity =
        |v: &Value| (v.get("apiVersion").cloned(), v.get("kind").cloned(), v.pointer("/metadata/name").cloned());
    if identity(&edited) != identity(&original) {
        return cancelled("error: At least one of apiVersion, kind and name was changed");
    }
    let object = match codec::decode(edited) {
        Ok(object) => object,
        Err(err) => return cancelled(&format!("error: {err}")),
    };
    let written = ctx.api().update(object);
    match written {
        Ok(_) => {
            let mut out = Output::default();
            out.line(format!("{} edited", resource_name(kind, name)));
            out
        }
        Err(err) => cancelled(&err.to_string()),
    }
}

fn cancelled(reason: &str) -> Output {
    let mut out = Output::failed(reason);
    out.error("error: Edit cancelled, no valid changes were saved.");
    out
}

#[cfg(test)]
mod tests {
    use crate::api::ConfigMap;
    use crate::kubectl::create::tests::{kubectl, kubectl_in};
    use crate::sim::Sim;

    #[test]
    fn edits_are_replaces_with_edit_wording() {
        let mut sim = Sim::default();
        kubectl(&mut sim, "create configmap cfg --from-literal=color=red");
        let (current, _) = kubectl(&mut sim, "get cm cfg -o yaml");
        let (text, code) = kubectl_in(&mut sim, "edit cm/cfg", Some(&current));
        assert_eq!((text.as_str(), code), ("Edit cancelled, no changes made.\n", 0));
        let edited = current.replace("color: red", "color: blue");
        let (text, _) = kubectl_in(&mut sim, "edit configmap cfg", Some(&edited));
        assert_eq!(text, "configmap/cfg edited\n");
        assert_eq!(sim.store().get::<ConfigMap>("default", "cfg").unwrap().data.get("color"), Some("blue"));
        let renamed = edited.replace("name: cfg", "name: other");
        let (text, code) = kubectl_in(&mut sim, "edit cm cfg", Some(&renamed));
        assert_eq!(code, 1);
        assert_eq!(
            text,
            "error: At least one of apiVersion, kind and name was changed\nerror: Edit cancelled, no valid changes were saved.\n"
        );
        let (text, _) = kubectl_in(&mut sim, "edit cm nope", Some(&edited));
        assert_eq!(text, "Error from server (NotFound): configmaps \"nope\" not found\n");
    }
}
