//! Learners' progress: events the web app posts as a learner works (idempotent by the event's
//! client-made id, so retries never double-count), read back to resume; and the learner's
//! current lab (lesson, seed, scripts) kept for the instructor's read-only replay.

use super::body::Body;
use super::classes::owned_class;
use super::problem::{ApiError, ApiResult};
use super::session::Caller;
use super::{AppState, input, progress_summary};
use crate::db::now_ms;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use kubelab_wire::{ChallengeResult, LabLog, ProgressEvent, ProgressHistory, ProgressKind, Resume, SavedLab};
use serde_json::{Value, json};
use std::sync::Arc;

/// The most steps a lesson may have, as far as progress is concerned.
const MAX_STEP: usize = 1000;

fn validate(event: &ProgressEvent) -> ApiResult<()> {
    input::token("id", &event.id, 64)?;
    input::token("lesson", &event.lesson, 100)?;
    if event.step > MAX_STEP {
        return Err(input::bad("step", &format!("must be between 0 and {MAX_STEP}")));
    }
    if let Some(item) = &event.item {
        input::token("item", item, 200)?;
    }
    if let Some(answer) = &event.answer {
        input::token("answer", answer, 500)?;
    }
    if event.kind == ProgressKind::ChallengeFinished
        && event.answer.as_deref().and_then(ChallengeResult::parse).is_none()
    {
        return Err(input::bad(
            "answer",
            "of a challenge_finished event must be `seed=N wall_ms=N virtual_ms=N hints=N`",
        ));
    }
    Ok(())
}

/// `POST /api/progress`
pub async fn record(
    State(state): State<Arc<AppState>>,
    caller: Caller,
    Body(event): Body<ProgressEvent>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let (learner, class_id) = caller.learner("record progress")?;
    validate(&event)?;
    let at = now_ms();
    let (_turn, mut tx) = state.db.begin_write().await?;
    let recorded = insert(&mut tx, &learner.id, class_id, &event, at).await?;
    if recorded {
        let events = progress_summary::add(&mut tx, &learner.id, class_id, &event, at).await?;
        let most = state.limits.max_events_per_learner;
        if events > most as i64 {
            tx.rollback().await?;
            return Err(ApiError::Forbidden(format!(
                "quota: a learner may record at most {most} progress events, and you have reached it"
            )));
        }
    }
    tx.commit().await?;
    if recorded {
        state.hub.class_changed(class_id);
    }
    let status = if recorded { StatusCode::CREATED } else { StatusCode::OK };
    Ok((status, Json(json!({ "recorded": recorded }))))
}

/// Stores the event unless the learner sent it before; true when it is new.
pub async fn insert(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    learner_id: &str,
    class_id: &str,
    event: &ProgressEvent,
    at: i64,
) -> ApiResult<bool> {
    let result = sqlx::query(
        "INSERT INTO progress (learner_id, event_id, class_id, lesson, step, kind, item, answer, at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (learner_id, event_id) DO NOTHING",
    )
    .bind(learner_id)
    .bind(&event.id)
    .bind(class_id)
    .bind(&event.lesson)
    .bind(event.step as i64)
    .bind(event.kind.as_str())
    .bind(&event.item)
    .bind(&event.answer)
    .bind(at)
    .execute(&mut **tx)
    .await?;
    Ok(result.rows_affected() == 1)
}

/// A step as stored (a column of integers) read back as a step index.
fn step_of(stored: i64) -> usize {
    usize::try_from(stored).unwrap_or_default()
}

type EventRow = (String, String, i64, String, Option<String>, Option<String>, i64);

/// `GET /api/progress`
pub async fn read(State(state): State<Arc<AppState>>, caller: Caller) -> ApiResult<Json<ProgressHistory>> {
    let (learner, _) = caller.learner("read their progress")?;
    let rows: Vec<EventRow> = sqlx::query_as(
        "SELECT event_id, lesson, step, kind, item, answer, at FROM progress
         WHERE learner_id = $1 ORDER BY at, event_id",
    )
    .bind(&learner.id)
    .fetch_all(&state.db.pool)
    .await?;
    let resume = rows.last().map(|(_, lesson, step, ..)| Resume { lesson: lesson.clone(), step: step_of(*step) });
    let events = rows
        .into_iter()
        .filter_map(|(id, lesson, step, kind, item, answer, at)| {
            // Only kinds this server records are stored; any other row is skipped, not a 500.
            let kind = ProgressKind::parse(&kind)?;
            Some(ProgressEvent { id, lesson, step: step_of(step), kind, item, answer, at: Some(at) })
        })
        .collect();
    Ok(Json(ProgressHistory { events, resume }))
}

/// The most scripts a stored lab log keeps (a long session still replays in well under a second).
const MAX_SCRIPTS: usize = 5000;

/// `PUT /api/lab`
pub async fn save_lab(
    State(state): State<Arc<AppState>>,
    caller: Caller,
    Body(lab): Body<LabLog>,
) -> ApiResult<StatusCode> {
    let (learner, _) = caller.learner("save a lab")?;
    let lesson = input::token("lesson", &lab.lesson, 100)?;
    if lab.scripts.len() > MAX_SCRIPTS {
        return Err(input::bad("scripts", &format!("must hold at most {MAX_SCRIPTS} entries")));
    }
    let seed = i64::try_from(lab.seed).map_err(|_| input::bad("seed", "must be below 2^63"))?;
    let scripts = serde_json::to_string(&lab.scripts).map_err(|e| ApiError::Internal(e.to_string()))?;
    sqlx::query(
        "INSERT INTO labs (learner_id, lesson, seed, scripts, updated_at, behaviour) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (learner_id) DO UPDATE SET lesson = excluded.lesson, seed = excluded.seed,
             scripts = excluded.scripts, updated_at = excluded.updated_at, behaviour = excluded.behaviour",
    )
    .bind(&learner.id)
    .bind(&lesson)
    .bind(seed)
    .bind(&scripts)
    .bind(now_ms())
    .bind(i64::from(lab.behaviour))
    .execute(&state.db.pool)
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `GET /api/lab`: the learner's own saved lab (to pick it up again after a reload or on
/// another device); 404 before the first save.
pub async fn own_lab(State(state): State<Arc<AppState>>, caller: Caller) -> ApiResult<Json<SavedLab>> {
    let (learner, class_id) = caller.learner("read their lab")?;
    lab_of(&state, &learner.id, class_id, "you have not saved a lab yet").await.map(Json)
}

/// The saved lab of a learner in a class, as JSON.
async fn lab_of(state: &AppState, learner_id: &str, class_id: &str, missing: &str) -> ApiResult<SavedLab> {
    let row: Option<(String, i64, String, i64, String, i64)> = sqlx::query_as(
        "SELECT l.lesson, l.seed, l.scripts, l.updated_at, u.display_name, l.behaviour FROM labs l JOIN users u ON u.id = l.learner_id
         WHERE l.learner_id = $1 AND u.class_id = $2",
    )
    .bind(learner_id)
    .bind(class_id)
    .fetch_optional(&state.db.pool)
    .await?;
    let (lesson, seed, scripts, updated_at, display_name, behaviour) =
        row.ok_or_else(|| ApiError::NotFound(missing.into()))?;
    let scripts: Vec<String> = serde_json::from_str(&scripts).map_err(|e| ApiError::Internal(e.to_string()))?;
    let seed = u64::try_from(seed).map_err(|e| ApiError::Internal(e.to_string()))?;
    let behaviour = u32::try_from(behaviour).map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(SavedLab { lesson, seed, scripts, behaviour, updated_at, display_name })
}

/// `GET /api/classes/{id}/learners/{learner}/lab`
pub async fn learner_lab(
    State(state): State<Arc<AppState>>,
    caller: Caller,
    Path((class_id, learner_id)): Path<(String, String)>,
) -> ApiResult<Json<SavedLab>> {
    owned_class(&state.db, &caller, &class_id, "replay its learners' labs").await?;
    lab_of(&state, &learner_id, &class_id, "that learner has not started a lab in this class yet").await.map(Json)
}
