//! The instructor's dashboard: each learner's lesson and step, time on it, tasks passed,
//! hints used, who looks stuck and who is online, and how the class answered each prediction
//! and quiz question — as JSON, and live over a WebSocket that sends it whole, then what changed.

use super::AppState;
use super::classes::owned_class;
pub use super::dashboard_build::build;
use super::dashboard_feed::ClassFeed;
use super::problem::ApiResult;
use super::session::Caller;
use super::socket::{self, Ended};
use axum::Json;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::response::Response;
use serde::Deserialize;
use std::sync::Arc;
use std::time::Duration;

/// A learner counts as stuck after this long online with nothing recorded.
pub const DEFAULT_STUCK_AFTER_MS: i64 = 5 * 60 * 1000;
/// Changes are gathered this long before the dashboard is re-sent.
const COALESCE: Duration = Duration::from_millis(200);
/// Re-sent at least this often, so `stuck` flips without a change.
const REFRESH: Duration = Duration::from_secs(15);

pub use kubelab_wire::{Dashboard, LiveMessage};

#[derive(Deserialize)]
pub struct Options {
    /// Seconds; `stuck_after=120` flags learners quiet for two minutes.
    stuck_after: Option<u32>,
}

impl Options {
    fn stuck_after_ms(&self) -> i64 {
        self.stuck_after.map_or(DEFAULT_STUCK_AFTER_MS, |s| i64::from(s) * 1000)
    }
}

/// `GET /api/classes/{id}/dashboard`
pub async fn show(
    State(state): State<Arc<AppState>>,
    caller: Caller,
    Path(class_id): Path<String>,
    Query(options): Query<Options>,
) -> ApiResult<Json<Dashboard>> {
    let class = owned_class(&state.db, &caller, &class_id, "see its dashboard").await?;
    let online = state.hub.online(&class_id);
    Ok(Json(build(&state.db, class, &online, options.stuck_after_ms()).await?))
}

/// `GET /api/classes/{id}/live` (WebSocket)
pub async fn live(
    State(state): State<Arc<AppState>>,
    caller: Caller,
    Path(class_id): Path<String>,
    Query(options): Query<Options>,
    headers: axum::http::HeaderMap,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> ApiResult<Response> {
    owned_class(&state.db, &caller, &class_id, "watch its dashboard").await?;
    let upgrade = socket::upgrade(upgrade, &headers)?;
    let stuck_after_ms = options.stuck_after_ms();
    Ok(upgrade.on_upgrade(move |socket| watch(state, socket, class_id, stuck_after_ms)))
}

async fn watch(state: Arc<AppState>, mut socket: WebSocket, class_id: String, stuck_after_ms: i64) {
    let mut changes = state.hub.watch_class(&class_id);
    let mut shutdown = state.shutdown.clone();
    let feed = state.dashboards.subscribe(&class_id, stuck_after_ms);
    let mut sent: Option<Arc<Dashboard>> = None;
    let ended = loop {
        let version = *changes.borrow_and_update();
        if let Err(gone) = send_update(&state, &feed, &mut socket, version, &mut sent).await {
            break gone;
        }
        if let Err(gone) = next_update(&mut changes, &mut shutdown, &mut socket).await {
            break gone;
        }
    };
    state.dashboards.unsubscribe(feed);
    socket::finish(socket, ended).await;
}

/// Waits until there is something to send: a change (gathered for `COALESCE`) or `REFRESH`.
/// Frames from the client other than a close are read and ignored: a ping is not a reason to
/// rebuild the dashboard.
async fn next_update(
    changes: &mut tokio::sync::watch::Receiver<u64>,
    shutdown: &mut tokio::sync::watch::Receiver<bool>,
    socket: &mut WebSocket,
) -> Result<(), Ended> {
    let refresh = tokio::time::sleep(REFRESH);
    tokio::pin!(refresh);
    loop {
        tokio::select! {
            changed = changes.changed() => {
                if changed.is_err() { return Err(Ended::ClientLeft); }
                tokio::time::sleep(COALESCE).await;
                return Ok(());
            }
            () = &mut refresh => return Ok(()),
            _ = shutdown.changed() => return Err(Ended::Shutdown),
            message = socket.recv() => if socket::is_goodbye(message) { return Err(Ended::ClientLeft) },
        }
    }
}

/// The most one dashboard message may be; a bigger one closes the socket with 1009.
pub const MAX_MESSAGE_BYTES: usize = 1024 * 1024;

/// Sends the whole dashboard the first time, then only what changed since the last one sent.
async fn send_update(
    state: &AppState,
    feed: &ClassFeed,
    socket: &mut WebSocket,
    version: u64,
    sent: &mut Option<Arc<Dashboard>>,
) -> Result<(), Ended> {
    let dashboard = match feed.current(state, version).await {
        Ok(dashboard) => dashboard,
        Err(error) => {
            tracing::error!(?error, "dashboard");
            return Err(Ended::Closed(axum::extract::ws::close_code::ERROR, "internal error"));
        }
    };
    let message = match sent.as_deref() {
        None => LiveMessage::Dashboard(Box::new((*dashboard).clone())),
        Some(before) => LiveMessage::DashboardChanges(Box::new(dashboard.changes_since(before))),
    }
    .to_json();
    if message.len() > MAX_MESSAGE_BYTES {
        return Err(Ended::Closed(axum::extract::ws::close_code::SIZE, "the dashboard is larger than 1 MiB"));
    }
    socket::send_text(socket, message).await.map_err(Ended::from)?;
    *sent = Some(dashboard);
    Ok(())
}
