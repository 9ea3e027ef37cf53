//! The JSON shapes of the server's API (crates/server/API.md), as the web app reads and writes
//! them. Fields the app does not use are left out; unknown fields are ignored, so the server
//! can grow without breaking older bundles.

use serde::{Deserialize, Serialize};

/// Who the session belongs to (`GET /api/me`).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "role", rename_all = "lowercase")]
pub enum Me {
    Instructor { id: String, display_name: String, email: String },
    Learner { id: String, display_name: String, class_id: String, class_name: String, resume_code: String },
}

impl Me {
    pub fn display_name(&self) -> &str {
        match self {
            Me::Instructor { display_name, .. } | Me::Learner { display_name, .. } => display_name,
        }
    }

    pub fn is_learner(&self) -> bool {
        matches!(self, Me::Learner { .. })
    }
}

/// A class as its instructor sees it.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Class {
    pub id: String,
    pub name: String,
    pub join_code: String,
    pub created_at: i64,
    pub learners: u64,
}

/// One thing a learner did in a lesson. `id` is the idempotency key (see `progress_ids`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProgressEvent {
    pub id: String,
    pub lesson: String,
    pub step: usize,
    pub kind: String,
    pub item: Option<String>,
    pub answer: Option<String>,
}

/// Where the learner's latest event was.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Resume {
    pub lesson: String,
    pub step: usize,
}

/// `GET /api/progress`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct ProgressHistory {
    pub events: Vec<ProgressEvent>,
    pub resume: Option<Resume>,
}

/// One learner's row on the dashboard.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct LearnerRow {
    pub id: String,
    pub display_name: String,
    pub lesson: Option<String>,
    pub step: Option<usize>,
    pub step_since: Option<i64>,
    pub last_progress_at: Option<i64>,
    pub tasks_passed: u64,
    pub hints_used: u64,
    pub stuck: bool,
    pub online: bool,
}

/// How many learners gave one answer to one prediction or quiz question.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct AnswerCount {
    pub lesson: String,
    pub step: usize,
    pub kind: String,
    pub item: Option<String>,
    pub answer: Option<String>,
    pub count: u64,
}

/// The class at one moment (`GET /api/classes/{id}/dashboard` and the live socket).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Dashboard {
    pub class: Class,
    pub now: i64,
    pub stuck_after_ms: i64,
    pub learners: Vec<LearnerRow>,
    pub answers: Vec<AnswerCount>,
}

/// A learner's lab as last saved: enough to replay it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LabLog {
    pub lesson: String,
    pub seed: u64,
    pub scripts: Vec<String>,
}

/// What a live socket sends; anything else is ignored.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum LiveMessage {
    Fault { command: String, from: String },
    Dashboard(Box<Dashboard>),
}

impl LiveMessage {
    /// Parses one socket message; None for kinds this app does not know (or malformed text).
    pub fn parse(text: &str) -> Option<LiveMessage> {
        serde_json::from_str(text).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_roles() {
        let me: Me = serde_json::from_str(
            r#"{"role":"learner","id":"l1","display_name":"Bo","class_id":"c","class_name":"K8s","resume_code":"ABCD"}"#,
        )
        .unwrap();
        assert!(me.is_learner());
        assert_eq!(me.display_name(), "Bo");
        let me: Me =
            serde_json::from_str(r#"{"role":"instructor","id":"i","display_name":"Ada","email":"a@b.c"}"#).unwrap();
        assert!(!me.is_learner());
    }

    #[test]
    fn reads_live_messages_and_ignores_unknown_ones() {
        let fault = LiveMessage::parse(r#"{"type":"fault","command":"lab node power-off node-2","from":"Ada"}"#);
        assert_eq!(fault, Some(LiveMessage::Fault { command: "lab node power-off node-2".into(), from: "Ada".into() }));
        let dashboard = r#"{"type":"dashboard","class":{"id":"c","name":"K","join_code":"J","created_at":1,"learners":1},
            "now":10,"stuck_after_ms":300000,
            "learners":[{"id":"l","display_name":"Bo","lesson":"x","step":0,"step_since":5,"last_progress_at":5,
                         "tasks_passed":1,"hints_used":0,"stuck":false,"online":true}],
            "answers":[{"lesson":"x","step":3,"kind":"prediction_answered","item":"prediction","answer":"A","count":2}]}"#;
        let Some(LiveMessage::Dashboard(dashboard)) = LiveMessage::parse(dashboard) else { panic!("not a dashboard") };
        assert_eq!(dashboard.learners[0].tasks_passed, 1);
        assert_eq!(LiveMessage::parse(r#"{"type":"hello"}"#), None);
        assert_eq!(LiveMessage::parse("not json"), None);
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
