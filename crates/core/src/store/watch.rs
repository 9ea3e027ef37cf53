//! The watch log: every write the store makes, in resourceVersion order, for controllers to
//! consume from a cursor (the informer pattern). Entries name the object; readers fetch its
//! current state from the store, so the log stays small. Bounded like etcd's compaction.

use crate::api::Kind;
use crate::api::meta::Uid;
use crate::sim::time::SimTime;
use crate::store::user::UserInfo;
use std::collections::VecDeque;
use std::sync::Arc;

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
    /// Who made the write (the request's user): the audit trail's "who".
    pub user: Arc<UserInfo>,
}

/// Oldest entries are dropped beyond this many; a reader further behind must relist, as a
/// client does after `410 Gone` ("too old resource version").
pub const WATCH_LOG_CAPACITY: usize = 1 << 16;

#[derive(Clone, Debug)]
pub struct WatchLog {
    events: VecDeque<WatchEvent>,
    /// The highest resourceVersion no longer held (0: nothing dropped yet).
    dropped_through: u64,
    capacity: usize,
}

impl Default for WatchLog {
    fn default() -> Self {
        WatchLog { events: VecDeque::new(), dropped_through: 0, capacity: WATCH_LOG_CAPACITY }
    }
}

impl WatchLog {
    pub fn push(&mut self, event: WatchEvent) {
        while self.events.len() >= self.capacity
            && let Some(dropped) = self.events.pop_front()
        {
            self.dropped_through = dropped.resource_version;
        }
        self.events.push_back(event);
    }

    /// Keeps at most `capacity` entries from now on (at least one). Tests shrink the log to a
    /// handful so that every reader falls behind and has to relist.
    pub fn set_capacity(&mut self, capacity: usize) {
        self.capacity = capacity.max(1);
    }

    /// Events with resourceVersion greater than `after`; `Err(oldest)` when `after` was compacted.
    /// Read it through a `runtime::informer::Informer`, which relists on `Err`.
    pub fn since(&self, after: u64) -> Result<std::collections::vec_deque::Iter<'_, WatchEvent>, u64> {
        if after < self.dropped_through {
            return Err(self.dropped_through + 1);
        }
        let start = self.events.partition_point(|e| e.resource_version <= after);
        Ok(self.events.range(start..))
    }

    /// Every entry held, oldest first (read from the back for the newest).
    pub fn entries(&self) -> impl DoubleEndedIterator<Item = &WatchEvent> {
        self.events.iter()
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

/// Object states kept for open `kubectl get --watch` streams: the object as each write left
/// it, for the kinds someone watches (a watch event carries its object; the log above only
/// names it). Kept only while a stream is open, and bounded.
#[derive(Clone, Debug, Default)]
pub struct Snapshots {
    streams: std::collections::BTreeMap<Kind, usize>,
    states: VecDeque<(u64, crate::api::Object)>,
}

/// Oldest states are dropped beyond this many; a stream that far behind prints current states.
pub const SNAPSHOT_CAPACITY: usize = 4096;

impl Snapshots {
    /// A stream of `kind` opens: keep that kind's states from now on.
    pub fn open(&mut self, kind: Kind) {
        *self.streams.entry(kind).or_default() += 1;
    }

    /// A stream of `kind` closes; with none left, its states go.
    pub fn close(&mut self, kind: Kind) {
        if let Some(count) = self.streams.get_mut(&kind) {
            *count -= 1;
            if *count == 0 {
                self.streams.remove(&kind);
                self.states.retain(|(_, object)| object.kind() != kind);
            }
        }
    }

    pub fn wants(&self, kind: Kind) -> bool {
        self.streams.contains_key(&kind)
    }

    pub fn push(&mut self, resource_version: u64, object: crate::api::Object) {
        if self.states.len() == SNAPSHOT_CAPACITY {
            self.states.pop_front();
        }
        self.states.push_back((resource_version, object));
    }

    /// The object as the write with this resourceVersion left it (a deletion: as it last was).
    pub fn at(&self, resource_version: u64) -> Option<&crate::api::Object> {
        let at = self.states.partition_point(|(rv, _)| *rv < resource_version);
        self.states.get(at).filter(|(rv, _)| *rv == resource_version).map(|(_, object)| object)
    }
}
