//! `kubectl auth`: `can-i` (a SelfSubjectAccessReview, or with `--list` a
//! SelfSubjectRulesReview) and `whoami` (a SelfSubjectReview), as
//! staging/src/k8s.io/kubectl/pkg/cmd/auth prints them; and impersonation, which every verb's
//! `--as`/`--as-group` asks for.

pub mod can_i;
pub mod impersonation;
pub mod whoami;

use super::args::Args;
use super::output::Output;
use super::{Context, UsageError, Verb};

pub const VERB: Verb =
    Verb { name: "auth", short: "Inspect authorization", usage: "kubectl auth [flags] [options]", flags: &[], run };

pub const SUBCOMMANDS: &[Verb] = &[can_i::VERB, whoami::VERB];

fn run(_: &mut Context<'_>, args: Args) -> Output {
    match args.positionals.first() {
        Some(word) => UsageError::unknown_command(word).output("auth"),
        None => {
            let mut out = Output::default();
            out.line(super::verb_help(&VERB));
            out
        }
    }
}
