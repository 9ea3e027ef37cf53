//! `kubectl wait`: waits, in virtual time, until every object named meets each `--for`
//! condition (a status condition, a JSONPath value, deletion or creation), printing
//! `pod/web condition met` as each is met. Mirrors staging/src/k8s.io/kubectl/pkg/cmd/wait/wait.go.

pub mod condition;
pub mod condition_funcs;
pub mod create;
pub mod delete;
pub mod json;
pub mod resource_finder;
pub mod wait_error;

use super::args::{Args, Flag};
use super::output::Output;
use super::print_flags::{self, DryRun, Printer};
use super::{Context, UsageError, Verb, usage_error};
use crate::api::Kind;
use crate::sim::time::{Duration, SimTime};
use condition_funcs::{ConditionFunc, condition_funcs_for};
use resource_finder::ResourceFinder;
use serde_json::Value;
use wait_error::WaitError;

pub const VERB: Verb = Verb {
    name: "wait",
    short: "Wait for a specific condition on one or many resources",
    usage: "kubectl wait ([-f FILENAME] | resource.group/resource.name | resource.group [(-l label | --all)]) [--for=create|--for=delete|--for condition=available|--for=jsonpath='{}'[=value]] [options]",
    flags: &[
        Flag::switch("all", None, "Select all resources in the namespace of the specified resource types"),
        Flag::switch(
            "all-namespaces",
            Some('A'),
            "If present, list the requested object(s) across all namespaces. Namespace in current context is ignored even if specified with --namespace.",
        ),
        Flag::value(
            "field-selector",
            None,
            "Selector (field query) to filter on, supports '=', '==', and '!='.(e.g. --field-selector key1=value1,key2=value2). The server only supports a limited number of field queries per type.",
        ),
        Flag::repeated("filename", Some('f'), "identifying the resource."),
        Flag::repeated(
            "for",
            None,
            "The condition to wait on: [create|delete|condition=condition-name[=condition-value]|jsonpath='{JSONPath expression}'=[JSONPath value]]. The default condition-value is true. Condition values are compared after Unicode simple case folding, which is a more general form of case-insensitivity. Multiple conditions are supported and AND'ed to each other in a sequential order. If --for=create is passed, it is always waited first.",
        ),
        print_flags::OUTPUT,
        Flag::value(
            "selector",
            Some('l'),
            "Selector (label query) to filter on, supports '=', '==', and '!='.(e.g. -l key1=value1,key2=value2)",
        ),
        Flag::value(
            "timeout",
            None,
            "The length of time to wait before giving up. Zero means check once and don't wait, negative means wait for a week.",
        ),
    ],
    run,
};

/// `--timeout` when not given (`NewWaitFlags`).
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// What a negative `--timeout` means: a week (`ToOptions`' `168 * time.Hour`).
const NEGATIVE_TIMEOUT: Duration = Duration::from_secs(168 * 3600);

/// How long the command may wait: upstream's `o.Timeout` of zero (look once), or the deadline
/// of the context `RunWaitContext` sets, which every object's wait shares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timeout {
    CheckOnce,
    Until(SimTime),
}

/// One object the finder fetched (cli-runtime's `resource.Info`): where it is and its body.
#[derive(Clone, Debug, PartialEq)]
pub struct Info {
    pub kind: Kind,
    pub namespace: String,
    pub name: String,
    pub object: Value,
}

impl Info {
    /// `Info.ObjectName`: the plural resource and the name (`pods/web-0`), as errors name it.
    pub fn object_name(&self) -> String {
        format!("{}/{}", self.kind.info().plural, self.name)
    }
}

/// What the command runs with (`WaitOptions`).
struct WaitOptions {
    timeout: Timeout,
    conditions: Vec<ConditionFunc>,
    printer: Printer,
}

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let timeout = match timeout_flag(&args) {
        Ok(timeout) => timeout,
        Err(usage) => return usage_error(&VERB, &usage),
    };
    // `ToOptions`' order: the printer, then the conditions; the finder's errors come when it is used.
    let printer = match print_flags::parse(&args) {
        Ok((_, printer)) => printer,
        Err(message) => return Output::failed(message),
    };
    let conditions = match condition_funcs_for(args.all("for")) {
        Ok(conditions) => conditions,
        Err(message) => return Output::failed(format!("error: {message}")),
    };
    let timeout = match timeout {
        None => Timeout::CheckOnce,
        Some(wait) => Timeout::Until(ctx.sim.now().plus(wait)),
    };
    let finder = match ResourceFinder::new(ctx, &args) {
        Ok(finder) => finder,
        Err(error) => return wait_error::report(Output::default(), vec![error]),
    };
    run_wait(ctx, &finder, &WaitOptions { timeout, conditions, printer })
}

/// `--timeout` as Go's `time.ParseDuration` reads it: `None` for zero (check once), a week
/// for a negative duration, 30s when not given.
fn timeout_flag(args: &Args) -> Result<Option<Duration>, UsageError> {
    let Some(text) = args.get("timeout") else { return Ok(Some(DEFAULT_TIMEOUT)) };
    let (negative, magnitude) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let parsed = Duration::parse(magnitude).map_err(|e| {
        // Go quotes the whole value it was given, sign included.
        let e = e.replace(&format!("\"{magnitude}\""), &format!("\"{text}\""));
        UsageError::flag(format!("invalid argument \"{text}\" for \"--timeout\" flag: {e}"))
    })?;
    Ok(match (negative, parsed) {
        (_, Duration::ZERO) => None,
        (true, _) => Some(NEGATIVE_TIMEOUT),
        (false, wait) => Some(wait),
    })
}

/// `RunWaitContext`: with `--for=create`, first poll until the objects exist; then visit each
/// object and wait for every condition on it in turn, printing each one met. An object's
/// failure is reported at the end and the others are still waited for (the builder's
/// ContinueOnError); a missing object is no failure when waiting for deletion.
fn run_wait(ctx: &mut Context<'_>, finder: &ResourceFinder, options: &WaitOptions) -> Output {
    let mut out = Output::default();
    if options.conditions.contains(&ConditionFunc::Create)
        && let Err(errors) = create::poll_until_found(ctx, finder, options.timeout)
    {
        return wait_error::report(out, errors);
    }
    let mut visit_count = 0;
    let mut errors = finder.visit(ctx, |ctx, info| {
        visit_count += 1;
        for condition in &options.conditions {
            let final_object = condition.wait(ctx, &info, options.timeout)?;
            print_flags::print(&mut out, options.printer, DryRun::None, &final_object, "condition met");
        }
        Ok(())
    });
    let is_for_delete = options.conditions.contains(&ConditionFunc::Delete);
    if is_for_delete {
        errors.retain(|error| !error.is_not_found());
    }
    if errors.is_empty() && visit_count == 0 && !is_for_delete {
        errors.push(WaitError::message("no matching resources found"));
    }
    wait_error::report(out, errors)
}

#[cfg(test)]
mod tests;
