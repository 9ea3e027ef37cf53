//! The HTTP API under `/api` (crates/server/API.md is its reference): accounts and sessions,
//! classes, progress, the live dashboard, faults pushed to a class, and hosted labs.

mod accounts;
mod body;
mod classes;
mod client_address;
pub mod codes;
mod dashboard;
mod dashboard_build;
mod dashboard_feed;
mod faults;
mod input;
pub mod invites;
mod lab_agents;
mod lab_tokens;
mod labs;
mod problem;
mod progress;
mod progress_summary;
pub mod rate_limit;
mod session;
mod socket;

pub use labs::HostedLabs;
pub use problem::ApiError;
pub use rate_limit::Rate;

use crate::db::Db;
use crate::hub::Hub;
use crate::lesson_library::LessonLibrary;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::HeaderMap;
use axum::routing::{get, post, put};
use axum::{Json, Router, middleware};
use problem::ApiResult;
use serde_json::{Value, json};
use std::sync::Arc;
use tokio::sync::watch;

/// The server's bounds; `Limits::default()` is what `kubelab serve` uses.
#[derive(Clone, Debug)]
pub struct Limits {
    pub max_body_bytes: usize,
    /// `PUT /api/lab` carries a whole lab log.
    pub max_lab_body_bytes: usize,
    /// Per signed-in person (however many sessions they hold).
    pub session_writes: Rate,
    /// Per client address before signing in (joins, resumes, sign-ins).
    pub anonymous_writes: Rate,
    /// Every write from one client address, signed in or not: a class behind one NAT shares it.
    pub address_writes: Rate,
    /// Sign-ins to one account: past it they are delayed (at most `MAX_SIGN_IN_DELAY`), never refused.
    pub account_sign_ins: Rate,
    /// Who may sign up as an instructor (`kubelab serve --signup`).
    pub signup: invites::SignUp,
    /// The server speaks HTTPS itself (`--tls-cert`): session cookies are `Secure`.
    pub https: bool,
    /// Proxies whose `X-Forwarded-For` names the client (`kubelab serve --trusted-proxy`).
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// Sign-ups and sign-ins per client address.
    pub password_attempts: Rate,
    pub max_hosted_labs: usize,
    /// Hosted labs one instructor may keep open at once (so one cannot take every slot).
    pub max_labs_per_instructor: usize,
    /// Each hosted lab's script deadline and log size.
    pub lab_bounds: crate::hosted_lab::LabBounds,
    /// A hosted lab no one has used or watched this long is closed.
    pub lab_idle_expiry: std::time::Duration,
    pub max_learners_per_class: usize,
    pub max_classes_per_instructor: usize,
    /// Live sockets (`/api/live`) one learner may hold open (a phone and a laptop, and some).
    pub max_live_sockets_per_learner: usize,
    /// Progress events one learner may record (a whole course is a few hundred).
    pub max_events_per_learner: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_body_bytes: 64 * 1024,
            max_lab_body_bytes: 256 * 1024,
            session_writes: Rate { per_second: 20.0, burst: 40.0 },
            anonymous_writes: Rate { per_second: 100.0, burst: 200.0 },
            address_writes: Rate { per_second: 1000.0, burst: 2000.0 },
            account_sign_ins: Rate { per_second: 0.1, burst: 10.0 },
            trusted_proxies: Vec::new(),
            signup: invites::SignUp::Open,
            https: false,
            password_attempts: Rate { per_second: 0.2, burst: 20.0 },
            max_hosted_labs: 8,
            max_labs_per_instructor: 2,
            max_events_per_learner: 10_000,
            max_learners_per_class: 1000,
            max_classes_per_instructor: 100,
            max_live_sockets_per_learner: 4,
            lab_bounds: crate::hosted_lab::LabBounds::default(),
            lab_idle_expiry: std::time::Duration::from_secs(2 * 3600),
        }
    }
}

/// What every handler shares.
pub struct AppState {
    pub db: Db,
    pub hub: Hub,
    pub labs: HostedLabs,
    pub limits: Limits,
    pub rate: rate_limit::RateLimiter,
    /// Dashboards built once per class per change, for all its watchers.
    pub dashboards: dashboard_feed::DashboardFeeds,
    /// The lessons served (hosted labs start from them).
    pub lessons: LessonLibrary,
    /// Turns true when the server shuts down: every WebSocket closes with a reason.
    pub shutdown: watch::Receiver<bool>,
    /// Where the hosted labs' Kubernetes API listens, once it does.
    pub kube_api: std::sync::OnceLock<crate::kube_api::hosted::KubeEndpoint>,
}

impl AppState {
    pub fn new(db: Db, lessons: LessonLibrary, limits: Limits, shutdown: watch::Receiver<bool>) -> AppState {
        AppState {
            db,
            hub: Hub::default(),
            labs: HostedLabs::default(),
            limits,
            rate: rate_limit::RateLimiter::default(),
            dashboards: dashboard_feed::DashboardFeeds::default(),
            lessons,
            shutdown,
            kube_api: std::sync::OnceLock::new(),
        }
    }
}

/// The `/api` routes (mount with `Router::nest("/api", …)`).
pub fn router(state: Arc<AppState>) -> Router {
    let lab_log = Router::new()
        .route("/lab", put(progress::save_lab).get(progress::own_lab))
        .layer(DefaultBodyLimit::max(state.limits.max_lab_body_bytes));
    Router::new()
        .route("/health", get(health))
        .route("/me", get(accounts::me))
        .route("/me/resume-code", post(classes::new_resume_code))
        .route("/lessons", get(lessons))
        .route("/instructors", post(accounts::sign_up))
        .route("/session", post(accounts::sign_in).delete(accounts::sign_out))
        .route("/invites", post(invites::create))
        .route("/classes", post(classes::create).get(classes::list))
        .route("/join", post(classes::join))
        .route("/resume", post(classes::resume))
        .route("/progress", post(progress::record).get(progress::read))
        .route("/live", get(faults::learner_live))
        .route("/classes/{id}/dashboard", get(dashboard::show))
        .route("/classes/{id}/joins", put(classes::set_joins))
        .route("/classes/{id}/live", get(dashboard::live))
        .route("/classes/{id}/faults", post(faults::push))
        .route("/classes/{id}/learners/{learner}/lab", get(progress::learner_lab))
        .route("/labs", post(labs::create))
        .route("/labs/{id}", get(labs::show).delete(delete_lab))
        .route("/labs/{id}/ws", get(labs::watch))
        .route("/labs/{id}/kubeconfig", post(lab_tokens::kubeconfig))
        .route("/labs/{id}/tokens", get(lab_tokens::list))
        .route("/labs/{id}/agent-tokens", post(lab_agents::create))
        .route("/labs/{id}/nodes", get(lab_agents::list))
        .route("/labs/{id}/node-settings", put(lab_agents::node_settings))
        .route("/labs/{id}/tokens/{token}", axum::routing::delete(lab_tokens::revoke))
        .layer(DefaultBodyLimit::max(state.limits.max_body_bytes))
        .merge(lab_log)
        .fallback(not_found)
        .layer(middleware::from_fn_with_state(Arc::clone(&state), rate_limit::limit_writes))
        .layer(middleware::from_fn(problem::as_problem))
        .with_state(state)
}

use labs::delete as delete_lab;

/// `GET /api/health`: the server is there, on which database, and who this browser is signed
/// in as (`null` when no one: a page can ask without a 401 in its console).
async fn health(State(state): State<Arc<AppState>>, headers: HeaderMap) -> ApiResult<Json<Value>> {
    let me = session::optional_caller(&state.db, &headers).await?.map(|caller| caller.me);
    Ok(Json(json!({ "ok": true, "database": state.db.backend.name(), "me": me })))
}

/// `GET /api/lessons`: the served lessons' texts, in order.
async fn lessons(State(state): State<Arc<AppState>>) -> Json<Value> {
    Json(json!({ "lessons": state.lessons.lessons }))
}

async fn not_found() -> ApiError {
    ApiError::NotFound("no such API endpoint; see API.md".into())
}

#[cfg(test)]
mod tests;
