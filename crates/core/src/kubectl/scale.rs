//! `kubectl scale --replicas=N`: set a new size for Deployments, ReplicaSets and StatefulSets, optionally
//! only if the current size is `--current-replicas`. Mirrors
//! staging/src/k8s.io/kubectl/pkg/cmd/scale/scale.go and pkg/scale/scale.go.

use super::args::{Args, Flag, int_flag};
use super::output::Output;
use super::resource_args::targets;
use super::{CommandError, Context, Verb, namespace_of};
use crate::api::{Deployment, Kind, ReplicaSet, StatefulSet};
use crate::apiserver::Client;

pub const VERB: Verb = Verb {
    name: "scale",
    short: "Set a new size for a deployment, replica set, or replication controller",
    usage: "kubectl scale [--resource-version=version] [--current-replicas=count] --replicas=COUNT (-f FILENAME | TYPE NAME)",
    flags: &[
        Flag::value("replicas", None, "The new desired number of replicas. Required."),
        Flag::value(
            "current-replicas",
            None,
            "Precondition for current size. Requires that the current size of the resource match this value in order to scale. -1 (default) for no condition.",
        ),
        Flag::value(
            "resource-version",
            None,
            "Precondition for resource version. Requires that the current resource version match this value in order to scale.",
        ),
    ],
    run,
};

/// What the flags ask for.
struct Request {
    replicas: i32,
    current_replicas: Option<i32>,
    resource_version: Option<String>,
}

fn request(args: &Args) -> Result<Request, CommandError> {
    let replicas = int_flag(args, "replicas")?;
    let current = int_flag(args, "current-replicas")?.unwrap_or(-1);
    let failed = |message: &str| Err(CommandError::Failed(message.to_string()));
    let Some(replicas) = replicas else {
        return failed("error: required flag(s) \"replicas\" not set");
    };
    if !(0..=i64::from(i32::MAX)).contains(&replicas) {
        return failed("error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0");
    }
    if current < -1 || current > i64::from(i32::MAX) {
        return failed("error: The --current-replicas must specify an integer of -1 or greater");
    }
    Ok(Request {
        replicas: replicas as i32,
        current_replicas: (current >= 0).then_some(current as i32),
        resource_version: args.get("resource-version").filter(|v| !v.is_empty()).map(str::to_string),
    })
}

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let request = match request(&args) {
        Err(error) => return error.output(VERB.name),
        Ok(request) => request,
    };
    if args.positionals.is_empty() {
        return Output::failed("error: no objects passed to scale");
    }
    let namespace = namespace_of(&args);
    let found = match targets(ctx, &args.positionals, &namespace) {
        Ok(found) => found,
        Err(message) => return Output::failed(message),
    };
    if request.resource_version.is_some() && found.len() > 1 {
        return Output::failed("error: cannot use --resource-version with multiple resources");
    }
    let mut out = Output::default();
    for (kind, name) in found {
        let scaled = scale_one(&mut ctx.api(), kind, &namespace, &name, &request);
        match scaled {
            Ok(()) => out.line(format!("{}/{name} scaled", kind.info().singular_qualified())),
            Err(message) => {
                out.error(message);
                return out;
            }
        }
    }
    out
}

/// The scale subresource: check the preconditions against `spec.replicas`, then set it.
fn scale_one(api: &mut Client<'_>, kind: Kind, namespace: &str, name: &str, request: &Request) -> Result<(), String> {
    let store = api.store();
    store.get_object(kind, namespace, name).map_err(|e| e.to_string())?;
    let written = match kind {
        Kind::Deployment => {
            let mut d = store.get::<Deployment>(namespace, name).map_err(|e| e.to_string())?.clone();
            check(request, d.spec.replicas, d.metadata.resource_version.0)?;
            d.spec.replicas = Some(request.replicas);
            api.update_typed(d).map(|_| ())
        }
        Kind::ReplicaSet => {
            let mut rs = store.get::<ReplicaSet>(namespace, name).map_err(|e| e.to_string())?.clone();
            check(request, rs.spec.replicas, rs.metadata.resource_version.0)?;
            rs.spec.replicas = Some(request.replicas);
            api.update_typed(rs).map(|_| ())
        }
        Kind::StatefulSet => {
            let mut set = store.get::<StatefulSet>(namespace, name).map_err(|e| e.to_string())?.clone();
            check(request, set.spec.replicas, set.metadata.resource_version.0)?;
            set.spec.replicas = Some(request.replicas);
            api.update_typed(set).map(|_| ())
        }
        // No scale subresource: the API server answers 404 for the URL itself.
        _ => return Err("Error from server (NotFound): the server could not find the requested resource".into()),
    };
    written.map_err(|e| e.to_string())
}

/// Upstream `ScalePrecondition.validate`.
fn check(request: &Request, replicas: Option<i32>, resource_version: u64) -> Result<(), String> {
    let current = replicas.unwrap_or(1);
    if let Some(expected) = request.current_replicas
        && expected != current
    {
        return Err(format!("error: Expected replicas to be {expected}, was {current}"));
    }
    if let Some(expected) = &request.resource_version
        && *expected != resource_version.to_string()
    {
        return Err(format!("error: Expected resource version to be {expected}, was {resource_version}"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::api::{Deployment, ReplicaSet};
    use crate::kubectl::rollout::fixtures::{deployment, kubectl, replica_set};
    use crate::sim::Sim;

    fn replicas(sim: &Sim) -> Option<i32> {
        sim.store().get::<Deployment>("default", "hello").unwrap().spec.replicas
    }

    #[test]
    fn scale_sets_replicas_in_every_spelling() {
        let mut sim = Sim::default();
        let d = deployment(&mut sim, "hello:v1");
        let (text, code) = kubectl(&mut sim, "scale deploy/hello --replicas=5");
        assert_eq!((text.as_str(), code), ("deployment.apps/hello scaled\n", 0));
        assert_eq!(replicas(&sim), Some(5));
        let (text, _) = kubectl(&mut sim, "scale deployment hello --replicas 2");
        assert_eq!(text, "deployment.apps/hello scaled\n");
        assert_eq!(replicas(&sim), Some(2));
        // A ReplicaSet no Deployment controls (another app's), so nothing scales it back.
        let mut rs = replica_set(&mut sim, &d, 1, "hello:v1");
        rs.metadata.owner_references.clear();
        rs.metadata.labels.insert("app", "other");
        rs.spec.selector.as_mut().unwrap().match_labels.insert("app", "other");
        rs.spec.template.metadata.labels.insert("app", "other");
        sim.store_mut().delete::<ReplicaSet>("default", "hello-hash1", &Default::default()).unwrap();
        rs.metadata.resource_version = Default::default();
        sim.store_mut().create(rs).unwrap();
        let (text, _) = kubectl(&mut sim, "scale --replicas=4 rs/hello-hash1");
        assert_eq!(text, "replicaset.apps/hello-hash1 scaled\n");
        let rs = sim.store().get::<ReplicaSet>("default", "hello-hash1").unwrap();
        assert_eq!(rs.spec.replicas, Some(4));
    }

    #[test]
    fn preconditions_and_flag_errors_read_like_kubectl() {
        let mut sim = Sim::default();
        deployment(&mut sim, "hello:v1");
        let (text, code) = kubectl(&mut sim, "scale deploy/hello --current-replicas=2 --replicas=5");
        assert_eq!((text.as_str(), code), ("error: Expected replicas to be 2, was 3\n", 1));
        assert_eq!(replicas(&sim), Some(3));
        let (text, _) = kubectl(&mut sim, "scale deploy/hello --current-replicas=3 --replicas=1");
        assert_eq!(text, "deployment.apps/hello scaled\n");
        let (text, _) = kubectl(&mut sim, "scale deploy/hello");
        assert_eq!(text, "error: required flag(s) \"replicas\" not set\n");
        let (text, _) = kubectl(&mut sim, "scale deploy/hello --replicas=-1");
        assert_eq!(
            text,
            "error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0\n"
        );
        let (text, _) = kubectl(&mut sim, "scale deploy/hello --replicas=lots");
        assert!(text.starts_with("error: invalid argument \"lots\" for \"--replicas\" flag"), "{text}");
        let (text, _) = kubectl(&mut sim, "scale deploy/nope --replicas=1");
        assert_eq!(text, "Error from server (NotFound): deployments.apps \"nope\" not found\n");
        let (text, _) = kubectl(&mut sim, "scale ns/default --replicas=1");
        assert_eq!(text, "Error from server (NotFound): the server could not find the requested resource\n");
    }
}
