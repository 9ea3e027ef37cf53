//! Who is calling: the `kubelab_session` cookie, looked up by its hash, gives a `Caller`
//! (an instructor or a learner). Starting a session sets the cookie and keeps at most
//! `MAX_SESSIONS_PER_USER` per person, signing out the oldest.

use super::codes;
use super::problem::{ApiError, ApiResult};
use crate::api::AppState;
use crate::db::{Db, now_ms};
use axum::extract::FromRequestParts;
use axum::http::header::{COOKIE, SET_COOKIE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue};
use serde::Serialize;
use std::sync::Arc;

pub const COOKIE_NAME: &str = "kubelab_session";
/// The name over HTTPS: browsers keep a `__Host-` cookie only if it is `Secure`, for this
/// host alone, on every path, so no other subdomain and no plain-HTTP page can plant or read it.
pub const SECURE_COOKIE_NAME: &str = "__Host-kubelab_session";
pub const MAX_SESSIONS_PER_USER: i64 = 10;
/// Sessions last 30 days, like the cookie.
const SESSION_TTL_MS: i64 = 30 * 24 * 3600 * 1000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Instructor,
    Learner,
}

/// A signed-in person, as `GET /api/me` shows them.
#[derive(Clone, Debug, Serialize)]
pub struct Me {
    pub role: Role,
    pub id: String,
    pub display_name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub class_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub class_name: Option<String>,
    /// Only in the answer that made it (joining, or `POST /api/me/resume-code`): the server
    /// keeps its hash, so it cannot show it again.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resume_code: Option<String>,
}

/// The caller of a request that needs a session; the extractor answers 401 without one.
#[derive(Clone, Debug)]
pub struct Caller {
    pub me: Me,
    pub token_hash: String,
}

impl Caller {
    pub fn instructor(&self, doing: &str) -> ApiResult<&Me> {
        match self.me.role {
            Role::Instructor => Ok(&self.me),
            Role::Learner => Err(ApiError::Forbidden(format!("only instructors can {doing}"))),
        }
    }

    /// The learner and their class id.
    pub fn learner(&self, doing: &str) -> ApiResult<(&Me, &str)> {
        match (self.me.role, self.me.class_id.as_deref()) {
            (Role::Learner, Some(class_id)) => Ok((&self.me, class_id)),
            _ => Err(ApiError::Forbidden(format!("only learners in a class can {doing}"))),
        }
    }
}

/// The caller a middleware already found for this request (or `None`: no live session),
/// handed to the `Caller` extractor in the request's extensions so a write reads its session once.
#[derive(Clone)]
pub struct LookedUp(pub Option<Caller>);

impl FromRequestParts<Arc<AppState>> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &Arc<AppState>) -> Result<Caller, ApiError> {
        let not_signed_in = || ApiError::Unauthorized("sign in first: this needs a kubelab session".into());
        // A write's caller was looked up by the rate limiter already.
        if let Some(LookedUp(caller)) = parts.extensions.get() {
            return caller.clone().ok_or_else(not_signed_in);
        }
        optional_caller(&state.db, &parts.headers).await?.ok_or_else(not_signed_in)
    }
}

/// The caller when the request carries a live session, else `None` (no error).
pub async fn optional_caller(db: &Db, headers: &HeaderMap) -> ApiResult<Option<Caller>> {
    let Some(token) = session_token(headers) else { return Ok(None) };
    let token_hash = codes::token_hash(&token);
    Ok(lookup(db, &token_hash).await?.map(|me| Caller { me, token_hash }))
}

/// The session cookie's value, if the request carries one.
pub fn session_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == SECURE_COOKIE_NAME || *name == COOKIE_NAME)
        .map(|(_, value)| value.to_string())
        .filter(|value| !value.is_empty())
}

type MeRow = (String, String, String, Option<String>, Option<String>, Option<String>, Option<String>);

async fn lookup(db: &Db, token_hash: &str) -> ApiResult<Option<Me>> {
    let row: Option<MeRow> = sqlx::query_as(
        "SELECT u.id, u.role, u.display_name, u.email, u.class_id, c.name, NULL
         FROM sessions s JOIN users u ON u.id = s.user_id LEFT JOIN classes c ON c.id = u.class_id
         WHERE s.token_hash = $1 AND s.created_at > $2",
    )
    .bind(token_hash)
    .bind(now_ms() - SESSION_TTL_MS)
    .fetch_optional(&db.pool)
    .await?;
    Ok(row.map(me_of))
}

/// A `users` row (joined with its class's name) as `Me`.
fn me_of((id, role, display_name, email, class_id, class_name, resume_code): MeRow) -> Me {
    let role = if role == "instructor" { Role::Instructor } else { Role::Learner };
    Me { role, id, display_name, email, class_id, class_name, resume_code }
}

/// Loads a person by id, as `Me`.
pub async fn me_by_id(db: &Db, user_id: &str) -> ApiResult<Me> {
    let row: Option<MeRow> = sqlx::query_as(
        "SELECT u.id, u.role, u.display_name, u.email, u.class_id, c.name, NULL
         FROM users u LEFT JOIN classes c ON c.id = u.class_id WHERE u.id = $1",
    )
    .bind(user_id)
    .fetch_optional(&db.pool)
    .await?;
    row.map(me_of).ok_or_else(|| ApiError::Internal(format!("user {user_id} vanished")))
}

/// Whether the browser reached the server over HTTPS: the server speaks it (`--tls-cert`), or
/// a trusted proxy says so with `X-Forwarded-Proto: https` (TLS ends at the proxy). The
/// session cookie is then `Secure`.
#[derive(Clone, Copy, Debug)]
pub struct Https(pub bool);

impl FromRequestParts<Arc<AppState>> for Https {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &Arc<AppState>) -> Result<Https, ApiError> {
        let peer = parts.extensions.get::<axum::extract::ConnectInfo<std::net::SocketAddr>>().map(|info| info.0.ip());
        let from_proxy = peer.is_some_and(|peer| state.limits.trusted_proxies.contains(&peer));
        let proto = parts.headers.get("x-forwarded-proto").and_then(|v| v.to_str().ok());
        let forwarded_https = from_proxy && proto.is_some_and(|proto| proto.eq_ignore_ascii_case("https"));
        Ok(Https(state.limits.https || forwarded_https))
    }
}

/// The `Set-Cookie` value for a session token (an empty token and no age clear it).
fn cookie(https: Https, token: &str, max_age: i64) -> ApiResult<HeaderValue> {
    let cookie = match https.0 {
        true => format!("{SECURE_COOKIE_NAME}={token}; Secure; HttpOnly; SameSite=Strict; Path=/; Max-Age={max_age}"),
        false => format!("{COOKIE_NAME}={token}; HttpOnly; SameSite=Strict; Path=/; Max-Age={max_age}"),
    };
    HeaderValue::from_str(&cookie).map_err(|e| ApiError::Internal(format!("cookie: {e}")))
}

/// Starts a session for the user; returns the `Set-Cookie` header value.
pub async fn start(db: &Db, user_id: &str, https: Https) -> ApiResult<HeaderValue> {
    let token = codes::new_session_token();
    let now = now_ms();
    sqlx::query("INSERT INTO sessions (token_hash, user_id, created_at) VALUES ($1, $2, $3)")
        .bind(codes::token_hash(&token))
        .bind(user_id)
        .bind(now)
        .execute(&db.pool)
        .await?;
    // Expired sessions of anyone go too: they no longer sign anyone in, and would only grow the
    // table (sign-ins are rate-limited, so this runs at most that often).
    sqlx::query("DELETE FROM sessions WHERE created_at <= $1").bind(now - SESSION_TTL_MS).execute(&db.pool).await?;
    // The cap: everything but the newest MAX_SESSIONS_PER_USER goes.
    sqlx::query(
        "DELETE FROM sessions WHERE user_id = $1 AND token_hash NOT IN (
            SELECT token_hash FROM sessions WHERE user_id = $2 ORDER BY created_at DESC, token_hash LIMIT $3)",
    )
    .bind(user_id)
    .bind(user_id)
    .bind(MAX_SESSIONS_PER_USER)
    .execute(&db.pool)
    .await?;
    cookie(https, &token, SESSION_TTL_MS / 1000)
}

/// Ends the caller's session; returns the `Set-Cookie` that clears the cookie.
pub async fn end(db: &Db, caller: &Caller, https: Https) -> ApiResult<HeaderValue> {
    sqlx::query("DELETE FROM sessions WHERE token_hash = $1").bind(&caller.token_hash).execute(&db.pool).await?;
    cookie(https, "", 0)
}

/// A response header map holding just the cookie.
pub fn set_cookie(value: HeaderValue) -> [(axum::http::HeaderName, HeaderValue); 1] {
    [(SET_COOKIE, value)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_session_cookie_among_others() {
        let mut headers = HeaderMap::new();
        headers.append(COOKIE, HeaderValue::from_static("theme=dark; kubelab_session=abc123"));
        assert_eq!(session_token(&headers).as_deref(), Some("abc123"));
        headers.clear();
        headers.append(COOKIE, HeaderValue::from_static("kubelab_session="));
        assert_eq!(session_token(&headers), None);
    }

    #[tokio::test]
    async fn a_sign_in_sweeps_every_expired_session() {
        let dir = std::env::temp_dir().join(format!("kubelab-sessions-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let db = Db::open(&format!("sqlite://{}/s.db", dir.display())).await.unwrap();
        let insert = "INSERT INTO sessions (token_hash, user_id, created_at) VALUES ($1, $2, $3)";
        let expired = now_ms() - SESSION_TTL_MS - 1;
        for (hash, at) in [("old", expired), ("recent", now_ms() - 1000)] {
            sqlx::query(insert).bind(hash).bind("someone-else").bind(at).execute(&db.pool).await.unwrap();
        }
        start(&db, "me", Https(false)).await.unwrap();
        let left: Vec<(String,)> =
            sqlx::query_as("SELECT user_id FROM sessions ORDER BY user_id").fetch_all(&db.pool).await.unwrap();
        assert_eq!(left, [("me".to_string(),), ("someone-else".to_string(),)], "the expired one is gone");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
