//! `kubectl rollout undo [--to-revision=N]`: put an earlier revision's pod template back into
//! the Deployment (DaemonSets and StatefulSets: revision_undo.rs). Mirrors
//! staging/src/k8s.io/kubectl/pkg/cmd/rollout/rollout_undo.go and `DeploymentRollbacker` in
//! pkg/polymorphichelpers/rollback.go.

use super::{
    POD_TEMPLATE_HASH_LABEL, REVISION_ANNOTATION, deployment_target, group_kind, object_name, owned_replica_sets,
    require_resources, revision_of, revision_undo, write_deployment,
};
use crate::api::pod::PodTemplateSpec;
use crate::api::string_map::StringMap;
use crate::api::{Deployment, Kind, ObjectMeta, ReplicaSet};
use crate::kubectl::apply::LAST_APPLIED;
use crate::kubectl::args::{Args, Flag, int_flag};
use crate::kubectl::output::Output;
use crate::kubectl::resource_args::targets;
use crate::kubectl::{Context, Verb, namespace_of, usage_error};
use crate::store::Store;

pub const VERB: Verb = Verb {
    name: "rollout undo",
    short: "Undo a previous rollout",
    usage: "kubectl rollout undo (TYPE NAME | TYPE/NAME) [flags]",
    flags: &[Flag::value("to-revision", None, "The revision to rollback to. Default to 0 (last revision).")],
    run,
};

/// Annotations a rollback keeps from the Deployment rather than copying from the ReplicaSet.
const ANNOTATIONS_TO_SKIP: &[&str] = &[
    LAST_APPLIED,
    REVISION_ANNOTATION,
    "deployment.kubernetes.io/revision-history",
    "deployment.kubernetes.io/desired-replicas",
    "deployment.kubernetes.io/max-replicas",
    "deprecated.deployment.rollback.to",
];

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let to_revision = match int_flag(&args, "to-revision") {
        Ok(r) => r.unwrap_or(0),
        Err(message) => return usage_error(&VERB, &message),
    };
    if let Err(message) = require_resources(&args) {
        return Output::failed(message);
    }
    let namespace = namespace_of(&args);
    let found = match targets(ctx, &args.positionals, &namespace) {
        Ok(found) => found,
        Err(message) => return Output::failed(message),
    };
    let mut out = Output::default();
    for (kind, name) in found {
        let unsupported =
            |kind: Kind| format!("error: no rollbacker has been implemented for \"{}\"", group_kind(kind));
        let result = match revision_undo::rollback(ctx, (kind, &namespace, &name), to_revision, &mut out) {
            Some(result) => result,
            None => deployment_target(ctx, &namespace, kind, &name, unsupported)
                .and_then(|deployment| rollback(ctx, deployment, to_revision, &mut out)),
        };
        match result {
            Ok(result) => out.line(format!("{} {result}", object_name(kind, &name))),
            Err(message) => {
                out.error(message);
                return out;
            }
        }
    }
    out
}

/// Upstream `DeploymentRollbacker.Rollback`: `rolled back` or `skipped rollback (…)`.
fn rollback(
    ctx: &mut Context<'_>,
    deployment: Deployment,
    to_revision: i64,
    out: &mut Output,
) -> Result<String, String> {
    if to_revision < 0 {
        return Err(revision_not_found(to_revision));
    }
    let rs = replica_set_for_revision(ctx.sim.store(), &deployment, to_revision)?;
    let name = &deployment.metadata.name;
    if deployment.spec.paused == Some(true) {
        return Err(format!(
            "error: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume deployment/{name}' and try again"
        ));
    }
    if equal_ignore_hash(&rs.spec.template, &deployment.spec.template) {
        return Ok(format!("skipped rollback (current template already matches revision {to_revision})"));
    }
    warn_last_applied(out, Kind::Deployment, &deployment.metadata);
    let restored = restore(deployment, &rs);
    write_deployment(ctx, restored)
        .map_err(|e| format!("error: failed restoring revision {to_revision}: {}", e.message()))?;
    Ok("rolled back".into())
}

/// The warning `rollout undo` gives (since kubectl 1.36, kubernetes/kubernetes#137064) before
/// rolling back an object `kubectl apply` wrote, of any kind: the last-applied annotation keeps
/// the old configuration, so the next apply may undo the undo.
pub(super) fn warn_last_applied(out: &mut Output, kind: Kind, meta: &ObjectMeta) {
    if meta.annotations.contains_key(LAST_APPLIED) {
        out.warn(format!(
            "Warning: resource {}/{} was previously managed with 'kubectl apply'. Rolling back will not update the kubectl.kubernetes.io/last-applied-configuration annotation, which may cause unexpected behavior on future 'kubectl apply' operations. Consider using 'kubectl apply' with your previous configuration file instead.",
            kind.info().plural,
            meta.name
        ));
    }
}

/// The Deployment with the ReplicaSet's template (less its hash label) and annotations: the
/// skipped ones as the Deployment had them, every other one as the ReplicaSet has it.
fn restore(mut deployment: Deployment, rs: &ReplicaSet) -> Deployment {
    let mut template = rs.spec.template.clone();
    template.metadata.labels.remove(POD_TEMPLATE_HASH_LABEL);
    let mut annotations = StringMap::new();
    for key in ANNOTATIONS_TO_SKIP {
        if let Some(value) = deployment.metadata.annotations.get(key) {
            annotations.insert(*key, value);
        }
    }
    for (key, value) in rs.metadata.annotations.iter().filter(|(k, _)| !ANNOTATIONS_TO_SKIP.contains(k)) {
        annotations.insert(key, value);
    }
    deployment.spec.template = template;
    deployment.metadata.annotations = annotations;
    deployment
}

/// Upstream `deploymentRevision`: revision N, or (N = 0) the second-highest revision.
fn replica_set_for_revision(store: &Store, deployment: &Deployment, to_revision: i64) -> Result<ReplicaSet, String> {
    let mut latest: Option<(i64, ReplicaSet)> = None;
    let mut previous: Option<(i64, ReplicaSet)> = None;
    for rs in owned_replica_sets(store, deployment) {
        let Ok(revision) = revision_of(&rs.metadata) else { continue };
        if to_revision > 0 {
            if revision == to_revision {
                return Ok(rs);
            }
            continue;
        }
        if latest.as_ref().is_none_or(|(r, _)| *r < revision) {
            previous = latest.replace((revision, rs));
        } else if previous.as_ref().is_none_or(|(r, _)| *r < revision) {
            previous = Some((revision, rs));
        }
    }
    if to_revision > 0 {
        return Err(revision_not_found(to_revision));
    }
    previous
        .map(|(_, rs)| rs)
        .ok_or_else(|| format!("error: no rollout history found for deployment {:?}", deployment.metadata.name))
}

pub(super) fn revision_not_found(revision: i64) -> String {
    format!("error: unable to find specified revision {revision} in history")
}

/// Whether two templates are the same once the `pod-template-hash` label is set aside.
fn equal_ignore_hash(a: &PodTemplateSpec, b: &PodTemplateSpec) -> bool {
    let (mut a, mut b) = (a.clone(), b.clone());
    a.metadata.labels.remove(POD_TEMPLATE_HASH_LABEL);
    b.metadata.labels.remove(POD_TEMPLATE_HASH_LABEL);
    a == b
}

#[cfg(test)]
mod tests {
    use crate::api::Deployment;
    use crate::kubectl::apply::LAST_APPLIED;
    use crate::kubectl::rollout::CHANGE_CAUSE_ANNOTATION;
    use crate::kubectl::rollout::fixtures::{deployment, kubectl, replica_set, stateful_set};
    use crate::sim::Sim;
    use crate::sim::time::Duration;

    fn image(sim: &Sim) -> String {
        let d = sim.store().get::<Deployment>("default", "hello").unwrap();
        d.spec.template.spec.containers[0].image.clone().unwrap_or_default()
    }

    #[test]
    fn undo_goes_back_to_the_previous_revision() {
        let mut sim = Sim::default();
        let d = deployment(&mut sim, "hello:v2");
        let mut old = replica_set(&mut sim, &d, 1, "hello:v1");
        old.metadata.annotations.insert(CHANGE_CAUSE_ANNOTATION, "first");
        sim.store_mut().update(old).unwrap();
        replica_set(&mut sim, &d, 2, "hello:v2");
        let (text, code) = kubectl(&mut sim, "rollout undo deploy/hello");
        assert_eq!((text.as_str(), code), ("deployment.apps/hello rolled back\n", 0));
        assert_eq!(image(&sim), "hello:v1");
        let d = sim.store().get::<Deployment>("default", "hello").unwrap();
        assert_eq!(d.metadata.generation, 2);
        assert_eq!(d.metadata.annotations.get(CHANGE_CAUSE_ANNOTATION), Some("first"));
        assert!(!d.spec.template.metadata.labels.contains_key("pod-template-hash"));
        // As upstream, the rolled-back-to ReplicaSet takes the next revision: 1 became 3.
        let (text, _) = kubectl(&mut sim, "rollout undo deploy/hello --to-revision=1");
        assert_eq!(text, "error: unable to find specified revision 1 in history\n");
        let (text, _) = kubectl(&mut sim, "rollout undo deploy/hello --to-revision=3");
        assert_eq!(text, "deployment.apps/hello skipped rollback (current template already matches revision 3)\n");
    }

    #[test]
    fn undo_errors_read_like_kubectl() {
        let mut sim = Sim::default();
        let d = deployment(&mut sim, "hello:v1");
        let (text, _) = kubectl(&mut sim, "rollout undo deploy/hello");
        assert_eq!(text, "error: no rollout history found for deployment \"hello\"\n");
        replica_set(&mut sim, &d, 1, "hello:v1");
        let (text, _) = kubectl(&mut sim, "rollout undo deploy/hello --to-revision=5");
        assert_eq!(text, "error: unable to find specified revision 5 in history\n");
        kubectl(&mut sim, "rollout pause deploy/hello");
        let (text, _) = kubectl(&mut sim, "rollout undo deploy/hello --to-revision=1");
        assert_eq!(
            text,
            "error: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume deployment/hello' and try again\n"
        );
        let (text, _) = kubectl(&mut sim, "rollout undo rs/hello-hash1");
        assert_eq!(text, "error: no rollbacker has been implemented for \"ReplicaSet.apps\"\n");
    }

    fn pod_images(sim: &mut Sim) -> String {
        let columns =
            "NAME:.metadata.name,IMAGE:.spec.containers[0].image,REVISION:.metadata.labels.controller-revision-hash";
        kubectl(sim, &format!("get pods -o custom-columns={columns}")).0
    }

    #[test]
    fn undo_puts_a_stateful_sets_template_back_and_its_pods_roll_again() {
        let mut sim = Sim::default();
        stateful_set(&mut sim, "hello:v1");
        sim.advance(Duration::from_secs(60));
        let (text, code) = kubectl(&mut sim, "rollout undo sts/web");
        assert_eq!((text.as_str(), code), ("error: no last revision to roll back to\n", 1));
        kubectl(&mut sim, "set image sts/web hello=hello:v2");
        sim.advance(Duration::from_secs(60));
        assert_eq!(
            pod_images(&mut sim),
            "NAME    IMAGE      REVISION\n\
             web-0   hello:v2   web-c847b6b6\n\
             web-1   hello:v2   web-c847b6b6\n\
             web-2   hello:v2   web-c847b6b6\n"
        );
        let (text, _) = kubectl(&mut sim, "rollout undo sts/web --to-revision=7");
        assert_eq!(text, "error: unable to find specified revision 7 in history\n");
        let (text, code) = kubectl(&mut sim, "rollout undo sts/web");
        assert_eq!((text.as_str(), code), ("statefulset.apps/web rolled back\n", 0));
        sim.advance(Duration::from_secs(60));
        // Revision 1's own ControllerRevision (its name is its hash) is used again.
        assert_eq!(
            pod_images(&mut sim),
            "NAME    IMAGE      REVISION\n\
             web-0   hello:v1   web-695c59779\n\
             web-1   hello:v1   web-695c59779\n\
             web-2   hello:v1   web-695c59779\n"
        );
        // As for a Deployment, the revision rolled back to is renumbered: 1 became 3.
        let (text, _) = kubectl(&mut sim, "rollout history sts/web");
        assert_eq!(text, "statefulset.apps/web \nREVISION  CHANGE-CAUSE\n2         <none>\n3         <none>\n\n");
        let (text, _) = kubectl(&mut sim, "rollout undo sts/web --to-revision=3");
        assert_eq!(text, "statefulset.apps/web skipped rollback (current template already matches revision 3)\n");
    }

    #[test]
    fn applied_deployments_warn_that_apply_will_not_know() {
        let mut sim = Sim::default();
        let mut d = deployment(&mut sim, "hello:v2");
        d.metadata.annotations.insert(LAST_APPLIED, "{}");
        let d = sim.store_mut().update(d).unwrap();
        replica_set(&mut sim, &d, 1, "hello:v1");
        replica_set(&mut sim, &d, 2, "hello:v2");
        let (text, _) = kubectl(&mut sim, "rollout undo deploy/hello");
        assert!(text.starts_with("Warning: resource deployments/hello was previously managed with 'kubectl apply'."));
        assert!(text.ends_with("\ndeployment.apps/hello rolled back\n"));
        let d = sim.store().get::<Deployment>("default", "hello").unwrap();
        assert_eq!(d.metadata.annotations.get(LAST_APPLIED), Some("{}"));
    }
}
