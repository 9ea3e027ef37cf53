//! Faults the instructor pushes to the whole class (`lab node power-off node-2`), and the
//! learner's live socket that delivers them: each connected learner's lab runs the command as
//! a lab event, exactly as if the learner had typed it.

use super::AppState;
use super::body::Body;
use super::classes::owned_class;
use super::problem::{ApiError, ApiResult};
use super::session::Caller;
use super::socket::{self, Ended};
use axum::Json;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use kubelab_core::script::{self, Action, lab::LAB_VERBS};
use kubelab_wire::LiveMessage;
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fault {
    command: String,
}

/// The command, checked: one `lab …` line naming a verb the simulator has.
pub fn validate(command: &str) -> ApiResult<String> {
    // A heredoc would make one step of several lines: a fault is one line, as typed.
    if command.trim().contains(['\n', '\r']) {
        return Err(ApiError::BadRequest("command must be exactly one line".into()));
    }
    let steps = script::parse(command.trim()).map_err(|e| ApiError::BadRequest(format!("command: {}", e.message)))?;
    let [step] = steps.as_slice() else {
        return Err(ApiError::BadRequest("command must be exactly one line".into()));
    };
    let Action::Lab(words) = &step.action else {
        return Err(ApiError::BadRequest(format!(
            "command must be a lab event (`lab node power-off NAME`, …), not {:?}",
            step.written
        )));
    };
    let known = LAB_VERBS
        .iter()
        .any(|verb| words.len() >= verb.words.len() && verb.words.iter().zip(words).all(|(a, b)| a == b));
    if !known {
        let verbs: Vec<&str> = LAB_VERBS.iter().map(|verb| verb.usage).collect();
        return Err(ApiError::BadRequest(format!(
            "unknown lab event {:?}; the lab knows: {}",
            step.written,
            verbs.join("; ")
        )));
    }
    Ok(step.written.clone())
}

/// `POST /api/classes/{id}/faults`
pub async fn push(
    State(state): State<Arc<AppState>>,
    caller: Caller,
    Path(class_id): Path<String>,
    Body(fault): Body<Fault>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    owned_class(&state.db, &caller, &class_id, "push faults to it").await?;
    let command = validate(&fault.command)?;
    let message = LiveMessage::Fault { command: command.clone(), from: caller.me.display_name.clone() };
    let delivered = state.hub.broadcast(&class_id, &message.to_json());
    tracing::info!(class = %class_id, %command, delivered, "fault pushed");
    Ok((StatusCode::ACCEPTED, Json(json!({ "delivered": delivered }))))
}

/// `GET /api/live` (WebSocket, learners)
pub async fn learner_live(
    State(state): State<Arc<AppState>>,
    caller: Caller,
    headers: axum::http::HeaderMap,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> ApiResult<Response> {
    let (learner, class_id) = caller.learner("open a live connection")?;
    let most = state.limits.max_live_sockets_per_learner;
    if state.hub.sockets_of(class_id, &learner.id) >= most {
        return Err(ApiError::TooManyRequests {
            detail: format!("you already have {most} live connections open, the most one learner may; close a tab"),
            retry_after_s: 5,
        });
    }
    let upgrade = socket::upgrade(upgrade, &headers)?;
    let (learner_id, class_id) = (learner.id.clone(), class_id.to_string());
    Ok(upgrade.on_upgrade(move |socket| deliver(state, socket, class_id, learner_id)))
}

async fn deliver(state: Arc<AppState>, mut socket: WebSocket, class_id: String, learner_id: String) {
    let mut connection = state.hub.connect_learner(&class_id, &learner_id);
    let mut shutdown = state.shutdown.clone();
    let ended = loop {
        tokio::select! {
            message = connection.messages.recv() => match message {
                Some(text) => if let Err(gone) = socket::send_text(&mut socket, text).await { break Ended::from(gone) },
                // The hub dropped this socket: its queue was full.
                None => break Ended::TooSlow,
            },
            _ = shutdown.changed() => break Ended::Shutdown,
            message = socket.recv() => if socket::is_goodbye(message) { break Ended::ClientLeft },
        }
    };
    state.hub.disconnect_learner(&class_id, &learner_id, connection.id);
    socket::finish(socket, ended).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_known_lab_events_pass() {
        assert_eq!(validate("  lab node power-off node-2 ").unwrap(), "lab node power-off node-2");
        let refused = |command: &str| match validate(command) {
            Err(ApiError::BadRequest(detail)) => detail,
            other => panic!("{command}: {other:?}"),
        };
        assert!(refused("kubectl delete pods --all").contains("must be a lab event"));
        assert!(refused("lab node explode node-2").contains("unknown lab event"));
        assert!(refused("lab node power-off a\nlab node power-off b").contains("exactly one line"));
        assert!(refused("lab node power-off node-2 <<EOF\nanything\nEOF").contains("exactly one line"));
        assert!(refused("lab node power-off 'unterminated").starts_with("command:"));
    }
}
