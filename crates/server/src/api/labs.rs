//! Hosted labs over HTTP: an instructor starts one (capped per server), anyone signed in
//! watches it over a WebSocket, and only its instructor runs scripts in it.

use super::body::Body;
use super::problem::{ApiError, ApiResult};
use super::session::Caller;
use super::socket::{self, Ended};
use super::{AppState, codes};
use crate::hosted_lab::HostedLab;
use axum::Json;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use kubelab_core::lesson::Lesson;
use kubelab_wire::{LabMessage, LabRequest};
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::broadcast::error::RecvError;

/// The running hosted labs, by id.
#[derive(Default)]
pub struct HostedLabs {
    labs: Mutex<HashMap<String, Arc<HostedLab>>>,
    /// Lab threads still running, closed labs' included until their threads end.
    live_threads: Arc<AtomicUsize>,
}

impl HostedLabs {
    fn get(&self, id: &str) -> ApiResult<Arc<HostedLab>> {
        let labs = self.labs.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        labs.get(id).cloned().ok_or_else(|| ApiError::NotFound(format!("no hosted lab has id {id:?}")))
    }

    /// The lab with this id, if it runs.
    pub fn find(&self, id: &str) -> Option<Arc<HostedLab>> {
        self.get(id).ok()
    }

    /// How many lab threads are running now.
    pub fn live_threads(&self) -> usize {
        self.live_threads.load(Ordering::SeqCst)
    }

    /// Closes the labs no one has used or watched for `idle` (the server asks every minute).
    pub fn expire_idle(&self, idle: Duration) -> usize {
        let now = Instant::now();
        let mut labs = self.labs.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let before = labs.len();
        labs.retain(|_, lab| {
            let expired = lab.idle_for(now).is_some_and(|quiet| quiet >= idle);
            if expired {
                lab.close();
            }
            !expired
        });
        before - labs.len()
    }

    /// Closes every lab (server shutdown).
    pub fn close_all(&self) {
        let labs = self.labs.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        labs.values().for_each(|lab| lab.close());
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewLab {
    #[serde(default)]
    lesson: Option<String>,
}

/// `POST /api/labs`
pub async fn create(
    State(state): State<Arc<AppState>>,
    caller: Caller,
    Body(form): Body<NewLab>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let instructor = caller.instructor("host labs")?;
    let lesson = match &form.lesson {
        Some(id) => {
            state.lessons.get(id).cloned().ok_or_else(|| ApiError::NotFound(format!("no lesson has id {id:?}")))?
        }
        None => Lesson::sandbox(),
    };
    let mut labs = state.labs.labs.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    // Threads, not entries: a closed lab counts until its thread has stopped.
    let running = labs.len().max(state.labs.live_threads());
    if running >= state.limits.max_hosted_labs {
        return Err(ApiError::Unavailable(format!(
            "this server already hosts {running} labs, its limit; close one first"
        )));
    }
    let own = labs.values().filter(|lab| lab.owner_id == instructor.id).count();
    if own >= state.limits.max_labs_per_instructor {
        return Err(ApiError::Unavailable(format!(
            "you already host {own} labs, the most one instructor may; close one first"
        )));
    }
    let id = codes::new_id();
    let owner = (id.clone(), instructor.id.clone());
    let lab = HostedLab::start(owner, lesson, state.limits.lab_bounds, &state.labs.live_threads)
        .map_err(|e| ApiError::Internal(format!("lab thread: {e}")))?;
    let answer = json!({ "id": id, "lesson": lab.lesson_id, "seed": lab.seed });
    labs.insert(id, Arc::new(lab));
    Ok((StatusCode::CREATED, Json(answer)))
}

/// `GET /api/labs/{id}`
pub async fn show(
    State(state): State<Arc<AppState>>,
    _caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let lab = state.labs.get(&id)?;
    Ok(Json(json!({ "id": lab.id, "lesson": lab.lesson_id, "seed": lab.seed, "scripts": lab.scripts() })))
}

/// `DELETE /api/labs/{id}`
pub async fn delete(
    State(state): State<Arc<AppState>>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    let lab = state.labs.get(&id)?;
    if lab.owner_id != caller.me.id {
        return Err(ApiError::Forbidden("only the lab's instructor can close it".into()));
    }
    lab.close();
    state.labs.labs.lock().unwrap_or_else(std::sync::PoisonError::into_inner).remove(&id);
    Ok(StatusCode::NO_CONTENT)
}

/// `GET /api/labs/{id}/ws` (WebSocket)
pub async fn watch(
    State(state): State<Arc<AppState>>,
    caller: Caller,
    Path(id): Path<String>,
    headers: axum::http::HeaderMap,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> ApiResult<Response> {
    let lab = state.labs.get(&id)?;
    let may_run = lab.owner_id == caller.me.id;
    let upgrade = socket::upgrade(upgrade, &headers)?;
    Ok(upgrade.on_upgrade(move |socket| follow(state, socket, lab, may_run)))
}

async fn follow(state: Arc<AppState>, mut socket: WebSocket, lab: Arc<HostedLab>, may_run: bool) {
    let (mut updates, mut closed) = lab.subscribe();
    let mut shutdown = state.shutdown.clone();
    let ended = match socket::send_text(&mut socket, lab.state_message(may_run)).await {
        Err(gone) => Ended::from(gone),
        Ok(()) => loop {
            tokio::select! {
                update = updates.recv() => match update {
                    Ok(text) => if let Err(gone) = socket::send_text(&mut socket, text).await { break Ended::from(gone) },
                    Err(RecvError::Lagged(_)) => break Ended::TooSlow,
                    Err(RecvError::Closed) => break Ended::Closed(axum::extract::ws::close_code::NORMAL, "lab closed"),
                },
                _ = closed.changed() => break Ended::Closed(axum::extract::ws::close_code::NORMAL, "lab closed"),
                _ = shutdown.changed() => break Ended::Shutdown,
                message = socket.recv() => match message {
                    Some(Ok(Message::Text(text))) => {
                        let reply = handle(&lab, may_run, &text);
                        if let Some(reply) = reply
                            && let Err(gone) = socket::send_text(&mut socket, reply).await
                        {
                            break Ended::from(gone);
                        }
                    }
                    other => if socket::is_goodbye(other) { break Ended::ClientLeft },
                },
            }
        },
    };
    socket::finish(socket, ended).await;
}

/// A client's message; the reply, when there is one, is an error for that client only.
fn handle(lab: &HostedLab, may_run: bool, text: &str) -> Option<String> {
    let error = |message: String| Some(LabMessage::Error { message }.to_json());
    match serde_json::from_str::<LabRequest>(text) {
        Err(e) => error(format!("not a request this lab understands: {e}")),
        Ok(LabRequest::Run { .. }) if !may_run => error("only the lab's instructor can run commands in it".into()),
        Ok(LabRequest::Run { script }) if script.len() > 64 * 1024 => error("the script is too long".into()),
        Ok(LabRequest::Run { script }) => lab.submit(script).err().and_then(|refused| error(refused.to_string())),
    }
}
