//! The learner's progress events waiting to reach the server, in order. Plain data: the sender
//! (`progress_sync`) takes the front, and acknowledges it, drops it (refused for good) or backs
//! off (try again later). An id already queued or sent is not queued again, and the queue is
//! bounded: past its limit the oldest waiting event is dropped.

use kubelab_wire::ProgressEvent;
use std::collections::{BTreeSet, VecDeque};

/// The most events waiting (a learner offline for a whole lesson makes a few dozen).
const QUEUE_LIMIT: usize = 500;
/// The first and the longest wait before retrying after a failure.
const FIRST_RETRY_MS: u32 = 1_000;
const LONGEST_RETRY_MS: u32 = 60_000;

#[derive(Debug, Default)]
pub struct ProgressQueue {
    waiting: VecDeque<ProgressEvent>,
    /// Ids queued or sent this page load, so a repeated event is not even queued.
    known: BTreeSet<String>,
    failures: u32,
}

impl ProgressQueue {
    /// Queues an event; false when its id was seen already.
    pub fn push(&mut self, event: ProgressEvent) -> bool {
        if !self.known.insert(event.id.clone()) {
            return false;
        }
        if self.waiting.len() == QUEUE_LIMIT {
            self.waiting.pop_front();
        }
        self.waiting.push_back(event);
        true
    }

    /// Marks ids the server already has (from `GET /api/progress`), so they are not resent.
    pub fn remember(&mut self, ids: impl IntoIterator<Item = String>) {
        self.known.extend(ids);
    }

    /// The event to send next.
    pub fn front(&self) -> Option<&ProgressEvent> {
        self.waiting.front()
    }

    /// The front event reached the server (or was refused for good): send the next one.
    pub fn pop_front(&mut self) {
        self.waiting.pop_front();
        self.failures = 0;
    }

    /// The front event could not be sent now; returns how long to wait before trying again.
    pub fn back_off(&mut self) -> u32 {
        let delay = FIRST_RETRY_MS.saturating_mul(1u32 << self.failures.min(16)).min(LONGEST_RETRY_MS);
        self.failures = self.failures.saturating_add(1);
        delay
    }

    pub fn len(&self) -> usize {
        self.waiting.len()
    }

    pub fn is_empty(&self) -> bool {
        self.waiting.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learner::progress_event::{ProgressKind, event};

    fn opened(step: usize) -> ProgressEvent {
        event("pods", step, ProgressKind::StepOpened, None, None)
    }

    #[test]
    fn sends_in_order_and_never_queues_an_id_twice() {
        let mut queue = ProgressQueue::default();
        assert!(queue.push(opened(0)));
        assert!(queue.push(opened(1)));
        assert!(!queue.push(opened(0)));
        assert_eq!(queue.front().unwrap().step, 0);
        queue.pop_front();
        assert!(!queue.push(opened(0)), "a sent id stays known");
        assert_eq!(queue.front().unwrap().step, 1);
        queue.remember(["pods:5:step_opened".to_string()]);
        assert!(!queue.push(opened(5)));
    }

    #[test]
    fn failures_back_off_until_a_success() {
        let mut queue = ProgressQueue::default();
        queue.push(opened(0));
        assert_eq!([queue.back_off(), queue.back_off(), queue.back_off()], [1_000, 2_000, 4_000]);
        for _ in 0..20 {
            queue.back_off();
        }
        assert_eq!(queue.back_off(), 60_000);
        queue.pop_front();
        queue.push(opened(1));
        assert_eq!(queue.back_off(), 1_000);
    }

    #[test]
    fn is_bounded() {
        let mut queue = ProgressQueue::default();
        for step in 0..QUEUE_LIMIT + 10 {
            queue.push(opened(step));
        }
        assert_eq!(queue.len(), QUEUE_LIMIT);
        assert_eq!(queue.front().unwrap().step, 10);
    }
}
