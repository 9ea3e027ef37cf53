//! What the dashboard reads, kept on write: each learner's position (lesson, step, since
//! when), totals and event count, and how many gave each answer. Recording an event updates
//! one row of each, so building a dashboard costs one row per learner and one per distinct
//! answer, never a scan of the events (a class at 4,000 events on one step took seconds).

use super::problem::ApiResult;
use kubelab_wire::{ChallengeResult, ProgressEvent};
use sqlx::{Any, Transaction};

/// Folds one newly recorded event into its learner's row; returns the learner's event count.
pub async fn add(
    tx: &mut Transaction<'static, Any>,
    learner_id: &str,
    class_id: &str,
    event: &ProgressEvent,
    at: i64,
) -> ApiResult<i64> {
    let kind = event.kind.as_str();
    // A learner who stays on their step keeps its clock; one who moves starts it again. (The
    // right-hand sides read the row as it was before this update, on SQLite and PostgreSQL.)
    sqlx::query(
        "INSERT INTO learner_positions (learner_id, class_id, lesson, step, step_since, last_at, tasks, hints, events)
         VALUES ($1, $2, $3, $4, $5, $5, $6, $7, 1)
         ON CONFLICT (learner_id) DO UPDATE SET
             step_since = CASE WHEN learner_positions.lesson = excluded.lesson AND learner_positions.step = excluded.step
                               THEN learner_positions.step_since ELSE excluded.step_since END,
             lesson = excluded.lesson, step = excluded.step, last_at = excluded.last_at,
             tasks = learner_positions.tasks + excluded.tasks, hints = learner_positions.hints + excluded.hints,
             events = learner_positions.events + 1",
    )
    .bind(learner_id)
    .bind(class_id)
    .bind(&event.lesson)
    .bind(event.step as i64)
    .bind(at)
    .bind(i64::from(kind == "task_passed"))
    .bind(i64::from(kind == "hint_revealed"))
    .execute(&mut **tx)
    .await?;
    if let (Some(answer), true) = (&event.answer, matches!(kind, "prediction_answered" | "quiz_answered")) {
        sqlx::query(
            "INSERT INTO answer_counts (class_id, lesson, step, kind, item, answer, count)
             VALUES ($1, $2, $3, $4, $5, $6, 1)
             ON CONFLICT (class_id, lesson, step, kind, item, answer) DO UPDATE SET count = answer_counts.count + 1",
        )
        .bind(class_id)
        .bind(&event.lesson)
        .bind(event.step as i64)
        .bind(kind)
        .bind(event.item.as_deref().unwrap_or(""))
        .bind(answer)
        .execute(&mut **tx)
        .await?;
    }
    if let Some(result) =
        event.answer.as_deref().and_then(ChallengeResult::parse).filter(|_| kind == "challenge_finished")
    {
        keep_best_challenge(tx, learner_id, result).await?;
    }
    let (events,): (i64,) = sqlx::query_as("SELECT events FROM learner_positions WHERE learner_id = $1")
        .bind(learner_id)
        .fetch_one(&mut **tx)
        .await?;
    Ok(events)
}

/// Keeps a finished challenge on the learner's row when it is their first or beats their best
/// (`ChallengeResult::score`: wall seconds plus a minute per hint).
async fn keep_best_challenge(
    tx: &mut Transaction<'static, Any>,
    learner_id: &str,
    result: ChallengeResult,
) -> ApiResult<()> {
    let number = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
    sqlx::query(
        "UPDATE learner_positions SET challenge_seed = $2, challenge_wall_ms = $3, challenge_virtual_ms = $4,
             challenge_hints = $5
         WHERE learner_id = $1 AND (challenge_wall_ms IS NULL
             OR challenge_wall_ms / 1000 + 60 * challenge_hints > $6)",
    )
    .bind(learner_id)
    .bind(number(result.seed))
    .bind(number(result.wall_ms))
    .bind(number(result.virtual_ms))
    .bind(number(result.hints))
    .bind(number(result.score()))
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// One learner's row: id, name, joined at, then (when they have recorded anything) lesson,
/// step, step since, last event at, tasks passed, hints used; and their best challenge's seed,
/// wall and virtual milliseconds and hints.
pub type LearnerSummary = (LearnerColumns, ChallengeColumns);
pub type LearnerColumns =
    (String, String, i64, Option<String>, Option<i64>, Option<i64>, Option<i64>, Option<i64>, Option<i64>);
pub type ChallengeColumns = (Option<i64>, Option<i64>, Option<i64>, Option<i64>);
type Row = (
    String,
    String,
    i64,
    Option<String>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
);

/// Every learner of the class, in the order they joined.
pub async fn learners(db: &crate::db::Db, class_id: &str) -> ApiResult<Vec<LearnerSummary>> {
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT u.id, u.display_name, u.created_at, p.lesson, p.step, p.step_since, p.last_at, p.tasks, p.hints,
                p.challenge_seed, p.challenge_wall_ms, p.challenge_virtual_ms, p.challenge_hints
         FROM users u LEFT JOIN learner_positions p ON p.learner_id = u.id
         WHERE u.class_id = $1 ORDER BY u.created_at, u.id",
    )
    .bind(class_id)
    .fetch_all(&db.pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(a, b, c, d, e, f, g, h, i, j, k, l, m)| ((a, b, c, d, e, f, g, h, i), (j, k, l, m)))
        .collect())
}

/// lesson, step, kind, item ('' for none), answer, count.
pub type AnswerSummary = (String, i64, String, String, String, i64);

pub async fn answers(db: &crate::db::Db, class_id: &str) -> ApiResult<Vec<AnswerSummary>> {
    Ok(sqlx::query_as("SELECT lesson, step, kind, item, answer, count FROM answer_counts WHERE class_id = $1")
        .bind(class_id)
        .fetch_all(&db.pool)
        .await?)
}
