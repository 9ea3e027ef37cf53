//! `kubectl rollout status`: watch a Deployment, DaemonSet or StatefulSet until its rollout is done, moving
//! virtual time forward while it waits. Mirrors
//! staging/src/k8s.io/kubectl/pkg/cmd/rollout/rollout_status.go and `DeploymentStatusViewer`
//! `DaemonSetStatusViewer` and `StatefulSetStatusViewer` in pkg/polymorphichelpers/rollout_status.go.

use super::{group_kind, require_resources, revision_of};
use crate::api::{DaemonSet, Deployment, Kind, StatefulSet};
use crate::kubectl::args::{Args, Flag, duration_flag, int_flag};
use crate::kubectl::output::Output;
use crate::kubectl::resource_args::targets;
use crate::kubectl::{Context, UsageError, Verb, namespace_of, usage_error};
use crate::sim::time::Duration;
use crate::store::kinds::Stored;

pub const VERB: Verb = Verb {
    name: "rollout status",
    short: "Show the status of the rollout",
    usage: "kubectl rollout status (TYPE NAME | TYPE/NAME) [flags]",
    flags: &[
        Flag::switch("watch", Some('w'), "Watch the status of the rollout until it's done."),
        Flag::value(
            "revision",
            None,
            "Pin to a specific revision for showing its status. Defaults to 0 (last revision).",
        ),
        Flag::value(
            "timeout",
            None,
            "The length of time to wait before ending watch, zero means never. Any other values should contain a corresponding time unit (e.g. 1s, 2m, 3h).",
        ),
    ],
    run,
};

/// kubectl waits forever without `--timeout`; a lab cannot, so it gives up after this much
/// virtual time and reports it as `--timeout=10m` would.
const DEFAULT_WAIT: Duration = Duration::from_secs(600);

/// What `rollout status` reports for a Deployment: a message and whether the rollout is done,
/// or an error (exceeded progress deadline, revision mismatch). Upstream `DeploymentStatusViewer.Status`.
pub fn deployment_status(deployment: &Deployment, revision: i64) -> Result<(String, bool), String> {
    let name = &deployment.metadata.name;
    if revision > 0 {
        let running = revision_of(&deployment.metadata)
            .map_err(|e| format!("cannot get the revision of deployment {name:?}: {e}"))?;
        if running != revision {
            return Err(format!("desired revision ({revision}) is different from the running revision ({running})"));
        }
    }
    let status = &deployment.status;
    if deployment.metadata.generation > status.observed_generation.unwrap_or(0) {
        return Ok(("Waiting for deployment spec update to be observed...".into(), false));
    }
    let progressing = status.conditions.iter().find(|c| c.type_ == "Progressing");
    if progressing.is_some_and(|c| c.reason.as_deref() == Some("ProgressDeadlineExceeded")) {
        return Err(format!("deployment {name:?} exceeded its progress deadline"));
    }
    let replicas = status.replicas.unwrap_or(0);
    let updated = status.updated_replicas.unwrap_or(0);
    let available = status.available_replicas.unwrap_or(0);
    let waiting = |what: String| Ok((format!("Waiting for deployment {name:?} rollout to finish: {what}..."), false));
    if let Some(desired) = deployment.spec.replicas
        && updated < desired
    {
        return waiting(format!("{updated} out of {desired} new replicas have been updated"));
    }
    if replicas > updated {
        return waiting(format!("{} old replicas are pending termination", replicas - updated));
    }
    if available < updated {
        return waiting(format!("{available} of {updated} updated replicas are available"));
    }
    Ok((format!("deployment {name:?} successfully rolled out"), true))
}

/// What `rollout status` reports for a DaemonSet (upstream `DaemonSetStatusViewer.Status`).
pub fn daemon_set_status(ds: &DaemonSet, _revision: i64) -> Result<(String, bool), String> {
    if ds.spec.update_strategy.type_.as_deref() != Some(crate::api::daemon_set::ROLLING_UPDATE) {
        // Upstream names the StatefulSet's constant here; both are `RollingUpdate`.
        return Err("rollout status is only available for RollingUpdate strategy type".into());
    }
    let (name, status) = (&ds.metadata.name, &ds.status);
    if ds.metadata.generation > status.observed_generation {
        return Ok(("Waiting for daemon set spec update to be observed...".into(), false));
    }
    let (desired, updated, available) =
        (status.desired_number_scheduled, status.updated_number_scheduled, status.number_available);
    let waiting = |what: String| Ok((format!("Waiting for daemon set {name:?} rollout to finish: {what}..."), false));
    if updated < desired {
        return waiting(format!("{updated} out of {desired} new pods have been updated"));
    }
    if available < desired {
        return waiting(format!("{available} of {desired} updated pods are available"));
    }
    Ok((format!("daemon set {name:?} successfully rolled out"), true))
}

/// What `rollout status` reports for a StatefulSet. Upstream `StatefulSetStatusViewer.Status`:
/// a defaulted set always has a rollingUpdate, so a finished rollout reads "partitioned roll
/// out complete" even at partition 0.
pub fn stateful_set_status(set: &StatefulSet, _revision: i64) -> Result<(String, bool), String> {
    let (spec, status) = (&set.spec, &set.status);
    if spec.update_strategy.type_.as_deref() != Some("RollingUpdate") {
        return Err("rollout status is only available for RollingUpdate strategy type".into());
    }
    if status.observed_generation == 0 || set.metadata.generation > status.observed_generation {
        return Ok(("Waiting for statefulset spec update to be observed...".into(), false));
    }
    if let Some(replicas) = spec.replicas
        && status.ready_replicas < replicas
    {
        return Ok((format!("Waiting for {} pods to be ready...", replicas - status.ready_replicas), false));
    }
    if let Some(rolling) = &spec.update_strategy.rolling_update {
        if let (Some(replicas), Some(partition)) = (spec.replicas, rolling.partition)
            && status.updated_replicas < replicas - partition
        {
            let message = format!(
                "Waiting for partitioned roll out to finish: {} out of {} new pods have been updated...",
                status.updated_replicas,
                replicas - partition
            );
            return Ok((message, false));
        }
        return Ok((
            format!("partitioned roll out complete: {} new pods have been updated...", status.updated_replicas),
            true,
        ));
    }
    if status.update_revision != status.current_revision {
        let message = format!(
            "waiting for statefulset rolling update to complete {} pods at revision {}...",
            status.updated_replicas, status.update_revision
        );
        return Ok((message, false));
    }
    let message = format!(
        "statefulset rolling update complete {} pods at revision {}...",
        status.current_replicas, status.current_revision
    );
    Ok((message, true))
}

struct Options {
    watch: bool,
    revision: i64,
    timeout: Duration,
}

fn options(args: &Args) -> Result<Options, UsageError> {
    let watch = args.get("watch").is_none_or(|w| w == "true");
    let revision = int_flag(args, "revision")?.unwrap_or(0);
    let timeout = duration_flag(args, "timeout")?.unwrap_or(Duration::ZERO);
    Ok(Options { watch, revision, timeout })
}

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let options = match options(&args) {
        Ok(o) => o,
        Err(message) => return usage_error(&VERB, &message),
    };
    if let Err(message) = require_resources(&args) {
        return Output::failed(message);
    }
    if options.revision < 0 {
        return Output::failed(format!("error: revision must be a positive integer: {}", options.revision));
    }
    let namespace = namespace_of(&args);
    let found = match targets(ctx, &args.positionals, &namespace) {
        Ok(found) => found,
        Err(message) => return Output::failed(message),
    };
    let [(kind, name)] = found.as_slice() else {
        return Output::failed(format!(
            "error: rollout status is only supported on individual resources and resource collections - {} resources were found",
            found.len()
        ));
    };
    if let Err(e) = ctx.sim.store().get_object(*kind, &namespace, name) {
        return Output::failed(e.to_string());
    }
    match kind {
        Kind::Deployment => watch(ctx, &namespace, name, &options, deployment_status),
        Kind::StatefulSet => watch(ctx, &namespace, name, &options, stateful_set_status),
        Kind::DaemonSet => watch(ctx, &namespace, name, &options, daemon_set_status),
        other => Output::failed(format!("error: no status viewer has been implemented for {}", group_kind(*other))),
    }
}

type StatusViewer<T> = fn(&T, i64) -> Result<(String, bool), String>;

/// Prints the status for the object as it is, then again for every write to it (each
/// MODIFIED event kubectl's watch receives, the same message or not), letting virtual time pass
/// until the rollout is done, fails, or time runs out. Mirrors rollout_status.go's
/// `UntilWithSync` condition, which prints on every ADDED and MODIFIED event.
fn watch<T: Stored + Clone>(
    ctx: &mut Context<'_>,
    namespace: &str,
    name: &str,
    options: &Options,
    viewer: StatusViewer<T>,
) -> Output {
    let mut out = Output::default();
    let wait = if options.timeout == Duration::ZERO { DEFAULT_WAIT } else { options.timeout };
    let deadline = ctx.sim.now().plus(wait);
    ctx.sim.store_mut().snapshots_mut().open(T::KIND);
    let mut read_to: Option<u64> = None;
    let ended = ctx.sim.wait_until(deadline, |store| {
        let states = match read_to {
            // The first look: the object as it is (the watch's ADDED event).
            None => store.try_get::<T>(namespace, name).map(|d| vec![d.clone()]).unwrap_or_default(),
            Some(after) => written_since(store, (namespace, name), after),
        };
        read_to = Some(store.resource_version());
        if store.try_get::<T>(namespace, name).is_none() && states.is_empty() {
            out.error("error: object has been deleted");
            return true;
        }
        for object in &states {
            match viewer(object, options.revision) {
                Err(message) => {
                    out.error(format!("error: {message}"));
                    return true;
                }
                Ok((message, done)) => {
                    out.line(message);
                    if done || !options.watch {
                        return true;
                    }
                }
            }
        }
        false
    });
    ctx.sim.store_mut().snapshots_mut().close(T::KIND);
    if !ended {
        out.error("error: timed out waiting for the condition");
    }
    out
}

/// The object as each write since `after` left it, oldest first; as it is now when the
/// log no longer reaches back that far (a watch that must relist).
fn written_since<T: Stored + Clone>(
    store: &crate::store::Store,
    (namespace, name): (&str, &str),
    after: u64,
) -> Vec<T> {
    let Ok(events) = store.watch_log().since(after) else {
        return store.try_get::<T>(namespace, name).cloned().into_iter().collect();
    };
    let ours = events.filter(|e| e.kind == T::KIND && e.namespace == namespace && e.name == name);
    ours.filter(|e| e.type_ != crate::store::watch::WatchEventType::Deleted)
        .filter_map(|e| match store.snapshots().at(e.resource_version).and_then(T::from_object_ref) {
            Some(object) => Some(object.clone()),
            None => store.try_get::<T>(namespace, name).cloned(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::deployment::{DeploymentCondition, DeploymentStatus};
    use crate::kubectl::rollout::fixtures::{deployment, kubectl};
    use crate::sim::Sim;

    fn crafted(generation: i64, observed: i64, status: DeploymentStatus) -> Deployment {
        let mut d = Deployment::default();
        d.metadata.name = "hello".into();
        d.metadata.generation = generation;
        d.spec.replicas = Some(3);
        d.status = DeploymentStatus { observed_generation: Some(observed), ..status };
        d
    }

    fn counts(replicas: i32, updated: i32, available: i32) -> DeploymentStatus {
        DeploymentStatus {
            replicas: Some(replicas),
            updated_replicas: Some(updated),
            available_replicas: Some(available),
            ..Default::default()
        }
    }

    #[test]
    fn status_messages_follow_the_deployment_status_viewer() {
        let timed_out = DeploymentStatus {
            conditions: vec![DeploymentCondition {
                type_: "Progressing".into(),
                status: "False".into(),
                reason: Some("ProgressDeadlineExceeded".into()),
                ..Default::default()
            }],
            ..counts(4, 1, 3)
        };
        type Expected = Result<(&'static str, bool), &'static str>;
        let cases: &[(Deployment, Expected)] = &[
            (crafted(2, 1, counts(3, 3, 3)), Ok(("Waiting for deployment spec update to be observed...", false))),
            (
                crafted(2, 2, counts(4, 1, 3)),
                Ok((
                    "Waiting for deployment \"hello\" rollout to finish: 1 out of 3 new replicas have been updated...",
                    false,
                )),
            ),
            (
                crafted(2, 2, counts(4, 3, 3)),
                Ok((
                    "Waiting for deployment \"hello\" rollout to finish: 1 old replicas are pending termination...",
                    false,
                )),
            ),
            (
                crafted(2, 2, counts(3, 3, 2)),
                Ok((
                    "Waiting for deployment \"hello\" rollout to finish: 2 of 3 updated replicas are available...",
                    false,
                )),
            ),
            (crafted(2, 2, counts(3, 3, 3)), Ok(("deployment \"hello\" successfully rolled out", true))),
            (crafted(2, 2, timed_out), Err("deployment \"hello\" exceeded its progress deadline")),
        ];
        for (deployment, expected) in cases {
            let actual = deployment_status(deployment, 0);
            let actual = actual.as_ref().map(|(m, done)| (m.as_str(), *done)).map_err(String::as_str);
            assert_eq!(actual, *expected);
        }
    }

    #[test]
    fn a_pinned_revision_must_be_the_running_one() {
        let mut d = crafted(1, 1, counts(3, 3, 3));
        d.metadata.annotations.insert(super::super::REVISION_ANNOTATION, "2");
        assert_eq!(deployment_status(&d, 2).map(|(_, done)| done), Ok(true));
        assert_eq!(
            deployment_status(&d, 3).unwrap_err(),
            "desired revision (3) is different from the running revision (2)"
        );
    }

    #[test]
    fn waiting_advances_virtual_time_until_the_timeout() {
        let mut sim = Sim::default();
        // No registry has the image, so no replica ever becomes available.
        deployment(&mut sim, "hello:v9-missing");
        let before = sim.now();
        let (text, code) = kubectl(&mut sim, "rollout status deploy/hello --timeout=20s");
        assert_eq!(
            text,
            "Waiting for deployment spec update to be observed...\n\
             Waiting for deployment spec update to be observed...\n\
             Waiting for deployment spec update to be observed...\n\
             Waiting for deployment \"hello\" rollout to finish: 0 out of 3 new replicas have been updated...\n\
             Waiting for deployment \"hello\" rollout to finish: 0 of 3 updated replicas are available...\n\
             error: timed out waiting for the condition\n"
        );
        assert_eq!(code, 1);
        assert_eq!(sim.now().since(before), Duration::from_secs(20));
        let (text, _) = kubectl(&mut sim, "rollout status deploy/hello -w=false");
        assert_eq!(
            text,
            "Waiting for deployment \"hello\" rollout to finish: 0 of 3 updated replicas are available...\n"
        );
        assert_eq!(sim.now().since(before), Duration::from_secs(20));
    }

    #[test]
    fn finished_rollouts_report_at_once() {
        let mut sim = Sim::default();
        let mut d = deployment(&mut sim, "hello:v1");
        d.status = DeploymentStatus { observed_generation: Some(1), ..counts(3, 3, 3) };
        sim.store_mut().update_status(d).unwrap();
        let (text, code) = kubectl(&mut sim, "rollout status deployment hello");
        assert_eq!((text.as_str(), code), ("deployment \"hello\" successfully rolled out\n", 0));
    }

    #[test]
    fn missing_objects_and_other_kinds_are_refused() {
        let mut sim = Sim::default();
        deployment(&mut sim, "hello:v1");
        let (text, _) = kubectl(&mut sim, "rollout status deploy/nope");
        assert_eq!(text, "Error from server (NotFound): deployments.apps \"nope\" not found\n");
        let (text, _) = kubectl(&mut sim, "rollout status ns/default");
        assert_eq!(text, "error: no status viewer has been implemented for Namespace\n");
        let (text, _) = kubectl(&mut sim, "rollout status");
        assert_eq!(text, "error: required resource not specified\n");
        let (text, _) = kubectl(&mut sim, "rollout status deploy/hello --timeout=soon");
        assert_eq!(
            text,
            "error: invalid argument \"soon\" for \"--timeout\" flag: time: invalid duration \"soon\"\nSee 'kubectl rollout status --help' for usage.\n"
        );
    }
}
