//! `kubectl rollout restart`: roll every pod by stamping the template with the current time.
//! Mirrors staging/src/k8s.io/kubectl/pkg/cmd/rollout/rollout_restart.go and
//! pkg/polymorphichelpers/objectrestarter.go.

use super::patch_objects;
use crate::api::Deployment;
use crate::api::pod::PodTemplateSpec;
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
    patch_objects(ctx, &args, (restart, Some(stamp)), "restarting is not supported", "restarted")
}

/// Upstream `defaultObjectRestarter` for a Deployment: refused while paused, else stamped.
fn restart(deployment: &mut Deployment, now: SimTime) -> Result<(), String> {
    if deployment.spec.paused == Some(true) {
        return Err("can't restart paused deployment (run rollout resume first)".into());
    }
    stamp(&mut deployment.spec.template, now);
    Ok(())
}

/// The stamp itself, the whole of `defaultObjectRestarter` for a DaemonSet or StatefulSet
/// (neither is refused, whatever its update strategy): `time.Now()` in RFC 3339, virtual here.
fn stamp(template: &mut PodTemplateSpec, now: SimTime) {
    template.metadata.annotations.insert(RESTARTED_AT_ANNOTATION, now.to_rfc3339());
}

#[cfg(test)]
mod tests {
    use super::RESTARTED_AT_ANNOTATION;
    use crate::api::Deployment;
    use crate::kubectl::rollout::fixtures::{deployment, kubectl, stateful_set};
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

    #[test]
    fn a_restarted_stateful_set_rolls_its_pods_from_the_highest_ordinal_down() {
        let mut sim = Sim::default();
        stateful_set(&mut sim, "hello:v1");
        sim.advance(Duration::from_secs(60));
        let (text, code) = kubectl(&mut sim, "rollout restart sts/web");
        assert_eq!((text.as_str(), code), ("statefulset.apps/web restarted\n", 0));
        // Within the same second the stamp is the same: upstream's empty patch, sent anyway.
        let (text, _) = kubectl(&mut sim, "rollout restart sts/web");
        assert_eq!(text, "statefulset.apps/web restarted\nerror: failed to create patch for web: empty patch\n");
        sim.advance(Duration::from_secs(60));
        let columns = "NAME:.metadata.name,CREATED:.metadata.creationTimestamp,REVISION:.metadata.labels.controller-revision-hash";
        let (text, _) = kubectl(&mut sim, &format!("get pods -o custom-columns={columns}"));
        // Replaced from the highest ordinal down, each once the one before is available (5 s).
        assert_eq!(
            text,
            "NAME    CREATED                REVISION\n\
             web-0   2025-01-01T00:01:21Z   web-5bd7d465f4\n\
             web-1   2025-01-01T00:01:15Z   web-5bd7d465f4\n\
             web-2   2025-01-01T00:01:10Z   web-5bd7d465f4\n"
        );
        let (text, _) = kubectl(&mut sim, "rollout history sts/web");
        assert_eq!(text, "statefulset.apps/web \nREVISION  CHANGE-CAUSE\n1         <none>\n2         <none>\n\n");
    }
}
