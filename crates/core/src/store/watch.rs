//! The watch log: every write the store makes, in resourceVersion order, for controllers to
//! consume from a cursor (the informer pattern). Entries name the object; readers fetch its
//! current state from the store, so the log stays small. Bounded like etcd's compaction.

use crate::api::Kind;
use crate::api::meta::Uid;
use crate::sim::time::SimTime;
use std::collections::VecDeque;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum WatchEventType {
    Added,
    Modified,
    Deleted,
}

impl WatchEventType {
    pub fn as_str(self) -> &'static str {
        match self {
            WatchEventType::Added => "ADDED",
            WatchEventType::Modified => "MODIFIED",
            WatchEventType::Deleted => "DELETED",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WatchEvent {
    pub resource_version: u64,
    pub time: SimTime,
    pub type_: WatchEventType,
    pub kind: Kind,
    pub namespace: String,
    pub name: String,
    pub uid: Uid,
    /// The object's controller (ownerReference with `controller: true`), so an informer can
    /// find the owner of an object that is already gone.
    pub controller: Option<(Kind, String)>,
}

/// Oldest entries are dropped beyond this many; a reader further behind must relist, as a
/// client does after `410 Gone` ("too old resource version").
pub const WATCH_LOG_CAPACITY: usize = 1 << 16;

#[derive(Clone, Debug, Default)]
pub struct WatchLog {
    events: VecDeque<WatchEvent>,
    /// The highest resourceVersion no longer held (0: nothing dropped yet).
    dropped_through: u64,
}

impl WatchLog {
    pub fn push(&mut self, event: WatchEvent) {
        if self.events.len() == WATCH_LOG_CAPACITY
            && let Some(dropped) = self.events.pop_front()
        {
            self.dropped_through = dropped.resource_version;
        }
        self.events.push_back(event);
    }

    /// Events with resourceVersion greater than `after`; `Err(oldest)` when `after` was compacted.
    pub fn since(&self, after: u64) -> Result<impl Iterator<Item = &WatchEvent>, u64> {
        if after < self.dropped_through {
            return Err(self.dropped_through + 1);
        }
        let start = self.events.partition_point(|e| e.resource_version <= after);
        Ok(self.events.range(start..))
    }

    pub fn len(&self) -> usize {
        self.events.len()
    }

    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    pub fn last_resource_version(&self) -> u64 {
        self.events.back().map_or(0, |e| e.resource_version)
    }

    /// Drops everything at or before `resource_version` (all readers are past it).
    pub fn compact(&mut self, resource_version: u64) {
        while self.events.front().is_some_and(|e| e.resource_version <= resource_version) {
            if let Some(dropped) = self.events.pop_front() {
                self.dropped_through = dropped.resource_version;
            }
        }
    }
}
