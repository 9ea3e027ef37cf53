//! The reconcile loop made visible: for the step on show (the last command or stretch of
//! clock time, or the one just before the scrubber's point), which loops acted, in order (each
//! Event's source component and reason, counted), and what was written to the API server per
//! kind: the watch stream every controller's informer reads, and the only way they talk.

use crate::lab_handle::LabHandle;
use crate::lab_session::LabSession;
use kubelab_core::api::Kind;
use kubelab_core::api::event::Event;
use kubelab_core::store::watch::WatchEventType;
use leptos::prelude::*;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StepActivity {
    pub script: String,
    /// `(component, reason, count)` in the order the loops first acted.
    pub actors: Vec<(String, String, usize)>,
    /// `(kind, added, modified, deleted)` in the order each kind was first written.
    pub writes: Vec<(&'static str, [usize; 3])>,
    /// The watch log no longer reaches back to the step's start (a very long stretch).
    pub truncated: bool,
}

/// What the step before the point on show did; `None` before the first command.
pub fn activity(session: &LabSession) -> Option<StepActivity> {
    let position = session.past_position().unwrap_or(session.timeline().len());
    let moment = session.timeline().moments().get(position.checked_sub(1)?)?;
    let store = session.lab().sim().store();
    let mut step =
        StepActivity { script: moment.script.lines().next().unwrap_or_default().to_string(), ..Default::default() };
    let Ok(writes) = store.watch_log().since(moment.resource_version_before) else {
        step.truncated = true;
        return Some(step);
    };
    for write in writes {
        count_write(&mut step.writes, write.kind.info().kind_name, write.type_);
        if write.kind == Kind::Event
            && write.type_ != WatchEventType::Deleted
            && let Some(event) = store.try_get::<Event>(&write.namespace, &write.name)
        {
            count_actor(&mut step.actors, event);
        }
    }
    Some(step)
}

fn count_write(writes: &mut Vec<(&'static str, [usize; 3])>, kind: &'static str, type_: WatchEventType) {
    let slot = match type_ {
        WatchEventType::Added => 0,
        WatchEventType::Modified => 1,
        WatchEventType::Deleted => 2,
    };
    match writes.iter_mut().find(|(k, _)| *k == kind) {
        Some((_, counts)) => counts[slot] += 1,
        None => {
            let mut counts = [0; 3];
            counts[slot] = 1;
            writes.push((kind, counts));
        }
    }
}

fn count_actor(actors: &mut Vec<(String, String, usize)>, event: &Event) {
    let component = event.source.component.clone().or_else(|| event.reporting_component.clone()).unwrap_or_default();
    let reason = event.reason.clone().unwrap_or_default();
    match actors.iter_mut().find(|(c, r, _)| *c == component && *r == reason) {
        Some((_, _, count)) => *count += 1,
        None => actors.push((component, reason, 1)),
    }
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
    view! {
        <p class="reconcile-step"><code>{step.script}</code>{step.truncated.then_some(" (too long ago to list)")}</p>
        <ol class="reconcile-actors">
            {step.actors.into_iter().map(|(component, reason, count)| view! {
                <li><span class="reconcile-component">{component}</span>" " {reason}{(count > 1).then(|| format!(" ×{count}"))}</li>
            }).collect_view()}
        </ol>
        <p class="reconcile-writes">"Writes to the API server: "{writes.collect::<Vec<_>>().join(" · ")}</p>
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
