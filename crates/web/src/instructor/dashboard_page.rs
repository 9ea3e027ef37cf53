//! `#/teach/class/<id>`: the class live. The page holds `GET /api/classes/{id}/live` open and
//! redraws on every update the server pushes (the whole dashboard first, then what changed); time on the current step ticks locally between
//! snapshots, corrected by the server's clock. Below: how the class answered each question, and
//! the fault form.

use crate::instructor::dashboard_model::{AnswerGroup, format_elapsed, group_answers, lesson_label};
use crate::instructor::fault_form::FaultForm;
use crate::pages::error_panel::ErrorPanel;
use crate::pages::route::Route;
use crate::server::api_client;
use crate::server::live_socket::{LinkState, LiveSocket};
use kubelab_wire::{ChallengeResult, Dashboard, LearnerRow, LiveMessage};
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::time::Duration;

fn now_ms() -> i64 {
    js_sys::Date::now() as i64
}

#[component]
pub fn DashboardPage(class_id: String) -> impl IntoView {
    let dashboard = RwSignal::new(None::<Dashboard>);
    // Server clock minus ours, so elapsed times use the server's idea of now.
    let clock_offset = RwSignal::new(0i64);
    let link = RwSignal::new(LinkState::Connecting);
    let tick = RwSignal::new(now_ms());
    let refused = RwSignal::new(None::<String>);
    check_then_open(class_id.clone(), dashboard, clock_offset, link, refused);
    if let Ok(handle) = set_interval_with_handle(move || tick.set(now_ms()), Duration::from_secs(1)) {
        on_cleanup(move || handle.clear());
    }
    let now = Signal::derive(move || tick.get() + clock_offset.get());
    view! {
        <p class="breadcrumb"><a href=Route::Teach.href()>"Teach"</a>" › dashboard"</p>
        {move || refused.get().map(|detail| view! { <ErrorPanel title="This dashboard is not yours to see".to_string() message=detail /> })}
        <h1>{move || dashboard.with(|d| d.as_ref().map(|d| d.class.name.clone()).unwrap_or_else(|| "Class".into()))}</h1>
        <p class="link-state" role="status">{move || link_text(link.get())}
            {move || dashboard.with(|d| d.as_ref().map(|d| format!(" · join code {}", d.class.join_code)))}
            {move || dashboard.with(|d| d.as_ref().filter(|d| d.class.joins_locked).map(|_| " (locked: no one else can join)"))}
        </p>
        <JoinLock class_id=class_id.clone() dashboard=dashboard />
        {move || dashboard.get().map(|d| {
            let class_id = d.class.id.clone();
            view! {
                <LearnersTable rows=d.learners.clone() class_id=class_id now=now />
                <Answers groups=group_answers(&d.answers) />
            }
        })}
        <Show when=move || refused.get().is_none()>
            <FaultForm class_id=class_id.clone() />
        </Show>
    }
}

/// Loads the dashboard once over HTTP (a WebSocket cannot say why it was refused), then keeps
/// it live over the socket; a refusal is shown instead.
fn check_then_open(
    class_id: String,
    dashboard: RwSignal<Option<Dashboard>>,
    clock_offset: RwSignal<i64>,
    link: RwSignal<LinkState>,
    refused: RwSignal<Option<String>>,
) {
    // The socket lives in the page's arena so the page's cleanup closes it.
    let socket = StoredValue::new_local(None::<LiveSocket>);
    on_cleanup(move || {
        socket.try_update_value(|socket| socket.take().map(|s| s.close()));
    });
    spawn_local(async move {
        let path = format!("/api/classes/{}/dashboard", api_client::path_segment(&class_id));
        match api_client::get::<Dashboard>(&path).await {
            Ok(first) => {
                let _ = clock_offset.try_set(first.now - now_ms());
                let _ = dashboard.try_set(Some(first));
                let opened = open_socket(&class_id, dashboard, clock_offset, link);
                // Handed back when the page was left while loading: close it now.
                if let Some(Some(orphan)) = socket.try_set_value(opened) {
                    orphan.close();
                }
            }
            Err(problem) => {
                let _ = refused.try_set(Some(problem.detail));
                let _ = link.try_set(LinkState::Closed);
            }
        }
    });
}

fn open_socket(
    class_id: &str,
    dashboard: RwSignal<Option<Dashboard>>,
    clock_offset: RwSignal<i64>,
    link: RwSignal<LinkState>,
) -> Option<LiveSocket> {
    let path = format!("/api/classes/{}/live", api_client::path_segment(class_id));
    let url = api_client::socket_url(&path)?;
    let on_message = move |text: String| {
        // The page's cleanup closes the socket; should a message still come, it changes nothing.
        match LiveMessage::parse(&text) {
            Some(LiveMessage::Dashboard(snapshot)) => {
                let _ = clock_offset.try_set(snapshot.now - now_ms());
                let _ = dashboard.try_set(Some(*snapshot));
            }
            Some(LiveMessage::DashboardChanges(changes)) => {
                let _ = clock_offset.try_set(changes.now - now_ms());
                dashboard.try_update(|d| d.as_mut().map(|d| d.apply(*changes)));
            }
            _ => {}
        }
    };
    let socket = LiveSocket::open(url, on_message, move |state| {
        let _ = link.try_set(state);
    });
    Some(socket)
}

fn link_text(state: LinkState) -> &'static str {
    match state {
        LinkState::Connecting => "Connecting…",
        LinkState::Open => "● Live",
        LinkState::Closed => "Disconnected; reconnecting…",
    }
}

#[component]
fn LearnersTable(rows: Vec<LearnerRow>, class_id: String, now: Signal<i64>) -> impl IntoView {
    if rows.is_empty() {
        return view! { <p class="no-learners">"No learners yet. Give them the join code; they join at "<code>"#/join"</code>"."</p> }.into_any();
    }
    view! {
        <table class="learners">
            <caption>"Learners"</caption>
            <thead><tr>
                <th scope="col">"Learner"</th><th scope="col">"Where"</th><th scope="col">"Tasks passed"</th>
                <th scope="col">"On this step"</th><th scope="col">"Hints"</th>
                <th scope="col">"Challenge (best)"</th><th scope="col">"Lab"</th>
            </tr></thead>
            <tbody>{rows.into_iter().map(|row| learner_row(row, &class_id, now)).collect_view()}</tbody>
        </table>
    }
    .into_any()
}

fn learner_row(row: LearnerRow, class_id: &str, now: Signal<i64>) -> impl IntoView {
    let place = row.lesson.as_deref().map_or_else(|| "not started".to_string(), |l| lesson_label(l, row.step));
    let since = row.step_since;
    let elapsed = move || since.map(|s| format_elapsed(now.get() - s)).unwrap_or_default();
    let replay = Route::Replay(class_id.to_string(), row.id.clone()).href();
    let presence = if row.online { "online" } else { "offline" };
    view! {
        <tr class="learner" class:stuck=row.stuck class:offline=!row.online data-learner=row.id.clone()>
            <th scope="row">
                <span class="presence" title=presence aria-label=presence>{if row.online { "●" } else { "○" }}</span>" "
                {row.display_name.clone()}
                {row.stuck.then_some(view! { <span class="stuck-badge">" stuck"</span> })}
            </th>
            <td class="place">{place}</td>
            <td class="tasks-passed">{row.tasks_passed}</td>
            <td class="elapsed">{elapsed}</td>
            <td class="hints">{row.hints_used}</td>
            <td class="challenge">{row.challenge.map(challenge_cell).unwrap_or_default()}</td>
            <td><a href=replay>"Replay"<span class="visually-hidden">{format!(" {}'s lab", row.display_name)}</span></a></td>
        </tr>
    }
}

/// A learner's best challenge: its score first, then what it is made of.
pub fn challenge_cell(best: ChallengeResult) -> String {
    let m_ss = |secs: u64| format!("{}:{:02}", secs / 60, secs % 60);
    let hints = match best.hints {
        0 => "no hints".to_string(),
        1 => "1 hint".to_string(),
        n => format!("{n} hints"),
    };
    format!(
        "{} ({} wall, {hints}; cluster {}; seed {})",
        m_ss(best.score()),
        m_ss(best.wall_ms / 1000),
        m_ss(best.virtual_ms / 1000),
        best.seed
    )
}

#[component]
fn Answers(groups: Vec<AnswerGroup>) -> impl IntoView {
    view! {
        <section class="answers" aria-labelledby="answers-heading">
            <h2 id="answers-heading">"How the class answered"</h2>
            {groups.is_empty().then_some(view! { <p>"No answers yet."</p> })}
            {groups.into_iter().map(|group| view! {
                <h3>{group.heading}</h3>
                <ul class="answer-counts">
                    {group.counts.into_iter().map(|(answer, count)| view! {
                        <li><span class="answer-count">{count}</span>" × "{answer}</li>
                    }).collect_view()}
                </ul>
            }).collect_view()}
        </section>
    }
}

#[derive(serde::Serialize)]
struct Joins {
    locked: bool,
}

/// Locks the class's joins (the code lets no one else in) or opens them again.
#[component]
fn JoinLock(class_id: String, dashboard: RwSignal<Option<Dashboard>>) -> impl IntoView {
    let locked = move || dashboard.with(|d| d.as_ref().is_some_and(|d| d.class.joins_locked));
    let path = format!("/api/classes/{}/joins", api_client::path_segment(&class_id));
    let toggle = move |_| {
        let (path, body) = (path.clone(), Joins { locked: !locked() });
        spawn_local(async move {
            if let Ok(class) = api_client::send_json::<_, kubelab_wire::Class>("PUT", &path, &body).await {
                dashboard.update(|d| {
                    if let Some(d) = d {
                        d.class = class;
                    }
                });
            }
        });
    };
    view! {
        <button type="button" id="join-lock" on:click=toggle>
            {move || if locked() { "Open joins again" } else { "Lock joins" }}
        </button>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_challenge_reads_score_first() {
        let best = ChallengeResult { seed: 42, wall_ms: 251_400, virtual_ms: 750_000, hints: 2 };
        assert_eq!(challenge_cell(best), "6:11 (4:11 wall, 2 hints; cluster 12:30; seed 42)");
    }
}
