//! `kubectl rollout restart`: roll every pod by stamping the template with the current time.
//! Mirrors staging/src/k8s.io/kubectl/pkg/cmd/rollout/rollout_restart.go and
//! pkg/polymorphichelpers/objectrestarter.go.

use super::patch_deployments;
use crate::api::Deployment;
use crate::kubectl::args::Args;
use crate::kubectl::output::Output;
use crate::kubectl::{Context, Verb};
use crate::sim::time::SimTime;

pub const VERB: Verb = Verb {
    name: "rollout restart",
    short: "Restart a resource",
    usage: "kubectl rollout restart RESOURCE",
    flags: &[],
    run,
};

/// The template annotation whose change makes the Deployment roll its pods.
pub const RESTARTED_AT_ANNOTATION: &str = "kubectl.kubernetes.io/restartedAt";

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    patch_deployments(ctx, &args, (restart, Some(restart_daemon_set)), "restarting is not supported", "restarted")
}

/// Upstream `defaultObjectRestarter`, with virtual time for `time.Now()`.
fn restart(deployment: &mut Deployment, now: SimTime) -> Result<(), String> {
    if deployment.spec.paused == Some(true) {
        return Err("can't restart paused deployment (run rollout resume first)".into());
    }
    deployment.spec.template.metadata.annotations.insert(RESTARTED_AT_ANNOTATION, now.to_rfc3339());
    Ok(())
}

/// The same stamp on a DaemonSet's template.
fn restart_daemon_set(ds: &mut crate::api::DaemonSet, now: SimTime) {
    ds.spec.template.metadata.annotations.insert(RESTARTED_AT_ANNOTATION, now.to_rfc3339());
}

#[cfg(test)]
mod tests {
    use super::RESTARTED_AT_ANNOTATION;
    use crate::api::Deployment;
    use crate::kubectl::rollout::fixtures::{deployment, kubectl};
    use crate::sim::Sim;
    use crate::sim::time::Duration;

    #[test]
    fn restart_stamps_the_template_with_virtual_time() {
        let mut sim = Sim::default();
        deployment(&mut sim, "hello:v1");
        sim.advance(Duration::from_secs(65));
        let (text, code) = kubectl(&mut sim, "rollout restart deploy/hello");
        assert_eq!((text.as_str(), code), ("deployment.apps/hello restarted\n", 0));
        let d = sim.store().get::<Deployment>("default", "hello").unwrap();
        let stamp = d.spec.template.metadata.annotations.get(RESTARTED_AT_ANNOTATION);
        assert_eq!(
            (stamp, d.metadata.generation),
            (Some("2025-01-01T00:01:15Z"), 2),
            "the lab starts 10 s after its cluster did"
        );
        let (text, _) = kubectl(&mut sim, "rollout restart deploy/hello");
        assert_eq!(text, "deployment.apps/hello restarted\nerror: failed to create patch for hello: empty patch\n");
    }

    #[test]
    fn paused_deployments_are_not_restarted() {
        let mut sim = Sim::default();
        deployment(&mut sim, "hello:v1");
        kubectl(&mut sim, "rollout pause deploy/hello");
        let (text, _) = kubectl(&mut sim, "rollout restart deploy/hello");
        assert_eq!(
            text,
            "error: deployments.apps \"hello\" can't restart paused deployment (run rollout resume first)\n"
        );
    }
}
