//! The lesson format: what an instructor writes in `lessons/*.yaml`. Unknown fields are refused
//! everywhere, so a typo is an error with its line rather than a silently ignored setting.
//! `lessons/README.md` explains each part; `lessons/lesson.schema.json` is generated from these types.

use crate::checks::Check;
use crate::cluster::ClusterSpec;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One lesson: what it teaches, the lab it starts from, its steps and its closing quiz.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    /// Stable identifier, used in URLs and `prerequisites` (`apply-to-running`).
    pub id: String,
    pub title: String,
    /// One or two sentences for the catalogue.
    pub summary: String,
    /// About how long it takes, in minutes.
    pub minutes: u32,
    pub level: Level,
    /// Ids of lessons to take first.
    #[serde(default)]
    pub prerequisites: Vec<String>,
    /// The lab's random seed (pod names, IPs); 1 when left out.
    #[serde(default)]
    pub seed: Option<u64>,
    /// The lab's machines; the default three-node cluster when left out.
    #[serde(default)]
    pub cluster: Option<ClusterSpec>,
    /// Files the learner's `kubectl apply -f NAME` can read, by name.
    #[serde(default)]
    pub files: BTreeMap<String, String>,
    /// A hidden script (the `kubelab sim` language) run before the learner arrives.
    #[serde(default)]
    pub setup: String,
    pub steps: Vec<Step>,
    /// The closing quiz.
    #[serde(default)]
    pub quiz: Vec<Question>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    Beginner,
    Intermediate,
    Advanced,
}

/// One step: prose, then commands to click, then (optionally) a prediction, then a task.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Step {
    pub title: String,
    /// Markdown.
    pub text: String,
    /// Script lines the learner can click to run, in order.
    #[serde(default)]
    pub commands: Vec<String>,
    #[serde(default)]
    pub prediction: Option<Prediction>,
    #[serde(default)]
    pub task: Option<Task>,
    /// A lifecycle chart shown under the step: the pods a selector picks, as lanes over time.
    #[serde(default)]
    pub chart: Option<ChartSpec>,
}

/// Which pods a step's lifecycle chart draws.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChartSpec {
    /// A label selector in `kubectl -l` syntax (`app=hello`).
    pub selector: String,
    /// Defaults to `default`.
    #[serde(default)]
    pub namespace: Option<String>,
    /// What the chart is for, shown above it.
    #[serde(default)]
    pub caption: Option<String>,
}

/// "What will happen?": the learner picks a choice, then `run` runs in their lab and the choice
/// whose check passes is the right one. It is graded by what the simulator does, not by a key.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Prediction {
    pub question: String,
    /// The script that makes it happen (the `kubelab sim` language).
    pub run: String,
    /// Exactly one choice's check passes after `run` (the linter makes sure).
    pub choices: Vec<PredictionChoice>,
    /// Markdown shown once the answer is revealed.
    #[serde(default)]
    pub explanation: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PredictionChoice {
    pub text: String,
    pub check: Check,
}

/// Something for the learner to do, graded by checks over their lab.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Task {
    /// The goal, in words (markdown).
    pub goal: String,
    /// All must pass. They must fail when the learner reaches the task.
    pub checks: Vec<Check>,
    /// Shown one at a time: first a question that points where to look, then the concept,
    /// and only last the command (the answer, whose reveal is recorded).
    #[serde(default)]
    pub hints: Vec<String>,
    /// A script that completes the task (the `kubelab sim` language).
    pub solution: String,
    /// The plausible mistakes: each must leave the task undone (the linter replays them).
    #[serde(default)]
    pub wrong: Vec<WrongSolution>,
    /// The task is done by letting cluster time pass (the lesson is about waiting), so the
    /// linter's idle replay, which lets minutes pass with no learner action, does not apply.
    #[serde(default)]
    pub waiting: bool,
}

/// A fix a learner might plausibly try that does not do what the task teaches.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WrongSolution {
    /// What the learner does instead (the `kubelab sim` language).
    pub run: String,
    /// Part of what the task's failing checks then tell the learner (the linter makes sure).
    pub says: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Question {
    pub question: String,
    /// A lab question: this script runs in the learner's lab when they answer, and the right
    /// choice is the one whose `check` then passes (graded by the simulator, like a prediction).
    #[serde(default)]
    pub run: Option<String>,
    /// Exactly one is `correct: true` (or, for a lab question, has a passing check).
    pub choices: Vec<QuizChoice>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct QuizChoice {
    pub text: String,
    #[serde(default)]
    pub correct: bool,
    /// A lab question's choices: what must hold in the lab after `run` for this one to be right.
    #[serde(default)]
    pub check: Option<Check>,
    /// Why this choice is right, or why it is wrong.
    pub explanation: String,
}
