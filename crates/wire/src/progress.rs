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
    /// The pod doctor challenge was finished; the answer is its `ChallengeResult`.
    ChallengeFinished,
}

impl ProgressKind {
    pub const ALL: [ProgressKind; 7] = [
        ProgressKind::StepOpened,
        ProgressKind::PredictionAnswered,
        ProgressKind::TaskPassed,
        ProgressKind::HintRevealed,
        ProgressKind::QuizAnswered,
        ProgressKind::StepCompleted,
        ProgressKind::ChallengeFinished,
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
            ProgressKind::ChallengeFinished => "challenge_finished",
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

/// A finished pod doctor challenge: the seed that drew it, how long it took (wall and virtual
/// time) and how many hints were opened. Sent as a `challenge_finished` event's answer,
/// `seed=42 wall_ms=251000 virtual_ms=750000 hints=2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChallengeResult {
    pub seed: u64,
    pub wall_ms: u64,
    pub virtual_ms: u64,
    pub hints: u64,
}

impl ChallengeResult {
    pub fn to_answer(&self) -> String {
        format!("seed={} wall_ms={} virtual_ms={} hints={}", self.seed, self.wall_ms, self.virtual_ms, self.hints)
    }

    /// Reads an answer; `None` unless it is exactly the four fields, in order.
    pub fn parse(answer: &str) -> Option<ChallengeResult> {
        let mut fields = answer.split(' ');
        let mut next = |key: &str| fields.next()?.strip_prefix(key)?.strip_prefix('=')?.parse::<u64>().ok();
        let result = ChallengeResult {
            seed: next("seed")?,
            wall_ms: next("wall_ms")?,
            virtual_ms: next("virtual_ms")?,
            hints: next("hints")?,
        };
        fields.next().is_none().then_some(result)
    }

    /// Lower is better: wall seconds, and a minute for each hint (kubelab-core's
    /// `lesson::challenge::score`, which the web app shows).
    pub fn score(&self) -> u64 {
        self.wall_ms / 1000 + 60 * self.hints
    }
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
    fn a_challenge_result_round_trips_as_an_answer_and_refuses_anything_else() {
        let result = ChallengeResult { seed: 42, wall_ms: 251_000, virtual_ms: 750_000, hints: 2 };
        assert_eq!(result.to_answer(), "seed=42 wall_ms=251000 virtual_ms=750000 hints=2");
        assert_eq!(ChallengeResult::parse(&result.to_answer()), Some(result));
        assert_eq!(result.score(), 371);
        for bad in
            ["", "seed=42", "seed=x wall_ms=1 virtual_ms=1 hints=0", "seed=1 wall_ms=1 virtual_ms=1 hints=0 extra=1"]
        {
            assert_eq!(ChallengeResult::parse(bad), None, "{bad}");
        }
    }

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
