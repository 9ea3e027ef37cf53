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

/// A learner's lab as the learner saves it (`PUT /api/lab`): enough to replay it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LabLog {
    pub lesson: String,
    pub seed: u64,
    pub scripts: Vec<String>,
    /// The simulator's behaviour version that ran the scripts (kubelab-core's
    /// `BEHAVIOUR_VERSION`); a log saved before versions were recorded is version 1.
    #[serde(default = "first_behaviour")]
    pub behaviour: u32,
}

/// The behaviour version of logs saved before logs carried one.
fn first_behaviour() -> u32 {
    1
}

/// A saved lab as the server gives it back (`GET /api/lab`, and to the class's instructor):
/// the log, when it was saved and whose it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedLab {
    pub lesson: String,
    pub seed: u64,
    pub scripts: Vec<String>,
    /// The behaviour version the log was made with: an older one replays with a notice.
    #[serde(default = "first_behaviour")]
    pub behaviour: u32,
    /// Milliseconds since the Unix epoch.
    pub updated_at: i64,
    pub display_name: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_lab_reads_back_with_its_owner_and_a_log_refuses_strangers() {
        let saved =
            r#"{"lesson":"01-first-pod","seed":1,"scripts":["kubectl get pods"],"updated_at":5,"display_name":"Bo"}"#;
        let saved: SavedLab = serde_json::from_str(saved).unwrap();
        assert_eq!((saved.scripts.len(), saved.display_name.as_str(), saved.behaviour), (1, "Bo", 1));
        let strange = r#"{"lesson":"x","seed":1,"scripts":[],"owner":"me"}"#;
        assert!(serde_json::from_str::<LabLog>(strange).unwrap_err().to_string().contains("unknown field `owner`"));
    }
}
