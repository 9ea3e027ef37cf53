//! The class at one moment (`GET /api/classes/{id}/dashboard`, and the first message on the
//! live socket): every learner's row and how many gave each answer; then, on the socket, only
//! what changed (`DashboardChanges`), so a big class's watchers are not sent it whole each time.

use crate::class::Class;
use crate::progress::ChallengeResult;
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
    /// Their best pod doctor challenge (lowest score), if they finished one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub challenge: Option<ChallengeResult>,
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

/// What changed since the dashboard a watcher was sent last: rows new or different (by
/// learner id), learners gone, and answer counts new or different (a count of 0: gone).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DashboardChanges {
    pub now: i64,
    /// The class's header (its learner count) when it changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<Class>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub learners: Vec<LearnerRow>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub removed: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub answers: Vec<AnswerCount>,
}

impl AnswerCount {
    fn same_question(&self, other: &AnswerCount) -> bool {
        (&self.lesson, self.step, &self.kind, &self.item, &self.answer)
            == (&other.lesson, other.step, &other.kind, &other.item, &other.answer)
    }
}

impl Dashboard {
    /// What turns `before` into `self`.
    pub fn changes_since(&self, before: &Dashboard) -> DashboardChanges {
        let learners = self.learners.iter().filter(|row| !before.learners.contains(row)).cloned().collect();
        let removed = before
            .learners
            .iter()
            .filter(|old| !self.learners.iter().any(|row| row.id == old.id))
            .map(|old| old.id.clone())
            .collect();
        let mut answers: Vec<AnswerCount> =
            self.answers.iter().filter(|answer| !before.answers.contains(answer)).cloned().collect();
        for old in &before.answers {
            if !self.answers.iter().any(|answer| answer.same_question(old)) {
                answers.push(AnswerCount { count: 0, ..old.clone() });
            }
        }
        let class = (self.class != before.class).then(|| self.class.clone());
        DashboardChanges { now: self.now, class, learners, removed, answers }
    }

    /// Applies changes as the server made them: rows replaced in place or appended in order.
    pub fn apply(&mut self, changes: DashboardChanges) {
        self.now = changes.now;
        if let Some(class) = changes.class {
            self.class = class;
        }
        self.learners.retain(|row| !changes.removed.contains(&row.id));
        for row in changes.learners {
            match self.learners.iter_mut().find(|old| old.id == row.id) {
                Some(old) => *old = row,
                None => self.learners.push(row),
            }
        }
        for answer in changes.answers {
            let at = self.answers.iter().position(|old| old.same_question(&answer));
            match (at, answer.count) {
                (Some(at), 0) => drop(self.answers.remove(at)),
                (Some(at), _) => self.answers[at] = answer,
                (None, 0) => {}
                (None, _) => self.answers.push(answer),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str, tasks: u64) -> LearnerRow {
        LearnerRow {
            id: id.into(),
            display_name: id.to_uppercase(),
            lesson: Some("pods".into()),
            step: Some(1),
            step_since: Some(5),
            last_progress_at: Some(6),
            tasks_passed: tasks,
            hints_used: 0,
            challenge: None,
            stuck: false,
            online: true,
        }
    }

    fn answer(text: &str, count: u64) -> AnswerCount {
        AnswerCount {
            lesson: "pods".into(),
            step: 2,
            kind: "quiz_answered".into(),
            item: Some("quiz-0".into()),
            answer: text.into(),
            count,
        }
    }

    fn dashboard(learners: Vec<LearnerRow>, answers: Vec<AnswerCount>) -> Dashboard {
        let class = Class {
            id: "c".into(),
            name: "K".into(),
            join_code: "J".into(),
            created_at: 1,
            learners: 0,
            joins_locked: false,
        };
        Dashboard {
            class: Class { learners: learners.len() as u64, ..class },
            now: 10,
            stuck_after_ms: 1,
            learners,
            answers,
        }
    }

    #[test]
    fn changes_carry_only_what_differs_and_rebuild_the_dashboard() {
        let before = dashboard(vec![row("ada", 1), row("bob", 0)], vec![answer("A", 2), answer("B", 1)]);
        let mut after = dashboard(vec![row("ada", 2), row("cy", 0)], vec![answer("A", 3)]);
        after.now = 20;
        let changes = after.changes_since(&before);
        assert_eq!(changes.learners, vec![row("ada", 2), row("cy", 0)]);
        assert_eq!(changes.removed, vec!["bob".to_string()]);
        assert_eq!(changes.answers, vec![answer("A", 3), answer("B", 0)]);
        assert_eq!(changes.class, None, "two learners before and after");
        let mut rebuilt = before.clone();
        rebuilt.apply(changes);
        assert_eq!(rebuilt, after);
        assert_eq!(after.changes_since(&after), DashboardChanges { now: 20, ..DashboardChanges::default() });
    }

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
