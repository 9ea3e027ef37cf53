//! `kubectl kustomize DIR` (staging/src/k8s.io/kubectl/pkg/cmd/kustomize, kustomize's
//! `build` command): prints what the kustomization builds, each object as YAML
//! (resmap.AsYaml: sigs.k8s.io/yaml, keys sorted) with `---` lines between them.

use super::super::args::Args;
use super::super::output::Output;
use super::super::yaml::to_yaml;
use super::super::{Context, Verb};

pub const VERB: Verb = Verb {
    name: "kustomize",
    short: "Build a kustomization target from a directory or URL",
    usage: "kubectl kustomize DIR [flags] [options]",
    flags: &[],
    run,
};

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let dir = match args.positionals.as_slice() {
        [] => ".",
        [dir] => dir.as_str(),
        _ => return Output::failed("error: specify one path to kustomization.yaml"),
    };
    let mut out = Output::default();
    match super::build_with_warnings(ctx.files, dir) {
        Ok(build) => {
            for warning in build.warnings {
                out.warn(warning);
            }
            out.raw(render(&build.objects));
        }
        Err(message) => out.error(message),
    }
    out
}

/// resmap.AsYaml: the documents with `---` between them (none before the first or after the last).
pub fn render(objects: &[serde_json::Value]) -> String {
    objects.iter().map(to_yaml).collect::<Vec<_>>().join("---\n")
}
