//! `kubectl replace -f FILE|-`: put a whole object in place of the live one (a PUT); the
//! object must exist. Mirrors staging/src/k8s.io/kubectl/pkg/cmd/replace/replace.go.

use super::apply::{api_error, decode_error, set_namespace, type_error};
use super::args::{Args, Flag};
use super::output::Output;
use super::print_flags::{self, DRY_RUN, DryRun, OUTPUT, Printer};
use super::resource_args::read_filenames;
use super::{Context, Verb};
use crate::api::codec;
use crate::kubectl::UsageError;
use serde_json::Value;

pub const VERB: Verb = Verb {
    name: "replace",
    short: "Replace a resource by file name or stdin",
    usage: "kubectl replace -f FILENAME [options]",
    flags: &[
        Flag::repeated("filename", Some('f'), "The files that contain the configurations to replace."),
        DRY_RUN,
        OUTPUT,
    ],
    run,
};

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let filenames = args.all("filename").to_vec();
    if filenames.is_empty() {
        return Output::failed(UsageError::command("must specify --filename to replace").render("replace"));
    }
    let flags = match print_flags::parse(&args) {
        Ok(flags) => flags,
        Err(message) => return Output::failed(message),
    };
    let namespace = args.get("namespace").map(str::to_string);
    let mut out = Output::default();
    for source in read_filenames(ctx, &filenames) {
        let documents = match source.documents {
            Ok(documents) => documents,
            Err(message) => {
                out.error(message);
                continue;
            }
        };
        for document in documents {
            if let Err(message) = replace_one(ctx, &source.name, document, namespace.as_deref(), flags, &mut out) {
                out.error(message);
            }
        }
    }
    if out.items.is_empty() {
        out.error("error: no objects passed to replace");
    }
    out
}

fn replace_one(
    ctx: &mut Context<'_>,
    source: &str,
    mut document: Value,
    namespace: Option<&str>,
    (dry_run, printer): (DryRun, Printer),
    out: &mut Output,
) -> Result<(), String> {
    let kind = codec::kind_of(&document).map_err(|e| type_error(&e, source, &document))?;
    super::resource_args::mapping(ctx.sim.store(), kind, &document, source)?;
    set_namespace(&mut document, kind.info().namespaced, namespace)?;
    let object = codec::decode(document).map_err(|e| decode_error(&e, "replacing", source))?;
    let meta = object.metadata();
    let (ns, name) = (meta.namespace.clone(), meta.name.clone());
    ctx.sim.store().get_object(kind, &ns, &name).map_err(|e| api_error(&e, "replacing", source))?;
    if dry_run == DryRun::Client {
        print_flags::print(out, printer, dry_run, &object.to_json_value(), "replaced");
        return Ok(());
    }
    let written = match dry_run {
        DryRun::Server => ctx.api().dry_run(true).update(object),
        _ => ctx.api().update(object),
    };
    let replaced = written.map_err(|e| api_error(&e, "replacing", source))?;
    print_flags::print(out, printer, dry_run, &replaced.to_json_value(), "replaced");
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::api::ConfigMap;
    use crate::kubectl::create::tests::{kubectl, kubectl_in};
    use crate::sim::Sim;

    const CONFIG: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\ndata:\n  color: blue\n";

    #[test]
    fn replace_needs_the_object_to_exist() {
        let mut sim = Sim::default();
        let (text, code) = kubectl_in(&mut sim, "replace -f -", Some(CONFIG));
        assert_eq!(
            (text.as_str(), code),
            ("Error from server (NotFound): error when replacing \"STDIN\": configmaps \"cfg\" not found\n", 1)
        );
        kubectl(&mut sim, "create configmap cfg --from-literal=color=red --from-literal=size=xl");
        let (text, _) = kubectl_in(&mut sim, "replace -f -", Some(CONFIG));
        assert_eq!(text, "configmap/cfg replaced\n");
        let cm = sim.store().get::<ConfigMap>("default", "cfg").unwrap();
        assert_eq!(cm.data.to_selector_string(), "color=blue");
        let (text, _) = kubectl(&mut sim, "replace");
        assert_eq!(text, "error: must specify --filename to replace\nSee 'kubectl replace -h' for help and examples\n");
    }
}
