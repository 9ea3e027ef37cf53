//! The reconcile loop made visible: for the step on show (the last command or stretch of
//! clock time, or the one just before the scrubber's point), which loops acted, in order (each
//! Event's source component and reason, counted), and what was written to the API server per
//! kind: the watch stream every controller's informer reads, and the only way they talk.

use crate::lab::lab_handle::LabHandle;
use crate::lab::lab_session::LabSession;
use kubelab_core::view::reconcile;
use leptos::prelude::*;

pub use kubelab_core::view::reconcile::StepActivity;

/// What the step before the point on show did; `None` before the first command.
pub fn activity(session: &LabSession) -> Option<StepActivity> {
    let position = session.past_position().unwrap_or(session.timeline().len());
    let moment = session.timeline().moments().get(position.checked_sub(1)?)?;
    Some(reconcile::activity(session.lab().sim(), moment.resource_version_before, &moment.script))
}

#[component]
pub fn ReconcilePanel(lab: LabHandle) -> impl IntoView {
    // Counted only while unfolded: on a big cluster a step writes hundreds of thousands of
    // times, and the lab redraws every frame while it reconciles.
    let open = RwSignal::new(false);
    let toggle = move |ev: leptos::ev::Event| open.set(event_target::<web_sys::Element>(&ev).has_attribute("open"));
    view! {
        <details class="reconcile" on:toggle=toggle>
            <summary>"Reconcile loops: what the last step set in motion"</summary>
            {move || open.get().then(|| match lab.with(|session| session.activity()) {
                None => view! { <p>"Nothing has run yet."</p> }.into_any(),
                Some(step) => step_view(step).into_any(),
            })}
        </details>
    }
}

fn step_view(step: StepActivity) -> impl IntoView {
    let writes = step.writes.iter().map(|(kind, [added, modified, deleted])| {
        let mut parts = Vec::new();
        for (count, verb) in [(added, "added"), (modified, "modified"), (deleted, "deleted")] {
            if *count > 0 {
                parts.push(format!("{count} {verb}"));
            }
        }
        format!("{kind}: {}", parts.join(", "))
    });
    let writers: Vec<String> = step.writers.iter().map(|(who, n)| format!("{who} ×{n}")).collect();
    view! {
        <p class="reconcile-step"><code>{step.script}</code>{step.truncated.then_some(" (too long ago to list)")}</p>
        <ol class="reconcile-actors">
            {step.actors.into_iter().map(|(component, reason, count)| view! {
                <li><span class="reconcile-component">{component}</span>" " {reason}{(count > 1).then(|| format!(" ×{count}"))}</li>
            }).collect_view()}
        </ol>
        <p class="reconcile-writes">"Writes to the API server: "{writes.collect::<Vec<_>>().join(" · ")}</p>
        <p class="reconcile-writers">"Written by: "{writers.join(" · ")}</p>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deployment_sets_each_loop_in_motion_in_turn() {
        let mut session = LabSession::sandbox();
        assert_eq!(activity(&session), None);
        session.run("kubectl create deployment web --image=hello:v1 --replicas=2");
        let step = activity(&session).unwrap();
        let actors: Vec<(&str, &str)> = step.actors.iter().map(|(c, r, _)| (c.as_str(), r.as_str())).collect();
        assert_eq!(actors[0], ("deployment-controller", "ScalingReplicaSet"), "{actors:?}");
        assert!(actors.contains(&("replicaset-controller", "SuccessfulCreate")), "{actors:?}");
        assert!(actors.contains(&("default-scheduler", "Scheduled")), "{actors:?}");
        assert_eq!((step.writes[0].0, step.writes[0].1[0]), ("Deployment", 1), "{:?}", step.writes);
        session.run("sleep 1m");
        let later = activity(&session).unwrap();
        assert!(later.actors.iter().any(|(c, r, n)| c == "kubelet" && r == "Started" && *n == 2), "{:?}", later.actors);
        session.scrub_to(1);
        assert_eq!(activity(&session).unwrap(), step);
    }
}
