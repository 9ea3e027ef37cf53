//! A learner's progress: the events the web app posts (`POST /api/progress`), the history it
//! reads back (`GET /api/progress`), and a saved lab (`PUT /api/lab`).

use serde::{Deserialize, Serialize};

/// What a learner did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProgressKind {
    StepOpened,
    PredictionAnswered,
    TaskPassed,
    HintRevealed,
    QuizAnswered,
    StepCompleted,
}

impl ProgressKind {
    pub const ALL: [ProgressKind; 6] = [
        ProgressKind::StepOpened,
        ProgressKind::PredictionAnswered,
        ProgressKind::TaskPassed,
        ProgressKind::HintRevealed,
        ProgressKind::QuizAnswered,
        ProgressKind::StepCompleted,
    ];

    /// The kind its name names (`task_passed`), as stored.
    pub fn parse(name: &str) -> Option<ProgressKind> {
        ProgressKind::ALL.into_iter().find(|k| k.as_str() == name)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ProgressKind::StepOpened => "step_opened",
            ProgressKind::PredictionAnswered => "prediction_answered",
            ProgressKind::TaskPassed => "task_passed",
            ProgressKind::HintRevealed => "hint_revealed",
            ProgressKind::QuizAnswered => "quiz_answered",
            ProgressKind::StepCompleted => "step_completed",
        }
    }
}

/// One thing a learner did in a lesson. `id` is the idempotency key: a retried post is stored once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProgressEvent {
    pub id: String,
    pub lesson: String,
    pub step: usize,
    pub kind: ProgressKind,
    #[serde(default)]
    pub item: Option<String>,
    #[serde(default)]
    pub answer: Option<String>,
    /// When the server recorded it, in milliseconds since the Unix epoch: set in the history the
    /// server sends back; what a client sends is not trusted (the server records its own).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<i64>,
}

/// Where the learner's latest event was.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resume {
    pub lesson: String,
    pub step: usize,
}

/// `GET /api/progress`: every event so far, in order, and where to resume.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProgressHistory {
    pub events: Vec<ProgressEvent>,
    pub resume: Option<Resume>,
}

/// A learner's lab as last saved: enough to replay it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LabLog {
    pub lesson: String,
    pub seed: u64,
    pub scripts: Vec<String>,
}
