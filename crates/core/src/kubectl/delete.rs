//! `kubectl delete`: by name, by file, by label selector or `--all`, with grace periods and
//! cascading (`--cascade=background|foreground|orphan`); then, unless `--wait=false`, waits
//! (moving virtual time) until the objects are gone. Mirrors pkg/cmd/delete/delete.go.

use super::args::{Args, Flag};
use super::output::Output;
use super::resource_args::{self, read_filenames};
use super::{Context, Verb, namespace_of};
use crate::api::codec;
use crate::api::labels::Selector;
use crate::api::meta::Uid;
use crate::api::{Kind, Object};
use crate::sim::time::Duration;
use crate::store::{DeleteOptions, Deleted, FieldSelector, PropagationPolicy};

/// kubectl waits up to a week without `--timeout`; a lab gives up after this much virtual time.
const DEFAULT_WAIT: Duration = Duration::from_secs(600);

pub const VERB: Verb = Verb {
    name: "delete",
    short: "Delete resources by file names, stdin, resources and names, or by resources and label selector",
    usage: "kubectl delete ([-f FILENAME] | TYPE [(NAME | -l label | --all)]) [options]",
    flags: &[
        Flag::repeated("filename", Some('f'), "containing the resource to delete."),
        Flag::value("selector", Some('l'), "Selector (label query) to filter on."),
        Flag::switch("all", None, "Delete all resources, in the namespace of the specified resource types."),
        Flag::switch("all-namespaces", Some('A'), "If present, list the requested object(s) across all namespaces."),
        Flag::value("grace-period", None, "Period of time in seconds given to the resource to terminate gracefully."),
        Flag::switch("now", None, "If true, resources are signaled for immediate shutdown (same as --grace-period=1)."),
        Flag::switch("force", None, "If true, immediately remove resources from API and bypass graceful deletion."),
        Flag::value("cascade", None, "Must be \"background\", \"orphan\", or \"foreground\"."),
        Flag::switch(
            "wait",
            None,
            "If true, wait for resources to be gone before returning. This waits for finalizers.",
        ),
        Flag::value(
            "timeout",
            None,
            "The length of time to wait before giving up on a delete, zero means determine a timeout from the size of the object",
        ),
        Flag::switch("ignore-not-found", None, "Treat \"resource not found\" as a successful delete."),
    ],
    run,
};

fn options(args: &Args, out: &mut Output) -> Result<DeleteOptions, String> {
    let mut grace = match args.get("grace-period") {
        Some(text) => Some(text.parse::<i64>().map_err(|_| format!("error: invalid argument \"{text}\" for \"--grace-period\" flag: strconv.ParseInt: parsing \"{text}\": invalid syntax"))?),
        None => None,
    };
    if args.switch("now") {
        grace = Some(1);
    }
    if grace == Some(0) && !args.switch("force") {
        // delete.go: --grace-period=0 becomes 1 unless --force says otherwise (no accidental
        // immediate deletion).
        grace = Some(1);
    }
    if args.switch("force") {
        out.warn("Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.");
        grace = Some(grace.unwrap_or(0).clamp(0, 1));
    }
    let propagation_policy = match args.get("cascade").unwrap_or("background") {
        "background" | "true" => PropagationPolicy::Background,
        "foreground" => PropagationPolicy::Foreground,
        "orphan" | "false" => PropagationPolicy::Orphan,
        other => {
            return Err(format!(
                "error: invalid cascade value ({other}). Must be \"background\", \"foreground\", or \"orphan\""
            ));
        }
    };
    Ok(DeleteOptions { grace_period_seconds: grace.filter(|g| *g >= 0), propagation_policy })
}

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let mut out = Output::default();
    let options = match options(&args, &mut out) {
        Ok(o) => o,
        Err(message) => return Output::failed(message),
    };
    let timeout = match wait_timeout(&args) {
        Ok(timeout) => timeout,
        Err(message) => return super::usage_error(&VERB, &message),
    };
    let targets = match targets(ctx, &args, &mut out) {
        Ok(t) => t,
        Err(message) => return Output::failed(message),
    };
    if targets.is_empty() && out.succeeded() {
        out.warn("No resources found");
    }
    let ignore_missing = args.switch("ignore-not-found");
    let mut terminating = Vec::new();
    for (kind, namespace, name) in targets {
        match ctx.api().delete(kind, &namespace, &name, &options) {
            Ok(deleted) => {
                let forced = options.grace_period_seconds == Some(0);
                out.line(deleted_message(kind, &namespace, &name, forced));
                if let Deleted::Terminating(object) = deleted {
                    terminating.push(((kind, namespace, name), object.metadata().uid));
                }
            }
            Err(err) if ignore_missing && err.reason() == "NotFound" => {}
            Err(err) => out.error(err.to_string()),
        }
    }
    // Every delete is sent before anything reacts, as kubectl's requests reach the API server
    // while the controllers run; then the cluster catches up, and the wait watches it.
    if let Some(timeout) = timeout
        && let Err(message) = wait_for_deletion(ctx, terminating, timeout)
    {
        out.error(message);
    }
    out
}

/// `--wait` (default true) and `--timeout`: how long to wait for the objects to go, or `None`
/// not to wait.
fn wait_timeout(args: &Args) -> Result<Option<Duration>, super::UsageError> {
    let timeout = super::args::duration_flag(args, "timeout")?.unwrap_or(Duration::ZERO);
    let wait = args.get("wait") != Some("false");
    Ok(wait.then_some(if timeout == Duration::ZERO { DEFAULT_WAIT } else { timeout }))
}

/// Upstream's `cmdwait.IsDeleted` over every object still terminating: lets virtual time pass
/// until each is gone (or replaced: another uid) or the timeout passes.
fn wait_for_deletion(ctx: &mut Context<'_>, mut pending: Vec<(Target, Uid)>, timeout: Duration) -> Result<(), String> {
    let deadline = ctx.sim.now().plus(timeout);
    ctx.sim.wait_until(deadline, |store| {
        pending.retain(|((kind, namespace, name), uid)| {
            store.get_object(*kind, namespace, name).is_ok_and(|o| o.metadata().uid == *uid)
        });
        pending.is_empty()
    });
    match pending.first() {
        None => Ok(()),
        Some(((kind, _, name), _)) => {
            Err(format!("error: timed out waiting for the condition on {}/{name}", kind.info().plural))
        }
    }
}

/// `pod "x" deleted from default namespace`, or `node "x" deleted` for cluster-scoped kinds;
/// `force deleted` when the grace period is zero (delete.go's PrintObj).
pub fn deleted_message(kind: Kind, namespace: &str, name: &str, forced: bool) -> String {
    let info = kind.info();
    let operation = if forced { "force deleted" } else { "deleted" };
    if info.namespaced {
        format!("{} \"{name}\" {operation} from {namespace} namespace", info.singular_qualified())
    } else {
        format!("{} \"{name}\" {operation}", info.singular_qualified())
    }
}

type Target = (Kind, String, String);

fn targets(ctx: &Context<'_>, args: &Args, out: &mut Output) -> Result<Vec<Target>, String> {
    let namespace = namespace_of(args);
    let filenames = args.all("filename");
    if !filenames.is_empty() {
        return Ok(targets_from_files(ctx, filenames, &namespace, out));
    }
    if args.positionals.is_empty() {
        return Err("error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'".into());
    }
    let request = resource_args::parse(ctx.sim.store(), &args.positionals)?;
    if !request.named.is_empty() {
        return Ok(request.named.into_iter().map(|(k, n)| (k, namespace.clone(), n)).collect());
    }
    let selector_given = args.has("selector");
    if !selector_given && !args.switch("all") {
        return Err("error: resource(s) were provided, but no name was specified".into());
    }
    let labels = Selector::parse(args.get("selector").unwrap_or("")).map_err(|e| format!("error: {e}"))?;
    let scope = (!args.switch("all-namespaces")).then_some(namespace.as_str());
    let mut found = Vec::new();
    for kind in request.kinds {
        for object in ctx.sim.store().list_objects(kind, scope, &labels, &FieldSelector::everything()) {
            found.push(target_of(&object));
        }
    }
    Ok(found)
}

fn target_of(object: &Object) -> Target {
    let meta = object.metadata();
    (object.kind(), meta.namespace.clone(), meta.name.clone())
}

fn targets_from_files(ctx: &Context<'_>, filenames: &[String], namespace: &str, out: &mut Output) -> Vec<Target> {
    let mut found = Vec::new();
    for source in read_filenames(ctx, filenames) {
        let documents = match source.documents {
            Ok(d) => d,
            Err(message) => {
                out.error(message);
                continue;
            }
        };
        for document in documents {
            match codec::kind_of(&document) {
                Ok(kind) if !ctx.sim.store().serves(kind) => {
                    if let Err(message) = resource_args::mapping(ctx.sim.store(), kind, &document, &source.name) {
                        out.error(message);
                    }
                }
                Ok(kind) => {
                    let name = document.pointer("/metadata/name").and_then(|v| v.as_str()).unwrap_or("").to_string();
                    let ns = document
                        .pointer("/metadata/namespace")
                        .and_then(|v| v.as_str())
                        .unwrap_or(namespace)
                        .to_string();
                    found.push((kind, ns, name));
                }
                Err(err) => out.error(format!("error: error validating \"{}\": {err}", source.name)),
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use crate::kubectl::create::tests::kubectl;
    use crate::kubectl::fixture::{hello_lab, pod_named};
    use crate::sim::time::Duration;

    #[test]
    fn delete_waits_until_the_pod_is_gone_unless_told_not_to() {
        let mut sim = hello_lab(11);
        let pods: Vec<String> = sim.store().list::<crate::api::Pod>(None).map(|p| p.metadata.name.clone()).collect();
        let pod = &pods[0];
        let (text, code) = kubectl(&mut sim, &format!("delete pod {pod}"));
        assert_eq!((text, code), (format!("pod \"{pod}\" deleted from default namespace\n"), 0));
        assert!(sim.store().try_get::<crate::api::Pod>("default", pod).is_none());
        let pod = &pods[1];
        kubectl(&mut sim, &format!("delete pod {pod} --wait=false"));
        assert!(sim.store().try_get::<crate::api::Pod>("default", pod).is_some());
    }

    #[test]
    fn delete_gives_up_after_its_timeout() {
        let mut sim = hello_lab(11);
        let pod = pod_named(&sim, "hello-");
        let node = sim.store().get::<crate::api::Pod>("default", &pod).unwrap().node_name().unwrap().to_string();
        sim.power_off_node(&node).unwrap();
        let before = sim.now();
        let (text, code) = kubectl(&mut sim, &format!("delete pod {pod} --timeout=20s"));
        assert_eq!(code, 1);
        assert_eq!(
            text,
            format!(
                "pod \"{pod}\" deleted from default namespace\nerror: timed out waiting for the condition on pods/{pod}\n"
            )
        );
        assert_eq!(sim.now().since(before), Duration::from_secs(20));
        let (text, _) = kubectl(&mut sim, "delete pod x --timeout=soon");
        assert!(text.starts_with("error: invalid argument \"soon\" for \"--timeout\" flag"), "{text}");
    }
}
