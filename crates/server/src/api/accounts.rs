//! Instructors' accounts: sign up, sign in, sign out, and `GET /api/me` for anyone signed in.
//! Passwords are hashed with argon2id (on a blocking thread: hashing takes tens of ms).

use super::body::Body;
use super::problem::{ApiError, ApiResult};
use super::session::{self, Caller, Https, Me, set_cookie};
use super::{AppState, codes, input};
use crate::db::now_ms;
use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString, rand_core::OsRng};
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use serde::Deserialize;
use std::sync::{Arc, LazyLock};
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// The longest a sign-in to a much-tried account is held back.
pub const MAX_SIGN_IN_DELAY: Duration = Duration::from_secs(10);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignUp {
    email: String,
    password: String,
    display_name: String,
    /// Needed where sign-up is by invitation (`POST /api/invites` makes one).
    #[serde(default)]
    invite: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignIn {
    email: String,
    password: String,
}

/// `POST /api/instructors`
pub async fn sign_up(
    State(state): State<Arc<AppState>>,
    https: Https,
    Body(form): Body<SignUp>,
) -> ApiResult<impl IntoResponse> {
    let email = input::email(&form.email)?;
    let display_name = input::display_name("display_name", &form.display_name)?;
    let password_hash = hash_password(input::new_password(&form.password)?.to_string()).await?;
    let id = codes::new_id();
    super::invites::admit(&state.db, state.limits.signup, form.invite.as_deref(), &id).await?;
    let inserted = sqlx::query(
        "INSERT INTO users (id, role, email, password_hash, display_name, created_at)
         VALUES ($1, 'instructor', $2, $3, $4, $5) ON CONFLICT (email) DO NOTHING",
    )
    .bind(&id)
    .bind(&email)
    .bind(&password_hash)
    .bind(&display_name)
    .bind(now_ms())
    .execute(&state.db.pool)
    .await?;
    if inserted.rows_affected() == 0 {
        return Err(ApiError::Conflict(format!("an account for {email} already exists; sign in instead")));
    }
    let cookie = session::start(&state.db, &id, https).await?;
    Ok((StatusCode::CREATED, set_cookie(cookie), Json(session::me_by_id(&state.db, &id).await?)))
}

/// `POST /api/session`
pub async fn sign_in(
    State(state): State<Arc<AppState>>,
    https: Https,
    Body(form): Body<SignIn>,
) -> ApiResult<impl IntoResponse> {
    let wrong = || ApiError::Unauthorized("wrong email or password".into());
    let email = input::email(&form.email).map_err(|_| wrong())?;
    // Per account, whichever address guesses: slowed down, never locked (its owner can still
    // sign in, a little later).
    let delay =
        state.rate.delay(&format!("account:{email}"), state.limits.account_sign_ins, Instant::now(), MAX_SIGN_IN_DELAY);
    tokio::time::sleep(delay).await;
    let row: Option<(String, Option<String>)> =
        sqlx::query_as("SELECT id, password_hash FROM users WHERE email = $1 AND role = 'instructor'")
            .bind(&email)
            .fetch_optional(&state.db.pool)
            .await?;
    // An unknown email still pays for one verification, so timing does not tell which
    // addresses have accounts.
    let (id, stored) = match row {
        Some((id, Some(hash))) => (Some(id), Some(hash)),
        _ => (None, None),
    };
    let matches = verify_password(form.password, stored).await?;
    let id = id.filter(|_| matches).ok_or_else(wrong)?;
    let cookie = session::start(&state.db, &id, https).await?;
    Ok((set_cookie(cookie), Json(session::me_by_id(&state.db, &id).await?)))
}

/// `DELETE /api/session`
pub async fn sign_out(
    State(state): State<Arc<AppState>>,
    https: Https,
    caller: Caller,
) -> ApiResult<impl IntoResponse> {
    let cookie = session::end(&state.db, &caller, https).await?;
    Ok((StatusCode::NO_CONTENT, set_cookie(cookie)))
}

/// `GET /api/me`
pub async fn me(caller: Caller) -> Json<Me> {
    Json(caller.me)
}

/// A hash of a random password, made once: what an unknown email is verified against.
static DECOY_HASH: LazyLock<String> = LazyLock::new(|| {
    let salt = SaltString::generate(&mut OsRng);
    let password = codes::new_session_token();
    Argon2::default().hash_password(password.as_bytes(), &salt).map(|hash| hash.to_string()).unwrap_or_default()
});

async fn hash_password(password: String) -> ApiResult<String> {
    blocking(move || {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|hash| hash.to_string())
            .map_err(|e| ApiError::Internal(format!("argon2: {e}")))
    })
    .await
}

/// Verifies against the stored hash, or against the decoy when there is none.
async fn verify_password(password: String, stored: Option<String>) -> ApiResult<bool> {
    blocking(move || {
        let stored = stored.unwrap_or_else(|| DECOY_HASH.clone());
        let parsed = PasswordHash::new(&stored).map_err(|e| ApiError::Internal(format!("stored hash: {e}")))?;
        Ok(Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok())
    })
    .await
}

/// Password hashes computed at once: each takes ~19 MiB and tens of ms of a core, so a burst
/// of sign-ins queues here rather than exhausting memory or starving other requests.
static HASHING: Semaphore = Semaphore::const_new(2);

async fn blocking<T: Send + 'static>(work: impl FnOnce() -> ApiResult<T> + Send + 'static) -> ApiResult<T> {
    let _permit = HASHING.acquire().await.map_err(|e| ApiError::Internal(format!("hashing: {e}")))?;
    tokio::task::spawn_blocking(work).await.map_err(|e| ApiError::Internal(format!("blocking task: {e}")))?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hashes_verify_and_the_decoy_parses() {
        let hash = hash_password("correct horse".into()).await.unwrap();
        assert!(hash.starts_with("$argon2id$"));
        assert!(verify_password("correct horse".into(), Some(hash.clone())).await.unwrap());
        assert!(!verify_password("wrong horse".into(), Some(hash)).await.unwrap());
        assert!(!verify_password("anything".into(), None).await.unwrap());
    }
}
