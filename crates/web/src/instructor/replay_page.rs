//! `#/teach/class/<id>/replay/<learner>`: a learner's lab, read-only. The page fetches the
//! lab's log (lesson, seed, scripts) and rebuilds it here by running every script again in a
//! fresh lab — the simulator is deterministic, so this is the learner's cluster — then shows
//! the cluster and the transcript, with no prompt.

use crate::engine::{Engine, LiveLab};
use crate::instructor::dashboard_model::lesson_label;
use crate::lab::cluster_view::ClusterView;
use crate::lab::lab_handle::LabHandle;
use crate::lab::terminal::transcript_text;
use crate::lesson::lessons::catalogue;
use crate::pages::error_panel::ErrorPanel;
use crate::pages::route::Route;
use crate::server::api_client;
use kubelab_wire::SavedLab;
use leptos::prelude::*;
use leptos::task::spawn_local;

#[component]
pub fn ReplayPage(class_id: String, learner: String, engine: &'static dyn Engine) -> impl IntoView {
    let log = RwSignal::new(None::<Result<SavedLab, String>>);
    let path = format!(
        "/api/classes/{}/learners/{}/lab",
        api_client::path_segment(&class_id),
        api_client::path_segment(&learner)
    );
    spawn_local(async move {
        let answer = api_client::get::<SavedLab>(&path).await.map_err(|problem| problem.detail);
        let _ = log.try_set(Some(answer));
    });
    view! {
        <p class="breadcrumb"><a href=Route::TeachClass(class_id.clone()).href()>"Dashboard"</a>" › replay"</p>
        <h1>"Replay of a learner's lab"</h1>
        {move || match log.get() {
            None => view! { <p role="status">"Loading the lab…"</p> }.into_any(),
            Some(Err(detail)) => view! { <ErrorPanel title="No lab to replay".to_string() message=detail /> }.into_any(),
            Some(Ok(log)) => replay(engine, log),
        }}
    }
}

fn replay(engine: &'static dyn Engine, log: SavedLab) -> AnyView {
    let session = match rebuild(engine, &log.lesson, log.seed) {
        Ok(session) => session,
        Err(message) => {
            return view! { <ErrorPanel title="This lab cannot be replayed".to_string() message=message /> }.into_any();
        }
    };
    let lab = LabHandle::new(session);
    for script in &log.scripts {
        lab.run(script);
    }
    let earlier = kubelab_core::version::earlier_behaviour_notice(log.behaviour);
    view! {
        <p>{format!("{} · {} commands · seed {}", lesson_label(&log.lesson, None), log.scripts.len(), log.seed)}</p>
        {earlier.map(|notice| view! { <p class="lab-notice" role="status">{notice}</p> })}
        <div class="lesson-layout replay">
            <section class="terminal" aria-label="The learner's transcript (read-only)">
                <pre class="terminal-output" id="terminal-output" tabindex="0">{move || transcript_text(&lab.transcript.get())}</pre>
            </section>
            <ClusterView lab=lab />
        </div>
    }
    .into_any()
}

/// A fresh lab for a logged lesson and seed, refusing a seed the bundled lesson would not use
/// (the replay would show a different cluster). Hosted labs start from it too.
pub fn rebuild(engine: &dyn Engine, lesson_id: &str, seed: u64) -> Result<Box<dyn LiveLab>, String> {
    if lesson_id == "sandbox" {
        return Ok(engine.sandbox(3));
    }
    let lesson = catalogue()
        .find(lesson_id)
        .ok_or_else(|| format!("this app does not have the lesson “{lesson_id}”; update the web app"))?;
    let lesson_seed = lesson.seed.unwrap_or(1);
    if lesson_seed != seed {
        return Err(format!("the lab used seed {seed} but the lesson here uses seed {lesson_seed}"));
    }
    engine.lesson_lab(lesson)
}
