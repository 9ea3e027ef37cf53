//! Building a class's dashboard from the rows kept on write (`progress_summary`): one row per
//! learner and per distinct answer, however many events there are, with answers capped so a
//! big class's dashboard stays small.

use super::classes::{Class, count};
use super::problem::ApiResult;
use super::progress_summary::{self, AnswerSummary, LearnerSummary};
use crate::db::{Db, now_ms};
use kubelab_wire::{AnswerCount, ChallengeResult, Dashboard, LearnerRow};
use std::collections::HashSet;

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
    let ((id, display_name, joined_at, lesson, step, step_since, last_at, tasks, hints), (seed, wall, virt, used)) =
        summary;
    let unsigned = |n: i64| u64::try_from(n).unwrap_or_default();
    let challenge = match (seed, wall, virt, used) {
        (Some(seed), Some(wall), Some(virt), Some(used)) => Some(ChallengeResult {
            seed: unsigned(seed),
            wall_ms: unsigned(wall),
            virtual_ms: unsigned(virt),
            hints: unsigned(used),
        }),
        _ => None,
    };
    let online = online.contains(&id);
    let quiet_since = last_at.unwrap_or(joined_at);
    LearnerRow {
        lesson,
        step: step.map(|step| usize::try_from(step).unwrap_or_default()),
        step_since,
        last_progress_at: last_at,
        tasks_passed: count(tasks.unwrap_or(0)),
        hints_used: count(hints.unwrap_or(0)),
        challenge,
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
