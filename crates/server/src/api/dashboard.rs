//! The instructor's dashboard: each learner's lesson and step, time on it, tasks passed,
//! hints used, who looks stuck and who is online, and how the class answered each prediction
//! and quiz question — as JSON, and live over a WebSocket that sends it whole, then what changed.

use super::AppState;
use super::classes::{Class, count, owned_class};
use super::dashboard_feed::ClassFeed;
use super::problem::ApiResult;
use super::progress_summary::{self, AnswerSummary, LearnerSummary};
use super::session::Caller;
use super::socket::{self, Ended};
use crate::db::{Db, now_ms};
use axum::Json;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::response::Response;
use serde::Deserialize;
use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

/// A learner counts as stuck after this long online with nothing recorded.
pub const DEFAULT_STUCK_AFTER_MS: i64 = 5 * 60 * 1000;
/// Changes are gathered this long before the dashboard is re-sent.
const COALESCE: Duration = Duration::from_millis(200);
/// Re-sent at least this often, so `stuck` flips without a change.
const REFRESH: Duration = Duration::from_secs(15);

pub use kubelab_wire::{AnswerCount, Dashboard, LearnerRow, LiveMessage};

#[derive(Deserialize)]
pub struct Options {
    /// Seconds; `stuck_after=120` flags learners quiet for two minutes.
    stuck_after: Option<u32>,
}

impl Options {
    fn stuck_after_ms(&self) -> i64 {
        self.stuck_after.map_or(DEFAULT_STUCK_AFTER_MS, |s| i64::from(s) * 1000)
    }
}

/// `GET /api/classes/{id}/dashboard`
pub async fn show(
    State(state): State<Arc<AppState>>,
    caller: Caller,
    Path(class_id): Path<String>,
    Query(options): Query<Options>,
) -> ApiResult<Json<Dashboard>> {
    let class = owned_class(&state.db, &caller, &class_id, "see its dashboard").await?;
    let online = state.hub.online(&class_id);
    Ok(Json(build(&state.db, class, &online, options.stuck_after_ms()).await?))
}

/// The most answer rows a dashboard carries (the most given first): free-text answers from a
/// big class would otherwise make a dashboard of megabytes.
pub const MAX_ANSWER_ROWS: usize = 2000;
/// Longer answers are cut to this many characters on the dashboard (kept whole in the log).
const MAX_ANSWER_CHARS: usize = 200;

/// Reads the class's learners and answer counts, kept on write (`progress_summary`), into the
/// dashboard: one row per learner and per distinct answer, however many events there are.
pub async fn build(db: &Db, class: Class, online: &HashSet<String>, stuck_after_ms: i64) -> ApiResult<Dashboard> {
    let summaries = progress_summary::learners(db, &class.id).await?;
    let answers = progress_summary::answers(db, &class.id).await?;
    let now = now_ms();
    let learners = summaries.into_iter().map(|summary| learner_row(summary, online, now, stuck_after_ms)).collect();
    Ok(Dashboard { class, now, stuck_after_ms, learners, answers: shown_answers(answers) })
}

fn learner_row(summary: LearnerSummary, online: &HashSet<String>, now: i64, stuck_after_ms: i64) -> LearnerRow {
    let (id, display_name, joined_at, lesson, step, step_since, last_at, tasks, hints) = summary;
    let online = online.contains(&id);
    let quiet_since = last_at.unwrap_or(joined_at);
    LearnerRow {
        lesson,
        step: step.map(|step| usize::try_from(step).unwrap_or_default()),
        step_since,
        last_progress_at: last_at,
        tasks_passed: count(tasks.unwrap_or(0)),
        hints_used: count(hints.unwrap_or(0)),
        stuck: online && now - quiet_since >= stuck_after_ms,
        online,
        id,
        display_name,
    }
}

/// The `MAX_ANSWER_ROWS` most given answers, each cut to `MAX_ANSWER_CHARS`, in one order on
/// SQLite and PostgreSQL (they sort differently, so the order is made here).
fn shown_answers(mut rows: Vec<AnswerSummary>) -> Vec<AnswerCount> {
    rows.sort_by(|a, b| b.5.cmp(&a.5).then_with(|| a.cmp(b)));
    rows.truncate(MAX_ANSWER_ROWS);
    rows.sort();
    rows.into_iter()
        .map(|(lesson, step, kind, item, answer, n)| AnswerCount {
            lesson,
            step: usize::try_from(step).unwrap_or_default(),
            kind,
            item: Some(item).filter(|item| !item.is_empty()),
            answer: cut(answer, MAX_ANSWER_CHARS),
            count: count(n),
        })
        .collect()
}

fn cut(text: String, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text,
    }
}

/// `GET /api/classes/{id}/live` (WebSocket)
pub async fn live(
    State(state): State<Arc<AppState>>,
    caller: Caller,
    Path(class_id): Path<String>,
    Query(options): Query<Options>,
    headers: axum::http::HeaderMap,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> ApiResult<Response> {
    owned_class(&state.db, &caller, &class_id, "watch its dashboard").await?;
    let upgrade = socket::upgrade(upgrade, &headers)?;
    let stuck_after_ms = options.stuck_after_ms();
    Ok(upgrade.on_upgrade(move |socket| watch(state, socket, class_id, stuck_after_ms)))
}

async fn watch(state: Arc<AppState>, mut socket: WebSocket, class_id: String, stuck_after_ms: i64) {
    let mut changes = state.hub.watch_class(&class_id);
    let mut shutdown = state.shutdown.clone();
    let feed = state.dashboards.subscribe(&class_id, stuck_after_ms);
    let mut sent: Option<Arc<Dashboard>> = None;
    let ended = loop {
        let version = *changes.borrow_and_update();
        if let Err(gone) = send_update(&state, &feed, &mut socket, version, &mut sent).await {
            break gone;
        }
        if let Err(gone) = next_update(&mut changes, &mut shutdown, &mut socket).await {
            break gone;
        }
    };
    state.dashboards.unsubscribe(feed);
    socket::finish(socket, ended).await;
}

/// Waits until there is something to send: a change (gathered for `COALESCE`) or `REFRESH`.
/// Frames from the client other than a close are read and ignored: a ping is not a reason to
/// rebuild the dashboard.
async fn next_update(
    changes: &mut tokio::sync::watch::Receiver<u64>,
    shutdown: &mut tokio::sync::watch::Receiver<bool>,
    socket: &mut WebSocket,
) -> Result<(), Ended> {
    let refresh = tokio::time::sleep(REFRESH);
    tokio::pin!(refresh);
    loop {
        tokio::select! {
            changed = changes.changed() => {
                if changed.is_err() { return Err(Ended::ClientLeft); }
                tokio::time::sleep(COALESCE).await;
                return Ok(());
            }
            () = &mut refresh => return Ok(()),
            _ = shutdown.changed() => return Err(Ended::Shutdown),
            message = socket.recv() => if socket::is_goodbye(message) { return Err(Ended::ClientLeft) },
        }
    }
}

/// The most one dashboard message may be; a bigger one closes the socket with 1009.
pub const MAX_MESSAGE_BYTES: usize = 1024 * 1024;

/// Sends the whole dashboard the first time, then only what changed since the last one sent.
async fn send_update(
    state: &AppState,
    feed: &ClassFeed,
    socket: &mut WebSocket,
    version: u64,
    sent: &mut Option<Arc<Dashboard>>,
) -> Result<(), Ended> {
    let dashboard = match feed.current(state, version).await {
        Ok(dashboard) => dashboard,
        Err(error) => {
            tracing::error!(?error, "dashboard");
            return Err(Ended::Closed(axum::extract::ws::close_code::ERROR, "internal error"));
        }
    };
    let message = match sent.as_deref() {
        None => LiveMessage::Dashboard(Box::new((*dashboard).clone())),
        Some(before) => LiveMessage::DashboardChanges(Box::new(dashboard.changes_since(before))),
    }
    .to_json();
    if message.len() > MAX_MESSAGE_BYTES {
        return Err(Ended::Closed(axum::extract::ws::close_code::SIZE, "the dashboard is larger than 1 MiB"));
    }
    socket::send_text(socket, message).await.map_err(Ended::from)?;
    *sent = Some(dashboard);
    Ok(())
}
