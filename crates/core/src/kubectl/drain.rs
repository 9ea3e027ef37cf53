//! `kubectl drain NODE`: cordon the node, then evict every pod on it and wait until they are
//! gone, refusing pods that would not come back (no controller), DaemonSet pods and pods with
//! local data unless told otherwise. Mirrors staging/src/k8s.io/kubectl/pkg/cmd/drain/drain.go
//! and pkg/drain (filters.go, drain.go). Pods go through the Eviction subresource, so a
//! PodDisruptionBudget can make drain wait: a refused eviction is printed and retried.

use super::args::{Args, Flag, duration_flag, int_flag};
use super::cordon::{node_names, set_unschedulable};
use super::output::Output;
use super::{Context, UsageError, Verb, usage_error};
use crate::api::labels::Selector;
use crate::api::{Kind, Pod};
use crate::sim::time::{Duration, SimTime};
use crate::store::DeleteOptions;

pub const VERB: Verb = Verb {
    name: "drain",
    short: "Drain node in preparation for maintenance",
    usage: "kubectl drain NODE [options]",
    flags: &[
        Flag::switch("force", None, "Continue even if there are pods that do not declare a controller."),
        Flag::switch("ignore-daemonsets", None, "Ignore DaemonSet-managed pods."),
        Flag::switch(
            "delete-emptydir-data",
            None,
            "Continue even if there are pods using emptyDir (local data that will be deleted when the node is drained).",
        ),
        Flag::value(
            "grace-period",
            None,
            "Period of time in seconds given to each pod to terminate gracefully. If negative, the default value specified in the pod will be used.",
        ),
        Flag::value("timeout", None, "The length of time to wait before giving up, zero means infinite"),
        Flag::value("selector", Some('l'), "Selector (label query) to filter on"),
        Flag::value("pod-selector", None, "Label selector to filter pods on the node"),
        Flag::switch(
            "disable-eviction",
            None,
            "Force drain to use delete, even if eviction is supported. This will bypass checking PodDisruptionBudgets, use with caution.",
        ),
        Flag::value(
            "skip-wait-for-delete-timeout",
            None,
            "If pod DeletionTimestamp older than N seconds, skip waiting for the pod.  Seconds must be greater than 0 to skip.",
        ),
    ],
    run,
};

/// kubectl waits forever without `--timeout`; a lab gives up after this much virtual time.
const DEFAULT_WAIT: Duration = Duration::from_secs(600);

struct Options {
    force: bool,
    ignore_daemonsets: bool,
    delete_emptydir_data: bool,
    grace_period_seconds: Option<i64>,
    timeout: Duration,
    timeout_text: String,
    pod_selector: Selector,
    disable_eviction: bool,
    skip_wait_for_delete_seconds: i64,
}

fn options(args: &Args) -> Result<Options, UsageError> {
    let grace = int_flag(args, "grace-period")?.filter(|g| *g >= 0);
    let timeout_text = args.get("timeout").unwrap_or("0s").to_string();
    let timeout = duration_flag(args, "timeout")?.unwrap_or(Duration::ZERO);
    Ok(Options {
        pod_selector: Selector::everything(),
        disable_eviction: args.switch("disable-eviction"),
        skip_wait_for_delete_seconds: int_flag(args, "skip-wait-for-delete-timeout")?.unwrap_or(0),
        force: args.switch("force"),
        ignore_daemonsets: args.switch("ignore-daemonsets"),
        delete_emptydir_data: args.switch("delete-emptydir-data"),
        grace_period_seconds: grace,
        timeout,
        timeout_text,
    })
}

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let mut options = match options(&args) {
        Ok(options) => options,
        Err(message) => return usage_error(&VERB, &message),
    };
    if let Some(text) = args.get("pod-selector").filter(|s| !s.is_empty()) {
        match Selector::parse(text) {
            Ok(selector) => options.pod_selector = selector,
            Err(_) => return Output::failed("error: --pod-selector=<pod_selector> must be a valid label selector"),
        }
    }
    let nodes = match node_names(ctx, &args, "drain") {
        Ok(nodes) => nodes,
        Err(message) => return Output::failed(message),
    };
    let mut out = Output::default();
    let mut pending = Vec::new();
    let mut fatal = None;
    for node in nodes {
        match set_unschedulable(ctx, &node, true) {
            Ok(line) => out.line(line),
            Err(message) => {
                out.error(message);
                continue;
            }
        }
        match drain_node(ctx, &node, &options, &mut out) {
            Ok(()) => out.line(format!("node/{node} drained")),
            Err(err) => {
                out.error(format!("error: unable to drain node {node:?} due to error: {err}, continuing command..."));
                pending.push(node);
                fatal = Some(err);
            }
        }
    }
    if let Some(Aggregate(errors)) = fatal {
        out.error("There are pending nodes to be drained:");
        for node in pending {
            out.error(format!(" {node}"));
        }
        for error in errors {
            out.error(error);
        }
    }
    out
}

/// Why a pod may not be deleted, or what to warn about when it is (upstream's filters).
enum Verdict {
    Delete,
    Skip,
    Warn(String),
    /// Left on the node, with a warning (a DaemonSet's pod under `--ignore-daemonsets`).
    Ignore(String),
    Refuse(String),
}

/// Upstream `makeFilters`: DaemonSet pods, mirror pods, local storage, unmanaged pods.
fn verdict(store: &crate::store::Store, pod: &Pod, options: &Options) -> Verdict {
    let finished = matches!(pod.phase(), "Succeeded" | "Failed");
    let controller = pod.metadata.controller_ref();
    if let Some(owner) = controller.filter(|r| r.kind == "DaemonSet" && !finished) {
        // Upstream `daemonSetFilter`: the DaemonSet is looked up; an orphan goes only with --force.
        if let Err(err) = store.get::<crate::api::DaemonSet>(&pod.metadata.namespace, &owner.name) {
            return if options.force { Verdict::Warn(err.to_string()) } else { Verdict::Refuse(err.to_string()) };
        }
        return if options.ignore_daemonsets {
            Verdict::Ignore("ignoring DaemonSet-managed Pods".into())
        } else {
            Verdict::Refuse("DaemonSet-managed Pods (use --ignore-daemonsets to ignore)".into())
        };
    }
    if pod.metadata.annotations.contains_key("kubernetes.io/config.mirror") {
        return Verdict::Skip;
    }
    // With --delete-emptydir-data, upstream's localStorageFilter warns "deleting Pods with local
    // storage", but the unreplicatedFilter after it overwrites the status: kubectl never prints it.
    if !finished && !options.delete_emptydir_data && pod.spec.volumes.iter().any(|v| v.empty_dir.is_some()) {
        return Verdict::Refuse("Pods with local storage (use --delete-emptydir-data to override)".into());
    }
    if controller.is_none() && !finished {
        return if options.force {
            Verdict::Warn("deleting Pods that declare no controller".into())
        } else {
            Verdict::Refuse("cannot delete Pods that declare no controller (use --force to override)".into())
        };
    }
    Verdict::Delete
}

/// Groups `ns/name` under each message, in the order the messages first appear.
fn grouped(items: &[(String, String)]) -> Vec<String> {
    let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
    for (message, pod) in items {
        match groups.iter_mut().find(|(m, _)| m == message) {
            Some((_, pods)) => pods.push(pod),
            None => groups.push((message, vec![pod])),
        }
    }
    groups.into_iter().map(|(message, pods)| format!("{message}: {}", pods.join(", "))).collect()
}

fn drain_node(ctx: &mut Context<'_>, node: &str, options: &Options, out: &mut Output) -> Result<(), Aggregate> {
    let on_node = |p: &&Pod| p.node_name() == Some(node) && options.pod_selector.matches(&p.metadata.labels);
    let pods: Vec<Pod> = ctx.sim.store().list::<Pod>(None).filter(on_node).cloned().collect();
    let (mut evict, mut warnings, mut refusals) = (Vec::new(), Vec::new(), Vec::new());
    for pod in pods {
        let key = format!("{}/{}", pod.metadata.namespace, pod.metadata.name);
        match verdict(ctx.sim.store(), &pod, options) {
            Verdict::Skip => {}
            Verdict::Ignore(message) => warnings.push((message, key)),
            Verdict::Delete => evict.push(pod),
            Verdict::Warn(message) => {
                warnings.push((message, key));
                evict.push(pod);
            }
            Verdict::Refuse(message) => refusals.push((message, key)),
        }
    }
    let refused: Vec<String> = grouped(&refusals)
        .into_iter()
        .map(|m| if m.starts_with("cannot delete") { m } else { format!("cannot delete {m}") })
        .collect();
    Aggregate::of(refused)?;
    if !warnings.is_empty() {
        out.warn(format!("Warning: {}", grouped(&warnings).join("; ")));
    }
    evict_and_wait(ctx, &evict, options, out)
}

/// How far one pod's eviction has got (each is a goroutine upstream; here they take turns).
enum Progress {
    /// To be evicted (again) at `due`: a refused eviction is retried after `EVICT_RETRY`.
    Evicting {
        due: SimTime,
        pod: Pod,
    },
    /// Evicted (or deleted): waiting for it to be gone.
    Waiting(Pod),
    Done,
}

/// pkg/drain's `EvictErrorRetryDelay`, as `kubectl drain` sets it.
const EVICT_RETRY: Duration = Duration::from_secs(5);

/// `evictPods` (or `deletePods` with `--disable-eviction`): every pod is evicted through the
/// Eviction subresource, a refusal (`429`: a disruption budget) retried every 5 s, then waited
/// for until it is gone, printing `pod/NAME evicted` as each goes.
fn evict_and_wait(ctx: &mut Context<'_>, pods: &[Pod], options: &Options, out: &mut Output) -> Result<(), Aggregate> {
    let wait = if options.timeout == Duration::ZERO { DEFAULT_WAIT } else { options.timeout };
    let deadline = ctx.sim.now().plus(wait);
    let now = ctx.sim.now();
    let mut progress: Vec<Progress> = if options.disable_eviction {
        delete_all(ctx, pods, options)?
    } else {
        pods.iter().map(|pod| Progress::Evicting { due: now, pod: pod.clone() }).collect()
    };
    let mut errors = Vec::new();
    loop {
        for state in progress.iter_mut() {
            try_eviction(ctx, state, (options, deadline), out, &mut errors);
        }
        let verb = if options.disable_eviction { "deleted" } else { "evicted" };
        let next_try = progress
            .iter()
            .filter_map(|p| if let Progress::Evicting { due, .. } = p { Some(*due) } else { None })
            .min();
        // A refused eviction sleeps its 5 s even past the timeout, then finds it reached (as
        // upstream's goroutine checks its context only at the top of each try).
        let until = next_try.unwrap_or(deadline);
        let skip_after = options.skip_wait_for_delete_seconds;
        ctx.sim.wait_until(until, |store| {
            for state in progress.iter_mut() {
                if let Progress::Waiting(pod) = state {
                    let live = store.try_get::<Pod>(&pod.metadata.namespace, &pod.metadata.name);
                    if live.is_none_or(|p| p.metadata.uid != pod.metadata.uid) {
                        out.line(format!("pod/{} {verb}", pod.metadata.name));
                        *state = Progress::Done;
                    } else if live.is_some_and(|p| deleted_longer_than(p, skip_after, store.now())) {
                        out.line(format!(
                            "pod {:?} has DeletionTimestamp older than {skip_after} seconds, skipping",
                            pod.metadata.name
                        ));
                        *state = Progress::Done;
                    }
                }
            }
            progress.iter().all(|p| matches!(p, Progress::Done))
        });
        if ctx.sim.now() >= deadline {
            for state in progress.iter_mut() {
                if let Progress::Waiting(pod) = state {
                    errors.push(format!(
                        "error when waiting for pod {:?} in namespace {:?} to terminate: global timeout reached: {}",
                        pod.metadata.name, pod.metadata.namespace, options.timeout_text
                    ));
                    *state = Progress::Done;
                }
            }
        }
        if progress.iter().all(|p| matches!(p, Progress::Done)) {
            break;
        }
    }
    Aggregate::of(errors)
}

/// apimachinery's `utilerrors.Aggregate`: one error reads as itself, several as `[a, b]`;
/// kubectl's `CheckErr` prints each of them on a line of its own.
struct Aggregate(Vec<String>);

impl Aggregate {
    fn of(errors: Vec<String>) -> Result<(), Aggregate> {
        if errors.is_empty() { Ok(()) } else { Err(Aggregate(errors)) }
    }
}

impl std::fmt::Display for Aggregate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0.as_slice() {
            [one] => f.write_str(one),
            many => write!(f, "[{}]", many.join(", ")),
        }
    }
}

/// One turn of a pod's eviction loop, if it is due: `evicting pod NS/NAME`, then the
/// eviction; a `429` is printed and retried, `NotFound` means it is already gone.
fn try_eviction(
    ctx: &mut Context<'_>,
    state: &mut Progress,
    (options, deadline): (&Options, SimTime),
    out: &mut Output,
    errors: &mut Vec<String>,
) {
    let now = ctx.sim.now();
    let Progress::Evicting { due, pod } = state else { return };
    if *due > now {
        return;
    }
    let (namespace, name) = (pod.metadata.namespace.clone(), pod.metadata.name.clone());
    out.line(format!("evicting pod {namespace}/{name}"));
    if now >= deadline {
        let message = format!(
            "error when evicting pods/{name:?} -n {namespace:?}: global timeout reached: {}",
            options.timeout_text
        );
        errors.push(message);
        *state = Progress::Done;
        return;
    }
    let delete = DeleteOptions { grace_period_seconds: options.grace_period_seconds, ..Default::default() };
    match ctx.api().evict(&namespace, &name, &delete) {
        Ok(_) => *state = Progress::Waiting(pod.clone()),
        Err(err) if err.reason() == "NotFound" => *state = Progress::Done,
        Err(err) if err.reason() == "TooManyRequests" => {
            let retry = EVICT_RETRY.as_secs();
            // Upstream prints the refusal and goes on; only a drain that ends undone fails.
            out.warn(format!(
                "error when evicting pods/{name:?} -n {namespace:?} (will retry after {retry}s): {}",
                err.message()
            ));
            *due = now.plus(EVICT_RETRY);
            // The next try is made with the pod as it is then.
            if let Some(fresh) = ctx.sim.store().try_get::<Pod>(&namespace, &name) {
                *pod = fresh.clone();
            }
        }
        Err(err) => {
            errors.push(format!("error when evicting pods/{name:?} -n {namespace:?}: {}", err.message()));
            *state = Progress::Done;
        }
    }
}

/// `deletePods`: every pod deleted at once, bypassing disruption budgets.
fn delete_all(ctx: &mut Context<'_>, pods: &[Pod], options: &Options) -> Result<Vec<Progress>, Aggregate> {
    let delete = DeleteOptions { grace_period_seconds: options.grace_period_seconds, ..Default::default() };
    for pod in pods {
        let (namespace, name) = (&pod.metadata.namespace, &pod.metadata.name);
        if let Err(err) = ctx.api().delete(Kind::Pod, namespace, name, &delete)
            && err.reason() != "NotFound"
        {
            return Err(Aggregate(vec![err.message()]));
        }
    }
    Ok(pods.iter().map(|pod| Progress::Waiting(pod.clone())).collect())
}

/// `shouldSkipPod`: `--skip-wait-for-delete-timeout=N` (N > 0) stops waiting for a pod whose
/// deletionTimestamp is more than N seconds past.
fn deleted_longer_than(pod: &Pod, seconds: i64, now: SimTime) -> bool {
    let Some(deleted) = pod.metadata.deletion_timestamp else { return false };
    seconds > 0 && now > deleted.0 && now.since(deleted.0).as_secs() > seconds as u64
}

#[cfg(test)]
mod tests {
    use crate::api::{Node, Pod};
    use crate::kubectl::create::tests::kubectl;
    use crate::sim::Sim;
    use crate::sim::time::Duration;

    fn lab() -> Sim {
        let mut sim = Sim::new(1, &crate::cluster::ClusterSpec::default_workers());
        kubectl(&mut sim, "create deployment hello --image=hello:v1 --replicas=3");
        sim.advance(Duration::from_secs(30));
        sim
    }

    fn pods_on(sim: &Sim, node: &str) -> Vec<String> {
        sim.store().list::<Pod>(None).filter(|p| p.node_name() == Some(node)).map(|p| p.metadata.name.clone()).collect()
    }

    #[test]
    fn drain_refuses_bare_pods_without_force() {
        let mut sim = lab();
        kubectl(&mut sim, "run web --image=nginx");
        sim.advance(Duration::from_secs(5));
        let node = sim.store().get::<Pod>("default", "web").unwrap().node_name().unwrap().to_string();
        let (text, code) = kubectl(&mut sim, &format!("drain {node}"));
        assert_eq!(code, 1);
        assert_eq!(
            text,
            format!(
                "node/{node} cordoned\nerror: unable to drain node \"{node}\" due to error: cannot delete Pods that declare no controller (use --force to override): default/web, continuing command...\nThere are pending nodes to be drained:\n {node}\ncannot delete Pods that declare no controller (use --force to override): default/web\n"
            )
        );
        let (text, code) = kubectl(&mut sim, &format!("drain {node} --force"));
        assert_eq!(code, 0, "{text}");
        assert!(text.starts_with(&format!("node/{node} already cordoned\nWarning: deleting Pods that declare no controller: default/web\nevicting pod default/")), "{text}");
        assert!(text.contains("pod/web evicted\n") && text.ends_with(&format!("node/{node} drained\n")), "{text}");
        assert!(pods_on(&sim, &node).is_empty());
        assert_eq!(sim.store().get::<Node>("", &node).unwrap().spec.unschedulable, Some(true));
    }

    #[test]
    fn drain_waits_for_managed_pods_to_go() {
        let mut sim = lab();
        let node = sim.store().list::<Pod>(None).find_map(|p| p.node_name().map(str::to_string)).unwrap();
        let before = sim.now();
        let (text, code) = kubectl(&mut sim, &format!("drain {node} --grace-period=5"));
        assert_eq!(code, 0, "{text}");
        assert!(text.contains("evicted\n"), "{text}");
        assert!(sim.now() > before);
        assert!(
            pods_on(&sim, &node).iter().all(|name| !text.contains(name.as_str())) || pods_on(&sim, &node).is_empty()
        );
        let (text, _) = kubectl(&mut sim, "drain");
        assert_eq!(text, "error: USAGE: drain NODE [flags]\nSee 'kubectl drain -h' for help and examples\n");
    }

    #[test]
    fn a_budget_that_allows_nothing_holds_drain_until_its_timeout_and_a_bad_pod_selector_is_refused() {
        let mut sim = lab();
        kubectl(&mut sim, "create pdb hello --selector=app=hello --max-unavailable=0");
        sim.advance(Duration::from_secs(1));
        let node = sim.store().list::<Pod>(None).find_map(|p| p.node_name().map(str::to_string)).unwrap();
        let pod = pods_on(&sim, &node)[0].clone();
        let (text, code) = kubectl(&mut sim, &format!("drain {node} --pod-selector=app=hello --timeout=12s"));
        assert_eq!(code, 1, "{text}");
        let refusal = format!(
            "error when evicting pods/{pod:?} -n \"default\" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.\n"
        );
        // Tried at 0 s, 5 s and 10 s; at 15 s the 12 s timeout has passed.
        assert_eq!(text.matches(&refusal).count(), 3, "{text}");
        assert!(
            text.contains(&format!("error when evicting pods/{pod:?} -n \"default\": global timeout reached: 12s")),
            "{text}"
        );
        assert!(pods_on(&sim, &node).contains(&pod));
        let (text, _) = kubectl(&mut sim, &format!("drain {node} --pod-selector=app=hello!"));
        assert_eq!(text, "error: --pod-selector=<pod_selector> must be a valid label selector\n");
    }
}
