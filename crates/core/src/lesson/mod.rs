//! Lessons as data: the YAML format (`format.rs`), the pod doctor challenge drawn from a seed
//! (`challenge.rs`, its faults in `challenge_faults.rs`), the lab a lesson runs in (`lab.rs`), the
//! linter (`lint.rs`, with `locate.rs` for file lines), its teaching rules (`rules.rs`) and its
//! replay against the simulator (`replay.rs`), and the JSON Schema generated from the format
//! (`schema.rs`).

pub mod challenge;
pub mod challenge_faults;
pub mod format;
pub mod lab;
pub mod lint;
pub mod locate;
pub mod replay;
pub mod rules;
pub mod schema;

/// A task's check, part of the lesson format.
pub use crate::checks::Check;
/// A lab's budgets, as the hosts of a lesson lab set them (`LessonLab::set_limits`).
pub use crate::store::lab_limits::LabLimits;
pub use format::{
    ChartSpec, Lesson, Level, Prediction, PredictionChoice, Question, QuizChoice, Step, Task, WrongSolution,
};
pub use lab::LessonLab;
pub use lint::{Diagnostic, lint};

/// A lesson file that does not match the format: where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    /// 1-based; 1 when the YAML library could not say, 0 for a lesson read from JSON.
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// The check kinds, as lessons spell them (for "unknown check kind" errors).
pub const CHECK_KINDS: &[&str] = &[
    "pods",
    "deployment",
    "exists",
    "gone",
    "field",
    "applied",
    "event",
    "node",
    "rollout",
    "ran",
    "all",
    "any",
    "not",
];

impl Lesson {
    /// Free play: the default three-node cluster, seed 1, nothing set up, no steps (the web
    /// app's sandbox and the server's hosted sandbox lab).
    pub fn sandbox() -> Lesson {
        Lesson {
            id: "sandbox".into(),
            title: "Sandbox".into(),
            summary: String::new(),
            minutes: 0,
            level: Level::Beginner,
            prerequisites: Vec::new(),
            seed: None,
            cluster: None,
            files: Default::default(),
            setup: String::new(),
            steps: Vec::new(),
            quiz: Vec::new(),
        }
    }

    /// Reads a lesson, refusing unknown fields, with the error's line and column.
    pub fn from_yaml(text: &str) -> Result<Lesson, FormatError> {
        from_yaml(text).map_err(|e| {
            let (line, column) = e.location().map_or((1, 1), |l| (l.line(), l.column()));
            FormatError { line, column, message: explain(&e.to_string()) }
        })
    }

    /// The lesson as a lesson file writes it (checks as one-key maps), e.g. a drawn challenge.
    pub fn to_yaml(&self) -> String {
        let mut text = Vec::new();
        let mut serializer = serde_yaml::Serializer::new(&mut text);
        match serde_yaml::with::singleton_map_recursive::serialize(self, &mut serializer) {
            Ok(()) => String::from_utf8(text).unwrap_or_default(),
            Err(e) => format!("# cannot write this lesson as YAML: {e}\n"),
        }
    }

    /// Reads a lesson the web app's build turned from YAML into JSON (so the page needs no YAML
    /// parser). The error names no line: the JSON's lines are not the file's, and
    /// `kubelab lessons check` gives the YAML's.
    pub fn from_json(text: &str) -> Result<Lesson, FormatError> {
        serde_json::from_str(text).map_err(|e| FormatError { line: 0, column: 0, message: explain(&e.to_string()) })
    }
}

/// Reads YAML where enums are one-key maps (`pods: {…}`), as lessons write checks.
pub fn from_yaml<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, serde_yaml::Error> {
    serde_yaml::with::singleton_map_recursive::deserialize(serde_yaml::Deserializer::from_str(text))
}

/// serde_yaml's message without its trailing location, with unknown check kinds named as such.
fn explain(message: &str) -> String {
    let message = match message.rfind(" at line ") {
        Some(at) => &message[..at],
        None => message,
    };
    if let Some(at) = message.find("unknown variant `")
        && message.contains("expected one of `pods`")
    {
        let rest = &message[at + "unknown variant `".len()..];
        let kind = rest.split('`').next().unwrap_or("");
        let path = message[..at].trim_end_matches(": ");
        let path = if path.is_empty() { String::new() } else { format!("{path}: ") };
        return format!("{path}unknown check kind \"{kind}\" (known: {})", CHECK_KINDS.join(", "));
    }
    message.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINIMAL: &str =
        "id: x\ntitle: X\nsummary: s\nminutes: 5\nlevel: beginner\nsteps:\n- title: one\n  text: hi\n";

    #[test]
    fn a_minimal_lesson_reads() {
        let lesson = Lesson::from_yaml(MINIMAL).unwrap();
        assert_eq!(lesson.level, Level::Beginner);
        assert_eq!(lesson.steps[0].commands.len(), 0);
    }

    #[test]
    fn unknown_fields_and_check_kinds_name_their_line() {
        let err = Lesson::from_yaml(&format!("{MINIMAL}  colour: red\n")).unwrap_err();
        assert_eq!(err.line, 9);
        assert!(err.message.contains("unknown field `colour`"), "{}", err.message);
        let task = "  task:\n    goal: g\n    solution: ''\n    checks:\n    - podz: {}\n";
        let err = Lesson::from_yaml(&format!("{MINIMAL}{task}")).unwrap_err();
        assert_eq!(err.line, 13);
        assert!(err.message.contains("unknown check kind \"podz\" (known: pods, deployment,"), "{}", err.message);
    }
}
