//! `kubectl create serviceaccount NAME`. Mirrors
//! staging/src/k8s.io/kubectl/pkg/cmd/create/create_serviceaccount.go.

use super::{generated_metadata, one_name};
use crate::kubectl::args::Args;
use crate::kubectl::output::Output;
use crate::kubectl::print_flags::{self, DRY_RUN, OUTPUT, Refusal};
use crate::kubectl::{Context, Verb};
use serde_json::json;

pub const VERB: Verb = Verb {
    name: "create serviceaccount",
    short: "Create a service account with the specified name",
    usage: "kubectl create serviceaccount NAME [--dry-run=server|client|none] [options]",
    flags: &[DRY_RUN, OUTPUT],
    run,
};

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let name = match one_name(&args, &VERB) {
        Ok(name) => name,
        Err(message) => return Output::failed(message),
    };
    let account = json!({
        "apiVersion": "v1",
        "kind": "ServiceAccount",
        "metadata": generated_metadata(&args, &name, None),
    });
    print_flags::create(ctx, &args, account, Refusal::Prefixed("failed to create serviceaccount: "))
}
