//! The instructor's dashboard: each learner's lesson and step, time on it, tasks passed,
//! hints used, who looks stuck and who is online, and how the class answered each prediction
//! and quiz question — as JSON, and live over a WebSocket that re-sends it on every change.

use super::AppState;
use super::classes::{Class, count, owned_class};
use super::problem::ApiResult;
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

type LearnerTotals = (String, String, i64, Option<i64>, Option<i64>, Option<i64>);
type Position = (String, String, i64, i64);
type Answers = (String, i64, String, Option<String>, String, i64);

/// Reads the class's learners and the aggregates of their progress (in SQL, so a class with
/// many thousand events costs milliseconds) into the dashboard.
pub async fn build(db: &Db, class: Class, online: &HashSet<String>, stuck_after_ms: i64) -> ApiResult<Dashboard> {
    let totals: Vec<LearnerTotals> = sqlx::query_as(
        "SELECT u.id, u.display_name, u.created_at, a.tasks, a.hints, a.last_at
         FROM users u LEFT JOIN (
             SELECT learner_id,
                    SUM(CASE WHEN kind = 'task_passed' THEN 1 ELSE 0 END) AS tasks,
                    SUM(CASE WHEN kind = 'hint_revealed' THEN 1 ELSE 0 END) AS hints,
                    MAX(at) AS last_at
             FROM progress WHERE class_id = $1 GROUP BY learner_id) a ON a.learner_id = u.id
         WHERE u.class_id = $2 ORDER BY u.created_at, u.id",
    )
    .bind(&class.id)
    .bind(&class.id)
    .fetch_all(&db.pool)
    .await?;
    // Where each learner is: their latest event's lesson and step, and since when: the first
    // event there after the last one anywhere else (a learner who comes back to a step starts
    // its clock again).
    let positions: Vec<Position> = sqlx::query_as(
        "SELECT l.learner_id, l.lesson, l.step, MIN(p.at) FROM (
             SELECT learner_id, lesson, step FROM (
                 SELECT learner_id, lesson, step,
                        ROW_NUMBER() OVER (PARTITION BY learner_id ORDER BY at DESC, event_id DESC) AS newest
                 FROM progress WHERE class_id = $1) ranked
             WHERE newest = 1) l
         JOIN progress p ON p.learner_id = l.learner_id AND p.lesson = l.lesson AND p.step = l.step
         WHERE p.at >= COALESCE((SELECT MAX(o.at) FROM progress o WHERE o.learner_id = l.learner_id
                                   AND (o.lesson <> l.lesson OR o.step <> l.step)), 0)
         GROUP BY l.learner_id, l.lesson, l.step",
    )
    .bind(&class.id)
    .fetch_all(&db.pool)
    .await?;
    let mut answers: Vec<Answers> = sqlx::query_as(
        "SELECT lesson, step, kind, item, answer, COUNT(*) FROM progress
         WHERE class_id = $1 AND kind IN ('prediction_answered', 'quiz_answered') AND answer IS NOT NULL
         GROUP BY lesson, step, kind, item, answer",
    )
    .bind(&class.id)
    .fetch_all(&db.pool)
    .await?;
    // SQLite and PostgreSQL sort NULLs differently: order here, the same on both.
    answers.sort();
    let now = now_ms();
    let learners = totals
        .into_iter()
        .map(|(id, display_name, joined_at, tasks, hints, last_at)| {
            let position = positions.iter().find(|(learner, ..)| *learner == id);
            let online = online.contains(&id);
            let quiet_since = last_at.unwrap_or(joined_at);
            LearnerRow {
                lesson: position.map(|(_, lesson, ..)| lesson.clone()),
                step: position.map(|(_, _, step, _)| usize::try_from(*step).unwrap_or_default()),
                step_since: position.map(|(.., since)| *since),
                last_progress_at: last_at,
                tasks_passed: count(tasks.unwrap_or(0)),
                hints_used: count(hints.unwrap_or(0)),
                stuck: online && now - quiet_since >= stuck_after_ms,
                online,
                id,
                display_name,
            }
        })
        .collect();
    let answers = answers
        .into_iter()
        .map(|(lesson, step, kind, item, answer, n)| AnswerCount {
            lesson,
            step: usize::try_from(step).unwrap_or_default(),
            kind,
            item,
            answer,
            count: count(n),
        })
        .collect();
    Ok(Dashboard { class, now, stuck_after_ms, learners, answers })
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
    let message = LiveMessage::Dashboard(Box::new(dashboard)).to_json();
    socket::send_text(socket, message).await.map_err(Ended::from)
}
