//! `kubectl rollout SUBCOMMAND`: manage the rollout of a Deployment, DaemonSet or StatefulSet.
//! Mirrors staging/src/k8s.io/kubectl/pkg/cmd/rollout/rollout.go; one file per subcommand, plus
//! what they share here: finding the object, a Deployment's ReplicaSets and their revisions.

pub mod history;
pub mod pause;
pub mod restart;
pub mod resume;
mod revision_undo;
pub mod status;
pub mod template;
pub mod undo;

use super::args::Args;
use super::output::Output;
use super::resource_args::targets;
use super::{Context, Verb, group_run, namespace_of};
use crate::api::pod::PodTemplateSpec;
use crate::api::{DaemonSet, Deployment, Kind, ObjectMeta, ReplicaSet, StatefulSet};
use crate::error::ApiError;
use crate::sim::time::SimTime;
use crate::store::{Store, Stored};

pub const VERB: Verb = Verb {
    name: "rollout",
    short: "Manage the rollout of a resource",
    usage: "kubectl rollout SUBCOMMAND [options]",
    flags: &[],
    run,
};

pub const SUBCOMMANDS: &[Verb] = &[history::VERB, pause::VERB, restart::VERB, resume::VERB, status::VERB, undo::VERB];

/// `deployment.kubernetes.io/revision`: which rollout a ReplicaSet (and its Deployment) is.
pub const REVISION_ANNOTATION: &str = "deployment.kubernetes.io/revision";
/// `kubernetes.io/change-cause`: the free-form note `rollout history` shows per revision.
pub const CHANGE_CAUSE_ANNOTATION: &str = "kubernetes.io/change-cause";
/// The label the Deployment controller adds to tell its ReplicaSets' pods apart.
pub const POD_TEMPLATE_HASH_LABEL: &str = "pod-template-hash";

fn run(_ctx: &mut Context<'_>, args: Args) -> Output {
    group_run(&VERB, &args)
}

/// Upstream `deploymentutil.Revision`: the revision annotation, 0 when absent; an annotation
/// that is not a number is an error (such ReplicaSets are left out of the history).
pub fn revision_of(meta: &ObjectMeta) -> Result<i64, String> {
    match meta.annotations.get(REVISION_ANNOTATION) {
        None => Ok(0),
        Some(text) => text.parse().map_err(|_| format!("strconv.ParseInt: parsing {text:?}: invalid syntax")),
    }
}

/// The ReplicaSets a Deployment owns: selected by its selector and controlled by its uid
/// (upstream `deploymentutil.ListReplicaSets`), in name order.
pub fn owned_replica_sets(store: &Store, deployment: &Deployment) -> Vec<ReplicaSet> {
    let Some(selector) = deployment.spec.selector.as_ref().and_then(|s| s.to_selector().ok()) else {
        return Vec::new();
    };
    let namespace = deployment.metadata.namespace.as_str();
    store
        .list::<ReplicaSet>(Some(namespace))
        .filter(|rs| selector.matches(&rs.metadata.labels))
        .filter(|rs| rs.metadata.controller_ref().is_some_and(|r| r.uid == deployment.metadata.uid))
        .cloned()
        .collect()
}

/// A named object that must be a Deployment: the API's NotFound when it does not exist,
/// `unsupported(kind)` when it exists but is of another kind.
pub fn deployment_target(
    ctx: &Context<'_>,
    namespace: &str,
    kind: Kind,
    name: &str,
    unsupported: impl Fn(Kind) -> String,
) -> Result<Deployment, String> {
    let store = ctx.sim.store();
    store.get_object(kind, namespace, name).map_err(|e| e.to_string())?;
    if kind != Kind::Deployment {
        return Err(unsupported(kind));
    }
    store.get::<Deployment>(namespace, name).cloned().map_err(|e| e.to_string())
}

/// `Pod`, `ReplicaSet.apps`: how upstream's `schema.GroupKind` prints.
pub fn group_kind(kind: Kind) -> String {
    let info = kind.info();
    if info.group.is_empty() { info.kind_name.to_string() } else { format!("{}.{}", info.kind_name, info.group) }
}

/// `deployment.apps/hello`: how kubectl's name printer names an object.
pub fn object_name(kind: Kind, name: &str) -> String {
    format!("{}/{name}", kind.info().singular_qualified())
}

/// Writes a changed Deployment back (a PUT at the version read).
pub fn write_deployment(ctx: &mut Context<'_>, deployment: Deployment) -> Result<Deployment, ApiError> {
    ctx.api().update_typed(deployment)
}

/// `required resource not specified`, as every rollout subcommand validates its arguments.
pub fn require_resources(args: &Args) -> Result<(), String> {
    if args.positionals.is_empty() && args.all("filename").is_empty() {
        return Err("error: required resource not specified".into());
    }
    Ok(())
}

/// How pause, resume and restart change a Deployment (upstream's ObjectPauser, ObjectResumer,
/// ObjectRestarter); an `Err` is the reason, printed after the object's name.
pub type Mutation = fn(&mut Deployment, SimTime) -> Result<(), String>;

/// The same for the pod template of a DaemonSet or StatefulSet, where the subcommand supports
/// them (restart does).
pub type TemplateMutation = fn(&mut PodTemplateSpec, SimTime);

/// Where a DaemonSet or StatefulSet keeps the pod template restart stamps and undo restores.
pub(super) type TemplateOf<T> = fn(&mut T) -> &mut PodTemplateSpec;

/// Runs a mutation over every named object, as `set.CalculatePatches` and the patch loop of
/// rollout_pause.go / rollout_resume.go / rollout_restart.go do: objects are looked up first
/// (a missing one stops everything), then each is changed and printed as `NAME OPERATION`,
/// and the errors are reported together at the end.
pub fn patch_objects(
    ctx: &mut Context<'_>,
    args: &Args,
    mutations: (Mutation, Option<TemplateMutation>),
    not_supported: &str,
    operation: &str,
) -> Output {
    if let Err(message) = require_resources(args) {
        return Output::failed(message);
    }
    let namespace = namespace_of(args);
    let found = match targets(ctx, &args.positionals, &namespace) {
        Ok(found) => found,
        Err(message) => return Output::failed(message),
    };
    for (kind, name) in &found {
        if let Err(err) = ctx.sim.store().get_object(*kind, &namespace, name) {
            return Output::failed(err.to_string());
        }
    }
    let mut out = Output::default();
    let mut errors = Vec::new();
    for (kind, name) in found {
        match patch_one(ctx, (kind, &namespace, &name), mutations, not_supported) {
            Ok(empty_patch) => {
                errors.extend(empty_patch);
                out.line(format!("{} {operation}", object_name(kind, &name)));
            }
            Err(message) => errors.push(message),
        }
    }
    for message in errors {
        out.error(message);
    }
    out
}

/// One object's turn in the patch loop: the mutation that fits its kind, then the write. `Ok`
/// carries upstream's complaint about an empty patch, which it reports and then sends anyway.
fn patch_one(
    ctx: &mut Context<'_>,
    (kind, namespace, name): (Kind, &str, &str),
    (mutation, templates): (Mutation, Option<TemplateMutation>),
    not_supported: &str,
) -> Result<Option<String>, String> {
    let reason = |reason: &str| format!("error: {} {name:?} {reason}", kind.info().plural_qualified());
    match (kind, templates) {
        (Kind::DaemonSet, Some(mutate)) => {
            patch_template::<DaemonSet>(ctx, (namespace, name), |ds| &mut ds.spec.template, mutate)
        }
        (Kind::StatefulSet, Some(mutate)) => {
            patch_template::<StatefulSet>(ctx, (namespace, name), |set| &mut set.spec.template, mutate)
        }
        _ => {
            let now = ctx.sim.now();
            let found = ctx.sim.store().try_get::<Deployment>(namespace, name).cloned();
            let deployment = found.ok_or_else(|| reason(not_supported))?;
            write_patched(ctx, deployment, |d| mutation(d, now).map_err(|r| reason(&r)))
        }
    }
}

/// A template mutation on an object of kind `T`, found by name.
fn patch_template<T: Stored>(
    ctx: &mut Context<'_>,
    (namespace, name): (&str, &str),
    template_of: TemplateOf<T>,
    mutate: TemplateMutation,
) -> Result<Option<String>, String> {
    let now = ctx.sim.now();
    let object = ctx.sim.store().get::<T>(namespace, name).cloned().map_err(|e| e.to_string())?;
    write_patched(ctx, object, |object| {
        mutate(template_of(object), now);
        Ok(())
    })
}

/// Changes `original` and writes it back (a PUT at the version read; upstream sends the
/// strategic merge patch between the two). An unchanged object is upstream's empty patch.
fn write_patched<T: Stored>(
    ctx: &mut Context<'_>,
    original: T,
    mutate: impl FnOnce(&mut T) -> Result<(), String>,
) -> Result<Option<String>, String> {
    let mut changed = original.clone();
    mutate(&mut changed)?;
    let empty = (changed == original)
        .then(|| format!("error: failed to create patch for {}: empty patch", original.metadata().name));
    ctx.api().update_typed(changed).map_err(|err| format!("error: failed to patch: {}", err.message()))?;
    Ok(empty)
}

#[cfg(test)]
pub(crate) mod fixtures {
    //! Crafted Deployments, ReplicaSets and a StatefulSet in a fresh lab, for the subcommands' tests.

    use super::*;
    use crate::api::container::Container;
    use crate::api::label_selector::LabelSelector;
    use crate::api::meta::OwnerReference;
    use crate::api::pod::PodTemplateSpec;
    use crate::api::shared::Shared;
    use crate::kubectl::MemoryFiles;
    use crate::sim::Sim;

    pub fn template(image: &str) -> PodTemplateSpec {
        let mut template = PodTemplateSpec::default();
        template.metadata.labels.insert("app", "hello");
        let container = Container { name: "hello".into(), image: Some(image.into()), ..Default::default() };
        template.spec.containers = Shared::new(vec![container]);
        template
    }

    pub fn deployment(sim: &mut Sim, image: &str) -> Deployment {
        let mut d = Deployment { metadata: ObjectMeta::named("default", "hello"), ..Default::default() };
        d.spec.replicas = Some(3);
        let mut selector = LabelSelector::default();
        selector.match_labels.insert("app", "hello");
        d.spec.selector = Some(selector);
        d.spec.template = template(image);
        sim.store_mut().create(d).unwrap()
    }

    /// A ReplicaSet of `owner` at `revision`, as the Deployment controller would have made it.
    pub fn replica_set(sim: &mut Sim, owner: &Deployment, revision: i64, image: &str) -> ReplicaSet {
        let hash = format!("hash{revision}");
        let mut rs =
            ReplicaSet { metadata: ObjectMeta::named("default", &format!("hello-{hash}")), ..Default::default() };
        rs.metadata.labels.insert("app", "hello");
        rs.metadata.labels.insert(POD_TEMPLATE_HASH_LABEL, hash.as_str());
        rs.metadata.annotations.insert(REVISION_ANNOTATION, revision.to_string());
        rs.metadata.owner_references.push(OwnerReference {
            api_version: "apps/v1".into(),
            kind: "Deployment".into(),
            name: owner.metadata.name.clone(),
            uid: owner.metadata.uid,
            controller: Some(true),
            block_owner_deletion: Some(true),
        });
        rs.spec.replicas = Some(0);
        rs.spec.selector = owner.spec.selector.clone();
        rs.spec.template = template(image);
        rs.spec.template.metadata.labels.insert(POD_TEMPLATE_HASH_LABEL, hash.as_str());
        sim.store_mut().create(rs).unwrap()
    }

    /// A StatefulSet `web` of three, made through the API so that it is defaulted as the API
    /// server would (RollingUpdate, OrderedReady). Each pod counts as available 5 s after it is
    /// ready, so a rollout's steps land on different seconds.
    pub fn stateful_set(sim: &mut Sim, image: &str) -> StatefulSet {
        let mut set = StatefulSet { metadata: ObjectMeta::named("default", "web"), ..Default::default() };
        set.spec.replicas = Some(3);
        set.spec.service_name = "web".into();
        set.spec.min_ready_seconds = Some(5);
        let mut selector = LabelSelector::default();
        selector.match_labels.insert("app", "hello");
        set.spec.selector = Some(selector);
        set.spec.template = template(image);
        let user = sim.kubectl_user();
        crate::apiserver::Client::new(sim.store_mut(), user).create_typed(set).unwrap()
    }

    /// Runs one kubectl command line against the lab; returns what a terminal shows.
    pub fn kubectl(sim: &mut Sim, line: &str) -> (String, i32) {
        let files = MemoryFiles::new();
        let mut ctx = Context { sim, files: &files, stdin: None };
        let argv: Vec<String> = line.split_whitespace().map(String::from).collect();
        let out = crate::kubectl::run(&mut ctx, &argv);
        // As every host does after a command: the cluster reacts to what it sent.
        ctx.sim.settle();
        (out.render(), out.exit_code)
    }

    #[test]
    fn the_verb_alone_prints_its_subcommands_and_unknown_ones_are_refused() {
        let mut sim = Sim::default();
        let (text, code) = kubectl(&mut sim, "rollout");
        assert_eq!(code, 1);
        assert!(text.contains("Available Commands:\n  history       View rollout history\n"), "{text}");
        let (text, code) = kubectl(&mut sim, "rollout rewind deploy/hello");
        assert_eq!(code, 1);
        assert_eq!(
            text,
            "error: unknown command \"rewind deploy/hello\"\nSee 'kubectl rollout -h' for help and examples\n"
        );
        let (text, _) = kubectl(&mut sim, "rollout status --bogus");
        assert_eq!(text, "error: unknown flag: --bogus\nSee 'kubectl rollout status --help' for usage.\n");
        let (text, _) = kubectl(&mut sim, "set image --help");
        assert!(text.starts_with("Update the image of a pod template.\n\n"), "{text}");
        assert!(text.contains("\nUsage:\n  kubectl set image"), "{text}");
    }
}
