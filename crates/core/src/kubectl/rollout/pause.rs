//! `kubectl rollout pause`: stop the Deployment controller from acting on template changes.
//! Mirrors staging/src/k8s.io/kubectl/pkg/cmd/rollout/rollout_pause.go and
//! pkg/polymorphichelpers/objectpauser.go.

use super::patch_objects;
use crate::api::Deployment;
use crate::kubectl::args::Args;
use crate::kubectl::output::Output;
use crate::kubectl::{Context, Verb};
use crate::sim::time::SimTime;

pub const VERB: Verb = Verb {
    name: "rollout pause",
    short: "Mark the provided resource as paused",
    usage: "kubectl rollout pause RESOURCE",
    flags: &[],
    run,
};

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    patch_objects(ctx, &args, (pause, None), "pausing is not supported", "paused")
}

/// Upstream `defaultObjectPauser`.
fn pause(deployment: &mut Deployment, _now: SimTime) -> Result<(), String> {
    if deployment.spec.paused == Some(true) {
        return Err("is already paused".into());
    }
    deployment.spec.paused = Some(true);
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::api::Deployment;
    use crate::kubectl::rollout::fixtures::{deployment, kubectl};
    use crate::sim::Sim;

    #[test]
    fn pause_marks_the_deployment_once() {
        let mut sim = Sim::default();
        deployment(&mut sim, "hello:v1");
        let (text, code) = kubectl(&mut sim, "rollout pause deploy/hello");
        assert_eq!((text.as_str(), code), ("deployment.apps/hello paused\n", 0));
        let d = sim.store().get::<Deployment>("default", "hello").unwrap();
        assert_eq!((d.spec.paused, d.metadata.generation), (Some(true), 2));
        let (text, code) = kubectl(&mut sim, "rollout pause deploy/hello");
        assert_eq!((text.as_str(), code), ("error: deployments.apps \"hello\" is already paused\n", 1));
    }

    #[test]
    fn pause_refuses_other_kinds_and_missing_objects() {
        let mut sim = Sim::default();
        let (text, _) = kubectl(&mut sim, "rollout pause deploy/nope");
        assert_eq!(text, "Error from server (NotFound): deployments.apps \"nope\" not found\n");
        let (text, _) = kubectl(&mut sim, "rollout pause ns default");
        assert_eq!(text, "error: namespaces \"default\" pausing is not supported\n");
    }
}
