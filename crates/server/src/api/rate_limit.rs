//! Write rate limits: a token bucket per session (or, before signing in, per client address),
//! refilled continuously. Reads are not limited; a write over the limit gets 429 with
//! `Retry-After`.

use super::AppState;
use super::problem::ApiError;
use super::session::session_token;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Buckets kept before full (idle) ones are forgotten.
const MAX_BUCKETS: usize = 50_000;

#[derive(Clone, Copy, Debug)]
pub struct Rate {
    pub per_second: f64,
    pub burst: f64,
}

struct Bucket {
    tokens: f64,
    at: Instant,
}

#[derive(Default)]
pub struct RateLimiter {
    buckets: Mutex<HashMap<String, Bucket>>,
}

impl RateLimiter {
    /// Takes one token from `key`'s bucket; `Err(seconds)` to wait when it is empty.
    pub fn take(&self, key: &str, rate: Rate, now: Instant) -> Result<(), u64> {
        let mut buckets = self.buckets.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if buckets.len() >= MAX_BUCKETS {
            buckets.retain(|_, b| b.tokens + now.duration_since(b.at).as_secs_f64() * rate.per_second < rate.burst);
        }
        let bucket = buckets.entry(key.to_string()).or_insert(Bucket { tokens: rate.burst, at: now });
        let refilled = bucket.tokens + now.duration_since(bucket.at).as_secs_f64() * rate.per_second;
        bucket.tokens = refilled.min(rate.burst);
        bucket.at = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            Err(((1.0 - bucket.tokens) / rate.per_second).ceil().max(1.0) as u64)
        }
    }
}

/// The middleware: limits POST, PUT, PATCH and DELETE; password attempts (signing up or in)
/// also draw on a much smaller bucket per address, against guessing.
pub async fn limit_writes(State(state): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    if matches!(*request.method(), Method::GET | Method::HEAD | Method::OPTIONS) {
        return next.run(request).await;
    }
    let peer = request.extensions().get::<ConnectInfo<SocketAddr>>().map(|info| info.0.ip().to_string());
    let address = format!("address:{}", peer.unwrap_or_default());
    let now = Instant::now();
    if matches!(request.uri().path(), "/session" | "/instructors")
        && let Err(retry_after_s) = state.rate.take(&format!("password:{address}"), state.limits.password_attempts, now)
    {
        return too_many("too many password attempts", retry_after_s);
    }
    let (key, rate) = match session_token(request.headers()) {
        Some(token) => (format!("session:{}", super::codes::token_hash(&token)), state.limits.session_writes),
        None => (address, state.limits.anonymous_writes),
    };
    match state.rate.take(&key, rate, now) {
        Ok(()) => next.run(request).await,
        Err(retry_after_s) => too_many("too many writes", retry_after_s),
    }
}

fn too_many(what: &str, retry_after_s: u64) -> Response {
    let detail = format!("{what}; try again in {retry_after_s} s");
    ApiError::TooManyRequests { detail, retry_after_s }.into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_burst_then_the_sustained_rate() {
        let limiter = RateLimiter::default();
        let rate = Rate { per_second: 2.0, burst: 3.0 };
        let start = Instant::now();
        for _ in 0..3 {
            assert!(limiter.take("s", rate, start).is_ok());
        }
        assert_eq!(limiter.take("s", rate, start), Err(1));
        assert!(limiter.take("other", rate, start).is_ok(), "buckets are per key");
        assert!(limiter.take("s", rate, start + Duration::from_millis(500)).is_ok(), "one token after 1/rate");
        assert!(limiter.take("s", rate, start + Duration::from_millis(500)).is_err());
    }
}
