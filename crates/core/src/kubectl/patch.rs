//! `kubectl patch TYPE NAME -p PATCH [--type strategic|merge|json]`: change fields of a live
//! object. Mirrors staging/src/k8s.io/kubectl/pkg/cmd/patch/patch.go; the strategic merge
//! subset is in `strategic_merge.rs`, JSON patch (RFC 6902) and merge patch (RFC 7386) come
//! from the json-patch crate.

use super::args::{Args, Flag};
use super::output::Output;
use super::print_flags::{self, DRY_RUN, DryRun, OUTPUT};
use super::resource_args;
use super::{Context, Verb, namespace_of, strategic_merge};
use crate::api::{Kind, codec};
use serde_json::Value;

pub const VERB: Verb = Verb {
    name: "patch",
    short: "Update fields of a resource",
    usage: "kubectl patch (-f FILENAME | TYPE NAME) [-p PATCH|--patch-file FILE] [options]",
    flags: &[
        Flag::value("patch", Some('p'), "The patch to be applied to the resource JSON file."),
        Flag::value("patch-file", None, "A file containing a patch to be applied to the resource."),
        Flag::value("type", None, "The type of patch being provided; one of [json merge strategic]"),
        DRY_RUN,
        OUTPUT,
    ],
    run,
};

#[derive(Clone, Copy, PartialEq, Eq)]
enum PatchType {
    Json,
    Merge,
    Strategic,
}

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    match prepare(ctx, &args) {
        Ok((targets, patch_type, patch)) => patch_all(ctx, &args, &targets, patch_type, &patch),
        Err(message) => Output::failed(message),
    }
}

type Prepared = (Vec<(Kind, String)>, PatchType, Value);

fn prepare(ctx: &Context<'_>, args: &Args) -> Result<Prepared, String> {
    print_flags::parse(args)?;
    let patch_type = match args.get("type").unwrap_or("strategic") {
        "json" => PatchType::Json,
        "merge" => PatchType::Merge,
        "strategic" => PatchType::Strategic,
        other => return Err(format!("error: --type must be one of [json merge strategic], not {other:?}")),
    };
    let text = match (args.get("patch"), args.get("patch-file")) {
        (Some(_), Some(_)) => return Err("error: cannot specify --patch and --patch-file together".into()),
        (Some(text), None) => text.to_string(),
        (None, Some(path)) => ctx.files.read_file(path).map_err(|e| format!("error: {e}"))?,
        (None, None) => {
            return Err("error: must specify --patch or --patch-file containing the contents of the patch".into());
        }
    };
    let patch: Value =
        serde_yaml::from_str(&text).map_err(|e| format!("error: unable to parse {text:?}: yaml: {e}"))?;
    if args.positionals.is_empty() {
        return Err("error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'".into());
    }
    let request = resource_args::parse(ctx.sim.store(), &args.positionals)?;
    if request.named.is_empty() {
        return Err("error: resource(s) were provided, but no name was specified".into());
    }
    Ok((request.named, patch_type, patch))
}

fn patch_all(
    ctx: &mut Context<'_>,
    args: &Args,
    targets: &[(Kind, String)],
    patch_type: PatchType,
    patch: &Value,
) -> Output {
    let (dry_run, printer) = print_flags::parse(args).unwrap_or((DryRun::None, print_flags::Printer::Operation));
    let namespace = namespace_of(args);
    let mut out = Output::default();
    for (kind, name) in targets {
        match patch_one(ctx, (*kind, &namespace, name), patch_type, patch, dry_run) {
            Ok((object, changed)) => {
                let operation = if changed { "patched" } else { "patched (no change)" };
                print_flags::print(&mut out, printer, dry_run, &object, operation);
            }
            Err(message) => out.error(message),
        }
    }
    out
}

/// Applies the patch to the live object and writes it back; returns the result and whether
/// anything changed.
fn patch_one(
    ctx: &mut Context<'_>,
    (kind, namespace, name): (Kind, &str, &str),
    patch_type: PatchType,
    patch: &Value,
    dry_run: DryRun,
) -> Result<(Value, bool), String> {
    let live = ctx.sim.store().get_object(kind, namespace, name).map_err(|e| e.to_string())?;
    let original = live.to_json_value();
    let mut patched = original.clone();
    match patch_type {
        PatchType::Merge => json_patch::merge(&mut patched, patch),
        PatchType::Strategic => strategic_merge::apply(&mut patched, patch),
        PatchType::Json => {
            let operations: json_patch::Patch = serde_json::from_value(patch.clone()).map_err(|e| {
                format!("Error from server (BadRequest): json: cannot unmarshal object into Go value of type jsonpatch.Patch ({e})")
            })?;
            json_patch::patch(&mut patched, &operations).map_err(|e| {
                format!("The request is invalid: the server rejected our request due to an error in our request ({e})")
            })?;
        }
    }
    let object = codec::decode(patched).map_err(|e| format!("Error from server (BadRequest): {e}"))?;
    if object.metadata().name != name {
        return Err(
            "Error from server (BadRequest): the name of the object (patched) does not match the name on the URL"
                .into(),
        );
    }
    let written = match dry_run {
        DryRun::Client | DryRun::Server => ctx.api().dry_run(true).update(object),
        DryRun::None => ctx.api().update(object),
    };
    let written = written.map_err(|e| e.to_string())?.to_json_value();
    let changed = written != original;
    Ok((written, changed))
}

#[cfg(test)]
mod tests {
    use crate::api::Deployment;
    use crate::kubectl::create::tests::kubectl;
    use crate::sim::Sim;

    fn image(sim: &Sim) -> String {
        let d = sim.store().get::<Deployment>("default", "hello").unwrap();
        d.spec.template.spec.containers[0].image.clone().unwrap_or_default()
    }

    #[test]
    fn patches_of_every_type() {
        let mut sim = Sim::default();
        kubectl(&mut sim, "create deployment hello --image=hello:v1");
        let (text, _) = kubectl(&mut sim, r#"patch deploy hello -p '{"spec":{"replicas":2}}'"#);
        assert_eq!(text, "deployment.apps/hello patched\n");
        let (text, _) = kubectl(&mut sim, r#"patch deploy hello -p '{"spec":{"replicas":2}}'"#);
        assert_eq!(text, "deployment.apps/hello patched (no change)\n");
        let strategic = r#"patch deploy/hello -p '{"spec":{"template":{"spec":{"containers":[{"name":"hello","image":"hello:v2"}]}}}}'"#;
        let (text, _) = kubectl(&mut sim, strategic);
        assert_eq!(text, "deployment.apps/hello patched\n");
        assert_eq!(image(&sim), "hello:v2");
        let json = r#"patch deploy hello --type json -p '[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"hello:v3"}]'"#;
        let (text, _) = kubectl(&mut sim, json);
        assert_eq!(text, "deployment.apps/hello patched\n");
        assert_eq!(image(&sim), "hello:v3");
        let (text, _) =
            kubectl(&mut sim, r#"patch deploy hello --type merge -p '{"metadata":{"labels":{"tier":"fe"}}}'"#);
        assert_eq!(text, "deployment.apps/hello patched\n");
    }

    #[test]
    fn patch_errors_read_like_kubectl() {
        let mut sim = Sim::default();
        kubectl(&mut sim, "create deployment hello --image=hello:v1");
        let (text, _) = kubectl(&mut sim, "patch deploy hello");
        assert_eq!(text, "error: must specify --patch or --patch-file containing the contents of the patch\n");
        let (text, _) = kubectl(&mut sim, "patch deploy hello --type=xml -p '{}'");
        assert_eq!(text, "error: --type must be one of [json merge strategic], not \"xml\"\n");
        let (text, _) = kubectl(&mut sim, r#"patch deploy nope -p '{"spec":{}}'"#);
        assert_eq!(text, "Error from server (NotFound): deployments.apps \"nope\" not found\n");
        let (text, code) = kubectl(&mut sim, r#"patch deploy hello -p '{"spec":{"replicas":-1}}'"#);
        assert_eq!(code, 1);
        assert!(text.starts_with("The Deployment \"hello\" is invalid: spec.replicas"), "{text}");
    }
}
