//! `kubectl rollout resume`: let the Deployment controller act on a paused Deployment again.
//! Mirrors staging/src/k8s.io/kubectl/pkg/cmd/rollout/rollout_resume.go and
//! pkg/polymorphichelpers/objectresumer.go.

use super::patch_objects;
use crate::api::Deployment;
use crate::kubectl::args::Args;
use crate::kubectl::output::Output;
use crate::kubectl::{Context, Verb};
use crate::sim::time::SimTime;

pub const VERB: Verb = Verb {
    name: "rollout resume",
    short: "Resume a paused resource",
    usage: "kubectl rollout resume RESOURCE",
    flags: &[],
    run,
};

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    patch_objects(ctx, &args, (resume, None), "resuming is not supported", "resumed")
}

/// Upstream `defaultObjectResumer`. `paused: false` is omitted on the wire, so it is unset here.
fn resume(deployment: &mut Deployment, _now: SimTime) -> Result<(), String> {
    if deployment.spec.paused != Some(true) {
        return Err("is not paused".into());
    }
    deployment.spec.paused = None;
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::api::Deployment;
    use crate::kubectl::rollout::fixtures::{deployment, kubectl};
    use crate::sim::Sim;

    #[test]
    fn resume_undoes_pause() {
        let mut sim = Sim::default();
        deployment(&mut sim, "hello:v1");
        let (text, _) = kubectl(&mut sim, "rollout resume deploy/hello");
        assert_eq!(text, "error: deployments.apps \"hello\" is not paused\n");
        kubectl(&mut sim, "rollout pause deploy/hello");
        let (text, code) = kubectl(&mut sim, "rollout resume deployment hello");
        assert_eq!((text.as_str(), code), ("deployment.apps/hello resumed\n", 0));
        let d = sim.store().get::<Deployment>("default", "hello").unwrap();
        assert_eq!((d.spec.paused, d.metadata.generation), (None, 3));
    }
}
