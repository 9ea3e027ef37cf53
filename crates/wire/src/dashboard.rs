//! The class at one moment (`GET /api/classes/{id}/dashboard`, and each update on the live
//! socket): every learner's row and how many gave each answer.

use crate::class::Class;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dashboard {
    pub class: Class,
    /// The server's clock, milliseconds since the Unix epoch (ages are measured from it).
    pub now: i64,
    pub stuck_after_ms: i64,
    pub learners: Vec<LearnerRow>,
    pub answers: Vec<AnswerCount>,
}

/// One learner's row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LearnerRow {
    pub id: String,
    pub display_name: String,
    /// Where they are: `None` before their first event.
    pub lesson: Option<String>,
    pub step: Option<usize>,
    /// When the learner arrived at their current step (this visit).
    pub step_since: Option<i64>,
    pub last_progress_at: Option<i64>,
    pub tasks_passed: u64,
    pub hints_used: u64,
    /// Online with nothing recorded for `stuck_after_ms`.
    pub stuck: bool,
    pub online: bool,
}

/// How many learners gave one answer to one prediction or quiz question.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnswerCount {
    pub lesson: String,
    pub step: usize,
    pub kind: String,
    pub item: Option<String>,
    pub answer: String,
    pub count: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_learner_who_has_not_started_has_no_lesson() {
        let row: LearnerRow = serde_json::from_str(
            r#"{"id":"l","display_name":"Bo","lesson":null,"step":null,"step_since":null,"last_progress_at":null,
                "tasks_passed":0,"hints_used":0,"stuck":false,"online":false}"#,
        )
        .unwrap();
        assert_eq!(row.lesson, None);
    }
}
