//! Invitations: on a server where instructor sign-up is by invitation (`kubelab serve
//! --signup invite`), an instructor makes a one-use code (`POST /api/invites`, valid a week,
//! kept as a hash) and a new instructor signs up with it. The first instructor of an empty
//! database needs none: someone has to be first.

use super::problem::{ApiError, ApiResult};
use super::session::Caller;
use super::{AppState, codes};
use crate::db::{Db, now_ms};
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde_json::{Value, json};
use std::sync::Arc;

/// How long an invitation may wait to be used.
const INVITE_TTL_MS: i64 = 7 * 24 * 3600 * 1000;

/// Who may sign up as an instructor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SignUp {
    /// Anyone who reaches the server.
    Open,
    /// Those holding an invitation from an instructor (and the first instructor).
    Invite,
}

/// `POST /api/invites`
pub async fn create(State(state): State<Arc<AppState>>, caller: Caller) -> ApiResult<(StatusCode, Json<Value>)> {
    let instructor = caller.instructor("invite instructors")?;
    let code = codes::new_resume_code();
    sqlx::query("INSERT INTO invites (code_hash, created_by, created_at) VALUES ($1, $2, $3)")
        .bind(codes::token_hash(&code))
        .bind(&instructor.id)
        .bind(now_ms())
        .execute(&state.db.pool)
        .await?;
    let expires_at = now_ms() + INVITE_TTL_MS;
    Ok((StatusCode::CREATED, Json(json!({ "invite": code, "expires_at": expires_at }))))
}

/// Lets a sign-up through when sign-up is open, the database has no instructor yet, or it
/// brings an unused, unexpired invitation (used up by `new_user`).
pub async fn admit(db: &Db, signup: SignUp, invite: Option<&str>, new_user: &str) -> ApiResult<()> {
    if signup == SignUp::Open {
        return Ok(());
    }
    let (instructors,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM users WHERE role = 'instructor'").fetch_one(&db.pool).await?;
    if instructors == 0 {
        return Ok(());
    }
    let refused = || {
        ApiError::Forbidden("sign-up here is by invitation: ask an instructor of this server for an invite code".into())
    };
    let code = invite.and_then(codes::normalize_code).ok_or_else(refused)?;
    let used =
        sqlx::query("UPDATE invites SET used_by = $1 WHERE code_hash = $2 AND used_by IS NULL AND created_at > $3")
            .bind(new_user)
            .bind(codes::token_hash(&code))
            .bind(now_ms() - INVITE_TTL_MS)
            .execute(&db.pool)
            .await?;
    if used.rows_affected() == 1 { Ok(()) } else { Err(refused()) }
}
