//! `kubectl create namespace NAME`. Mirrors staging/src/k8s.io/kubectl/pkg/cmd/create/create_namespace.go.

use super::one_name;
use crate::kubectl::args::Args;
use crate::kubectl::output::Output;
use crate::kubectl::print_flags::Refusal;
use crate::kubectl::print_flags::{self, DRY_RUN, OUTPUT};
use crate::kubectl::{Context, Verb};
use serde_json::json;

pub const VERB: Verb = Verb {
    name: "create namespace",
    short: "Create a namespace with the specified name",
    usage: "kubectl create namespace NAME [--dry-run=server|client|none] [options]",
    flags: &[DRY_RUN, OUTPUT],
    run,
};

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let name = match one_name(&args, &VERB) {
        Ok(name) => name,
        Err(message) => return Output::failed(message),
    };
    let namespace = json!({
        "apiVersion": "v1",
        "kind": "Namespace",
        "metadata": {"name": name},
        "spec": {},
        "status": {},
    });
    print_flags::create(ctx, &args, namespace, Refusal::Server)
}

#[cfg(test)]
mod tests {
    use crate::kubectl::create::tests::kubectl;
    use crate::sim::Sim;

    #[test]
    fn namespaces_are_created_once() {
        let mut sim = Sim::default();
        let (text, _) = kubectl(&mut sim, "create namespace staging --dry-run=client -o yaml");
        assert_eq!(text, "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: staging\nspec: {}\nstatus: {}\n");
        let (text, _) = kubectl(&mut sim, "create ns staging");
        assert_eq!(text, "namespace/staging created\n");
        let (text, code) = kubectl(&mut sim, "create namespace staging");
        assert_eq!(
            (text.as_str(), code),
            ("Error from server (AlreadyExists): namespaces \"staging\" already exists\n", 1)
        );
    }
}
