//! The instructor's dashboard: each learner's lesson and step, time on it, tasks passed,
//! hints used, who looks stuck and who is online, and how the class answered each prediction
//! and quiz question — as JSON, and live over a WebSocket that re-sends it on every change.

use super::AppState;
use super::classes::{Class, owned_class};
use super::problem::ApiResult;
use super::session::Caller;
use super::socket::{self, Ended};
use crate::db::{Db, now_ms};
use axum::Json;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::response::Response;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

/// A learner counts as stuck after this long online with nothing recorded.
pub const DEFAULT_STUCK_AFTER_MS: i64 = 5 * 60 * 1000;
/// Changes are gathered this long before the dashboard is re-sent.
const COALESCE: Duration = Duration::from_millis(200);
/// Re-sent at least this often, so `stuck` flips without a change.
const REFRESH: Duration = Duration::from_secs(15);

#[derive(Debug, Serialize)]
pub struct Dashboard {
    pub class: Class,
    pub now: i64,
    pub stuck_after_ms: i64,
    pub learners: Vec<LearnerRow>,
    pub answers: Vec<AnswerCount>,
}

#[derive(Debug, Default, Serialize)]
pub struct LearnerRow {
    pub id: String,
    pub display_name: String,
    pub lesson: Option<String>,
    pub step: Option<i64>,
    /// When the learner reached their current step.
    pub step_since: Option<i64>,
    pub last_progress_at: Option<i64>,
    pub tasks_passed: i64,
    pub hints_used: i64,
    pub stuck: bool,
    pub online: bool,
    #[serde(skip)]
    joined_at: i64,
}

#[derive(Debug, Serialize)]
pub struct AnswerCount {
    pub lesson: String,
    pub step: i64,
    pub kind: String,
    pub item: Option<String>,
    pub answer: String,
    pub count: i64,
}

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

type EventRow = (String, String, i64, String, Option<String>, Option<String>, i64);

/// Reads the class's learners and progress and folds them into the dashboard.
pub async fn build(db: &Db, class: Class, online: &HashSet<String>, stuck_after_ms: i64) -> ApiResult<Dashboard> {
    let learners: Vec<(String, String, i64)> =
        sqlx::query_as("SELECT id, display_name, created_at FROM users WHERE class_id = $1 ORDER BY created_at, id")
            .bind(&class.id)
            .fetch_all(&db.pool)
            .await?;
    let events: Vec<EventRow> = sqlx::query_as(
        "SELECT learner_id, lesson, step, kind, item, answer, at FROM progress
         WHERE class_id = $1 ORDER BY at, event_id",
    )
    .bind(&class.id)
    .fetch_all(&db.pool)
    .await?;
    let now = now_ms();
    let mut rows: Vec<LearnerRow> = learners
        .into_iter()
        .map(|(id, display_name, joined_at)| LearnerRow {
            online: online.contains(&id),
            id,
            display_name,
            joined_at,
            ..LearnerRow::default()
        })
        .collect();
    let mut answers: BTreeMap<(String, i64, String, Option<String>, String), i64> = BTreeMap::new();
    for (learner_id, lesson, step, kind, item, answer, at) in events {
        if let Some(row) = rows.iter_mut().find(|row| row.id == learner_id) {
            row.fold(&lesson, step, &kind, at);
        }
        if let Some(answer) = answer.filter(|_| kind == "prediction_answered" || kind == "quiz_answered") {
            *answers.entry((lesson, step, kind, item, answer)).or_default() += 1;
        }
    }
    for row in &mut rows {
        let quiet_since = row.last_progress_at.unwrap_or(row.joined_at);
        row.stuck = row.online && now - quiet_since >= stuck_after_ms;
    }
    let answers = answers
        .into_iter()
        .map(|((lesson, step, kind, item, answer), count)| AnswerCount { lesson, step, kind, item, answer, count })
        .collect();
    Ok(Dashboard { class, now, stuck_after_ms, learners: rows, answers })
}

impl LearnerRow {
    /// Takes one progress event, in time order.
    fn fold(&mut self, lesson: &str, step: i64, kind: &str, at: i64) {
        if self.lesson.as_deref() != Some(lesson) || self.step != Some(step) {
            self.lesson = Some(lesson.to_string());
            self.step = Some(step);
            self.step_since = Some(at);
        }
        self.last_progress_at = Some(at);
        match kind {
            "task_passed" => self.tasks_passed += 1,
            "hint_revealed" => self.hints_used += 1,
            _ => {}
        }
    }
}

/// `GET /api/classes/{id}/live` (WebSocket)
pub async fn live(
    State(state): State<Arc<AppState>>,
    caller: Caller,
    Path(class_id): Path<String>,
    Query(options): Query<Options>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> ApiResult<Response> {
    owned_class(&state.db, &caller, &class_id, "watch its dashboard").await?;
    let upgrade = socket::upgrade(upgrade)?;
    let stuck_after_ms = options.stuck_after_ms();
    Ok(upgrade.on_upgrade(move |socket| watch(state, socket, class_id, stuck_after_ms)))
}

async fn watch(state: Arc<AppState>, mut socket: WebSocket, class_id: String, stuck_after_ms: i64) {
    let mut changes = state.hub.watch_class(&class_id);
    let mut shutdown = state.shutdown.clone();
    let ended = loop {
        if let Err(gone) = send_dashboard(&state, &mut socket, &class_id, stuck_after_ms).await {
            break gone;
        }
        tokio::select! {
            changed = changes.changed() => {
                if changed.is_err() { break Ended::ClientLeft; }
                tokio::time::sleep(COALESCE).await;
                changes.borrow_and_update();
            }
            () = tokio::time::sleep(REFRESH) => {}
            _ = shutdown.changed() => break Ended::Shutdown,
            message = socket.recv() => if socket::is_goodbye(message) { break Ended::ClientLeft },
        }
    };
    socket::finish(socket, ended).await;
}

async fn send_dashboard(
    state: &AppState,
    socket: &mut WebSocket,
    class_id: &str,
    stuck_after_ms: i64,
) -> Result<(), Ended> {
    let built = async {
        let class = super::classes::class_by_id(&state.db, class_id).await?;
        build(&state.db, class, &state.hub.online(class_id), stuck_after_ms).await
    };
    let dashboard = match built.await {
        Ok(dashboard) => dashboard,
        Err(error) => {
            tracing::error!(?error, "dashboard");
            return Err(Ended::Closed(axum::extract::ws::close_code::ERROR, "internal error"));
        }
    };
    let mut message = serde_json::to_value(&dashboard).unwrap_or_default();
    message["type"] = "dashboard".into();
    socket::send_text(socket, message.to_string()).await.map_err(Ended::from)
}
