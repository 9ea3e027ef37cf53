//! What a class's live sockets send: a fault the instructor injects into a learner's lab, and
//! the dashboard (whole at first, then what changed each time it changes).

use crate::dashboard::{Dashboard, DashboardChanges};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum LiveMessage {
    Fault {
        command: String,
        from: String,
    },
    Dashboard(Box<Dashboard>),
    #[serde(rename = "dashboard_changes")]
    DashboardChanges(Box<DashboardChanges>),
}

impl LiveMessage {
    /// Parses one socket message; `None` for kinds this reader does not know (or malformed text).
    pub fn parse(text: &str) -> Option<LiveMessage> {
        serde_json::from_str(text).ok()
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(
            LiveMessage::parse(&LiveMessage::Dashboard(dashboard.clone()).to_json()),
            Some(LiveMessage::Dashboard(dashboard))
        );
        assert_eq!(LiveMessage::parse(r#"{"type":"hello"}"#), None);
        assert_eq!(LiveMessage::parse("not json"), None);
    }
}
