//! `kubectl rollout history`: a Deployment's revisions, read from the ReplicaSets it owns, or a
//! DaemonSet's or StatefulSet's, read from its ControllerRevisions. Mirrors
//! staging/src/k8s.io/kubectl/pkg/cmd/rollout/rollout_history.go and `DeploymentHistoryViewer`,
//! `DaemonSetHistoryViewer` and `StatefulSetHistoryViewer` in pkg/polymorphichelpers/history.go.

use super::{
    CHANGE_CAUSE_ANNOTATION, deployment_target, object_name, owned_replica_sets, require_resources, revision_of,
    template,
};
use crate::api::pod::PodTemplateSpec;
use crate::api::{Deployment, Kind, ObjectMeta};
use crate::controllers::{controlled_revisions, history};
use crate::kubectl::args::{Args, Flag, int_flag};
use crate::kubectl::output::Output;
use crate::kubectl::resource_args::targets;
use crate::kubectl::{Context, Verb, namespace_of, usage_error};
use crate::store::Store;
use std::collections::BTreeMap;

pub const VERB: Verb = Verb {
    name: "rollout history",
    short: "View rollout history",
    usage: "kubectl rollout history (TYPE NAME | TYPE/NAME) [flags]",
    flags: &[Flag::value("revision", None, "See the details, including podTemplate of the revision specified")],
    run,
};

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let revision = match int_flag(&args, "revision") {
        Ok(r) => r.unwrap_or(0),
        Err(message) => return usage_error(&VERB, &message),
    };
    if let Err(message) = require_resources(&args) {
        return Output::failed(message);
    }
    if revision < 0 {
        return Output::failed(format!("error: revision must be a positive integer: {revision}"));
    }
    let namespace = namespace_of(&args);
    let found = match targets(ctx, &args.positionals, &namespace) {
        Ok(found) => found,
        Err(message) => return Output::failed(message),
    };
    let mut out = Output::default();
    for (kind, name) in found {
        let unsupported =
            |kind: Kind| format!("error: no history viewer has been implemented for \"{}\"", super::group_kind(kind));
        let store = ctx.sim.store();
        let viewed = match kind {
            Kind::DaemonSet | Kind::StatefulSet => {
                store.get_object(kind, &namespace, &name).map_err(|e| e.to_string()).and_then(|owner| {
                    print_history(controller_revision_templates(store, owner.metadata()), revision)
                        .map_err(|e| format!("error: {e}"))
                })
            }
            _ => deployment_target(ctx, &namespace, kind, &name, unsupported)
                .and_then(|d| view_history(ctx.sim.store(), &d, revision).map_err(|e| format!("error: {e}"))),
        };
        match viewed {
            Ok(text) => {
                let with_revision = if revision > 0 { format!("with revision #{revision}") } else { String::new() };
                out.line(format!("{} {with_revision}\n{text}", object_name(kind, &name)));
            }
            Err(message) => {
                out.error(message);
                return out;
            }
        }
    }
    out
}

/// Each revision's pod template, with the ReplicaSet's change-cause copied into its annotations.
fn revisions(store: &Store, deployment: &Deployment) -> BTreeMap<i64, PodTemplateSpec> {
    let mut history = BTreeMap::new();
    for rs in owned_replica_sets(store, deployment) {
        let Ok(revision) = revision_of(&rs.metadata) else { continue };
        let mut template = rs.spec.template.clone();
        if let Some(cause) = rs.metadata.annotations.get(CHANGE_CAUSE_ANNOTATION).filter(|c| !c.is_empty()) {
            template.metadata.annotations.insert(CHANGE_CAUSE_ANNOTATION, cause);
        }
        history.insert(revision, template);
    }
    history
}

/// A DaemonSet's or StatefulSet's revisions (`DaemonSetHistoryViewer` and
/// `StatefulSetHistoryViewer`, the same but for the type): the ControllerRevisions `owner`
/// controls, each the template its patch puts back, by number. The change-cause is taken from
/// the revision's own annotations rather than the template's, as both viewers do.
fn controller_revision_templates(store: &Store, owner: &ObjectMeta) -> BTreeMap<i64, PodTemplateSpec> {
    let mut templates = BTreeMap::new();
    for revision in controlled_revisions::controlled_revisions(store, owner.uid) {
        let mut template = history::revision_template(&revision).unwrap_or_default();
        template.metadata.annotations.remove(CHANGE_CAUSE_ANNOTATION);
        if let Some(cause) = revision.metadata.annotations.get(CHANGE_CAUSE_ANNOTATION).filter(|c| !c.is_empty()) {
            template.metadata.annotations.insert(CHANGE_CAUSE_ANNOTATION, cause);
        }
        templates.insert(revision.revision, template);
    }
    templates
}

/// Upstream `ViewHistory`: the `REVISION  CHANGE-CAUSE` table, or one revision's pod template.
pub fn view_history(store: &Store, deployment: &Deployment, revision: i64) -> Result<String, String> {
    print_history(revisions(store, deployment), revision)
}

/// Upstream `printHistory`: the table, or the one revision's template.
fn print_history(history: BTreeMap<i64, PodTemplateSpec>, revision: i64) -> Result<String, String> {
    if history.is_empty() {
        return Ok("No rollout history found.".into());
    }
    if revision > 0 {
        let template = history.get(&revision).ok_or("unable to find the specified revision")?;
        return Ok(template::describe_pod_template(template));
    }
    // Upstream's tabwriter: cells padded to the widest plus 2 spaces; the last column unpadded.
    let width = history.keys().map(|r| r.to_string().len()).max().unwrap_or(0).max("REVISION".len()) + 2;
    let mut text = format!("{:<width$}CHANGE-CAUSE\n", "REVISION");
    for (revision, template) in &history {
        let cause = template.metadata.annotations.get(CHANGE_CAUSE_ANNOTATION).unwrap_or("<none>");
        text.push_str(&format!("{:<width$}{cause}\n", revision.to_string()));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use crate::kubectl::rollout::CHANGE_CAUSE_ANNOTATION;
    use crate::kubectl::rollout::fixtures::{deployment, kubectl, replica_set};
    use crate::sim::Sim;

    #[test]
    fn history_lists_owned_revisions_in_order() {
        let mut sim = Sim::default();
        let d = deployment(&mut sim, "hello:v2");
        replica_set(&mut sim, &d, 3, "hello:v2");
        let mut rs = replica_set(&mut sim, &d, 1, "hello:v1");
        rs.metadata.annotations.insert(CHANGE_CAUSE_ANNOTATION, "first release");
        sim.store_mut().update(rs).unwrap();
        let (text, code) = kubectl(&mut sim, "rollout history deploy/hello");
        assert_eq!(code, 0);
        assert_eq!(
            text,
            "deployment.apps/hello \nREVISION  CHANGE-CAUSE\n1         first release\n3         <none>\n\n"
        );
    }

    #[test]
    fn one_revision_shows_its_pod_template() {
        let mut sim = Sim::default();
        let d = deployment(&mut sim, "hello:v2");
        replica_set(&mut sim, &d, 1, "hello:v1");
        let (text, _) = kubectl(&mut sim, "rollout history deploy/hello --revision=1");
        assert!(text.starts_with("deployment.apps/hello with revision #1\nPod Template:\n"), "{text}");
        assert!(text.contains("    Image:\thello:v1\n"), "{text}");
        let (text, code) = kubectl(&mut sim, "rollout history deploy/hello --revision=7");
        assert_eq!((text.as_str(), code), ("error: unable to find the specified revision\n", 1));
    }

    #[test]
    fn no_history_other_kinds_and_missing_objects() {
        let mut sim = Sim::default();
        deployment(&mut sim, "hello:v1");
        let (text, _) = kubectl(&mut sim, "rollout history deploy/hello");
        assert_eq!(text, "deployment.apps/hello \nNo rollout history found.\n");
        let (text, _) = kubectl(&mut sim, "rollout history deploy/nope");
        assert_eq!(text, "Error from server (NotFound): deployments.apps \"nope\" not found\n");
        let (text, _) = kubectl(&mut sim, "rollout history ns/default");
        assert_eq!(text, "error: no history viewer has been implemented for \"Namespace\"\n");
        let (text, _) = kubectl(&mut sim, "rollout history deploy/hello --revision=-1");
        assert_eq!(text, "error: revision must be a positive integer: -1\n");
    }
}
