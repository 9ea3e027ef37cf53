//! Write rate limits: token buckets, refilled continuously. Every write draws on its client
//! address's bucket (`client_address`) and on its caller's: the signed-in person's (by user
//! id, so a new session is not a new bucket) or, before signing in, the address's anonymous
//! one. Password attempts also draw per address; sign-ins per account are delayed, never
//! refused (`delay`), so guessing one account is slow and its owner is never locked out.
//! Reads are not limited; a write over the limit gets 429 with `Retry-After`.

use super::AppState;
use super::problem::ApiError;
use super::session::{self, LookedUp};
use axum::extract::{ConnectInfo, Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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
    /// Its own rate: the sweep judges each bucket by the rate that fills it.
    rate: Rate,
}

impl Bucket {
    fn refilled(&self, now: Instant) -> f64 {
        (self.tokens + now.duration_since(self.at).as_secs_f64() * self.rate.per_second).min(self.rate.burst)
    }
}

pub struct RateLimiter {
    buckets: Mutex<HashMap<String, Bucket>>,
    sweep_at: usize,
}

impl Default for RateLimiter {
    fn default() -> RateLimiter {
        RateLimiter::sweeping_at(MAX_BUCKETS)
    }
}

impl RateLimiter {
    /// A limiter that forgets full buckets once it holds `buckets` of them.
    pub fn sweeping_at(buckets: usize) -> RateLimiter {
        RateLimiter { buckets: Mutex::new(HashMap::new()), sweep_at: buckets }
    }

    /// Takes one token from `key`'s bucket; `Err(seconds)` to wait when it is empty.
    pub fn take(&self, key: &str, rate: Rate, now: Instant) -> Result<(), u64> {
        self.with_bucket(key, rate, now, |bucket| {
            if bucket.tokens >= 1.0 {
                bucket.tokens -= 1.0;
                Ok(())
            } else {
                Err(((1.0 - bucket.tokens) / rate.per_second).ceil().max(1.0) as u64)
            }
        })
    }

    /// Takes one token, going into debt when there is none: returns how long the caller
    /// should wait for it (at most `most`; the debt never grows past one burst).
    pub fn delay(&self, key: &str, rate: Rate, now: Instant, most: Duration) -> Duration {
        self.with_bucket(key, rate, now, |bucket| {
            bucket.tokens = (bucket.tokens - 1.0).max(-rate.burst);
            let wait = if bucket.tokens >= 0.0 { 0.0 } else { -bucket.tokens / rate.per_second };
            Duration::from_secs_f64(wait).min(most)
        })
    }

    fn with_bucket<R>(&self, key: &str, rate: Rate, now: Instant, f: impl FnOnce(&mut Bucket) -> R) -> R {
        let mut buckets = self.buckets.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if buckets.len() >= self.sweep_at {
            // Only full buckets go: forgetting one that is not would hand its owner a new burst.
            buckets.retain(|_, bucket| bucket.refilled(now) < bucket.rate.burst);
        }
        let bucket = buckets.entry(key.to_string()).or_insert(Bucket { tokens: rate.burst, at: now, rate });
        bucket.tokens = bucket.refilled(now);
        bucket.at = now;
        bucket.rate = rate;
        f(bucket)
    }
}

/// The middleware: limits POST, PUT, PATCH and DELETE by address and by caller, and password
/// attempts (signing up or in) by address on a much smaller bucket. The caller it looks up is
/// handed to the handler, so a write reads its session once.
pub async fn limit_writes(State(state): State<Arc<AppState>>, mut request: Request, next: Next) -> Response {
    if matches!(*request.method(), Method::GET | Method::HEAD | Method::OPTIONS) {
        return next.run(request).await;
    }
    let peer = request.extensions().get::<ConnectInfo<SocketAddr>>().map(|info| info.0.ip());
    let address = super::client_address::client_key(peer, request.headers(), &state.limits.trusted_proxies);
    let now = Instant::now();
    let limits = &state.limits;
    if let Err(retry_after_s) = state.rate.take(&format!("address:{address}"), limits.address_writes, now) {
        return too_many("too many writes from this address", retry_after_s);
    }
    if matches!(request.uri().path(), "/session" | "/instructors")
        && let Err(retry_after_s) = state.rate.take(&format!("password:{address}"), limits.password_attempts, now)
    {
        return too_many("too many password attempts", retry_after_s);
    }
    let caller = match session::optional_caller(&state.db, request.headers()).await {
        Ok(caller) => caller,
        Err(error) => return error.into_response(),
    };
    let (key, rate) = match &caller {
        Some(caller) => (format!("user:{}", caller.me.id), limits.session_writes),
        None => (format!("anonymous:{address}"), limits.anonymous_writes),
    };
    if let Err(retry_after_s) = state.rate.take(&key, rate, now) {
        return too_many("too many writes", retry_after_s);
    }
    request.extensions_mut().insert(LookedUp(caller));
    next.run(request).await
}

fn too_many(what: &str, retry_after_s: u64) -> Response {
    let detail = format!("{what}; try again in {retry_after_s} s");
    ApiError::TooManyRequests { detail, retry_after_s }.into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn the_sweep_keeps_an_emptied_slow_bucket_among_fast_full_ones() {
        let limiter = RateLimiter::sweeping_at(1000);
        let (slow, fast) = (Rate { per_second: 0.2, burst: 20.0 }, Rate { per_second: 20.0, burst: 40.0 });
        let start = Instant::now();
        while limiter.take("password:a", slow, start).is_ok() {}
        for n in 0..1000 {
            assert!(limiter.take(&format!("user:{n}"), fast, start).is_ok());
        }
        // Two seconds on, the fast buckets are full again and go; the slow one has refilled
        // 0.4 of a token and must stay empty (judged at 20/s it looked full and was forgotten).
        let later = start + Duration::from_secs(2);
        assert!(limiter.take("user:new", fast, later).is_ok(), "the sweep ran");
        assert!(limiter.buckets.lock().unwrap().len() < 10, "full buckets were forgotten");
        assert_eq!(limiter.take("password:a", slow, later), Err(3));
    }

    #[test]
    fn a_delay_grows_with_the_debt_and_is_capped() {
        let limiter = RateLimiter::default();
        let rate = Rate { per_second: 1.0, burst: 2.0 };
        let (start, most) = (Instant::now(), Duration::from_secs(10));
        let delays: Vec<u64> = (0..6).map(|_| limiter.delay("account", rate, start, most).as_secs()).collect();
        assert_eq!(delays, [0, 0, 1, 2, 2, 2], "two free, then waits up to one burst of debt");
        assert_eq!(limiter.delay("account", rate, start, Duration::from_millis(1500)).as_millis(), 1500);
    }
}
