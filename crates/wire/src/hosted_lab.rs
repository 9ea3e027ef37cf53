//! A hosted lab's socket (`GET /api/labs/{id}/live`): what the server sends watchers (the state
//! to replay, each script's output, errors) and what its instructor sends (a script to run).

use serde::{Deserialize, Serialize};

/// Ends a `sleep` the server ran only to keep a lab's clock with the wall clock while real
/// clients use its Kubernetes API (a comment in the script): replayed, not shown.
pub const CLOCK_MARK: &str = "# wall clock";

/// Whether a script came from a real client through the lab's Kubernetes API (`lab api …`)
/// or kept the clock for one: the page replays it and shows the server's summary instead.
pub fn from_api(script: &str) -> bool {
    script.starts_with("lab api ") || script.ends_with(CLOCK_MARK)
}

/// One line run and what it printed, exactly as the core rendered it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub command: String,
    pub output: String,
    pub succeeded: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LabMessage {
    /// First, to a newcomer: everything needed to replay the lab, the recent transcript, and
    /// whether this watcher may run scripts.
    State {
        id: String,
        lesson: String,
        seed: u64,
        may_run: bool,
        scripts: Vec<String>,
        transcript: Vec<Entry>,
    },
    /// A script ran: the lines it ran and what they printed.
    Ran {
        script: String,
        entries: Vec<Entry>,
    },
    /// A script was cut off (it ran past the lab's limit) and undone: not to be replayed.
    Refused {
        script: String,
        message: String,
    },
    Error {
        message: String,
    },
}

impl LabMessage {
    /// Reads one message; an unknown or garbled one is an error to show, never a panic.
    pub fn parse(text: &str) -> Result<LabMessage, String> {
        serde_json::from_str(text).map_err(|e| format!("the server sent a message this page does not understand: {e}"))
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// What the lab's instructor sends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LabRequest {
    Run { script: String },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_read_back_as_written() {
        let entry =
            Entry { command: "kubectl get pods".into(), output: "No resources found\n".into(), succeeded: true };
        for message in [
            LabMessage::State {
                id: "x".into(),
                lesson: "sandbox".into(),
                seed: 1,
                may_run: true,
                scripts: vec!["kubectl get pods".into()],
                transcript: vec![entry.clone()],
            },
            LabMessage::Ran { script: "sleep 10s".into(), entries: vec![entry] },
            LabMessage::Error { message: "the script is too long".into() },
        ] {
            assert_eq!(LabMessage::parse(&message.to_json()), Ok(message));
        }
        assert!(LabMessage::parse(r#"{"type":"hello"}"#).is_err());
    }
}
