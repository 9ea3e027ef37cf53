//! One dashboard build per class per change, shared by all the class's watchers: the first
//! watcher to ask after a change builds it, the others wait for that build and reuse it (ten
//! dashboards open on one class cost one set of queries per change, not ten).

use super::AppState;
use super::problem::ApiResult;
use kubelab_wire::Dashboard;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A build this recent is reused even without a change: watchers woken by the same refresh
/// tick share it.
const FRESH: Duration = Duration::from_secs(1);

/// Each (class, stuck-after) pair's latest build; a pair lives while someone watches it.
#[derive(Default)]
pub struct DashboardFeeds {
    feeds: Mutex<HashMap<(String, i64), Arc<ClassFeed>>>,
    builds: AtomicU64,
}

pub struct ClassFeed {
    class_id: String,
    stuck_after_ms: i64,
    latest: tokio::sync::Mutex<Option<Built>>,
}

struct Built {
    version: u64,
    at: Instant,
    dashboard: Arc<Dashboard>,
}

impl DashboardFeeds {
    pub fn subscribe(&self, class_id: &str, stuck_after_ms: i64) -> Arc<ClassFeed> {
        let mut feeds = self.feeds.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let feed = feeds.entry((class_id.to_string(), stuck_after_ms)).or_insert_with(|| {
            Arc::new(ClassFeed {
                class_id: class_id.to_string(),
                stuck_after_ms,
                latest: tokio::sync::Mutex::new(None),
            })
        });
        Arc::clone(feed)
    }

    /// The watcher is gone; the last one out forgets the feed.
    pub fn unsubscribe(&self, feed: Arc<ClassFeed>) {
        let mut feeds = self.feeds.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        // The map's handle and this one: no one else watches.
        if Arc::strong_count(&feed) <= 2 {
            feeds.remove(&(feed.class_id.clone(), feed.stuck_after_ms));
        }
    }

    /// Dashboards built so far (the tests count them).
    #[cfg(test)]
    pub fn builds(&self) -> u64 {
        self.builds.load(Ordering::Relaxed)
    }
}

impl ClassFeed {
    /// The dashboard as of the class's change counter `version`: the shared build when it is
    /// of this version and fresh, else a new one (others asking meanwhile wait for it).
    pub async fn current(&self, state: &AppState, version: u64) -> ApiResult<Arc<Dashboard>> {
        let mut latest = self.latest.lock().await;
        if let Some(built) = latest.as_ref().filter(|b| b.version >= version && b.at.elapsed() < FRESH) {
            return Ok(Arc::clone(&built.dashboard));
        }
        // Read before building: a change during the build ticks past it and is built next time.
        let version = version.max(*state.hub.watch_class(&self.class_id).borrow());
        let class = super::classes::class_by_id(&state.db, &self.class_id).await?;
        let online = state.hub.online(&self.class_id);
        let dashboard = Arc::new(super::dashboard_build::build(&state.db, class, &online, self.stuck_after_ms).await?);
        state.dashboards.builds.fetch_add(1, Ordering::Relaxed);
        *latest = Some(Built { version, at: Instant::now(), dashboard: Arc::clone(&dashboard) });
        Ok(dashboard)
    }
}
