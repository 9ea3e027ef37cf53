//! Who is connected, live: per class, a version that ticks on every change the dashboard shows
//! (its watchers re-read on the tick, so bursts coalesce), and each learner's WebSocket send
//! queues. Queues are bounded: a learner whose queue is full is disconnected, never buffered
//! without end.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;
use tokio::sync::{mpsc, watch};

/// Messages a learner's socket may have waiting before the learner counts as too slow.
pub const LEARNER_QUEUE: usize = 32;

#[derive(Default)]
pub struct Hub {
    classes: Mutex<HashMap<String, ClassLive>>,
    next_connection: Mutex<u64>,
}

struct ClassLive {
    version: watch::Sender<u64>,
    /// learner id → that learner's open sockets (a learner may use two devices).
    learners: HashMap<String, Vec<(u64, mpsc::Sender<String>)>>,
}

impl ClassLive {
    fn new() -> ClassLive {
        ClassLive { version: watch::channel(0).0, learners: HashMap::new() }
    }

    fn tick(&self) {
        self.version.send_modify(|version| *version += 1);
    }
}

/// One learner's live connection; dropping it is not enough, call `Hub::disconnect`.
pub struct LearnerConnection {
    pub id: u64,
    pub messages: mpsc::Receiver<String>,
}

impl Hub {
    fn with_class<R>(&self, class_id: &str, f: impl FnOnce(&mut ClassLive) -> R) -> R {
        let mut classes = self.classes.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        f(classes.entry(class_id.to_string()).or_insert_with(ClassLive::new))
    }

    /// Something in the class changed (progress, a learner joined, connected or left).
    pub fn class_changed(&self, class_id: &str) {
        self.with_class(class_id, |class| class.tick());
    }

    /// A receiver whose value ticks on every change in the class.
    pub fn watch_class(&self, class_id: &str) -> watch::Receiver<u64> {
        self.with_class(class_id, |class| class.version.subscribe())
    }

    pub fn connect_learner(&self, class_id: &str, learner_id: &str) -> LearnerConnection {
        let id = {
            let mut next = self.next_connection.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            *next += 1;
            *next
        };
        let (sender, messages) = mpsc::channel(LEARNER_QUEUE);
        self.with_class(class_id, |class| {
            class.learners.entry(learner_id.to_string()).or_default().push((id, sender));
            class.tick();
        });
        LearnerConnection { id, messages }
    }

    pub fn disconnect_learner(&self, class_id: &str, learner_id: &str, connection: u64) {
        self.with_class(class_id, |class| {
            if let Some(sockets) = class.learners.get_mut(learner_id) {
                sockets.retain(|(id, _)| *id != connection);
                if sockets.is_empty() {
                    class.learners.remove(learner_id);
                }
            }
            class.tick();
        });
    }

    /// How many sockets the learner has open.
    pub fn sockets_of(&self, class_id: &str, learner_id: &str) -> usize {
        self.with_class(class_id, |class| class.learners.get(learner_id).map_or(0, Vec::len))
    }

    /// Learners with at least one open socket.
    pub fn online(&self, class_id: &str) -> HashSet<String> {
        self.with_class(class_id, |class| class.learners.keys().cloned().collect())
    }

    /// Queues a message for every connected learner of the class; returns how many learners
    /// got it. A socket whose queue is full is dropped from the hub (its task then closes it).
    pub fn broadcast(&self, class_id: &str, message: &str) -> usize {
        self.with_class(class_id, |class| {
            let mut delivered = 0;
            for sockets in class.learners.values_mut() {
                let before = sockets.len();
                sockets.retain(|(_, sender)| sender.try_send(message.to_string()).is_ok());
                delivered += usize::from(!sockets.is_empty());
                if sockets.len() != before {
                    class.version.send_modify(|version| *version += 1);
                }
            }
            class.learners.retain(|_, sockets| !sockets.is_empty());
            delivered
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broadcasts_reach_every_connected_learner_once() {
        let hub = Hub::default();
        let mut ada_phone = hub.connect_learner("c1", "ada");
        let mut ada_laptop = hub.connect_learner("c1", "ada");
        let mut bob = hub.connect_learner("c1", "bob");
        let _other_class = hub.connect_learner("c2", "eve");
        assert_eq!(hub.broadcast("c1", "fault"), 2, "two learners, three sockets");
        for connection in [&mut ada_phone, &mut ada_laptop, &mut bob] {
            assert_eq!(connection.messages.try_recv().unwrap(), "fault");
        }
        hub.disconnect_learner("c1", "bob", bob.id);
        assert_eq!(hub.online("c1"), HashSet::from(["ada".to_string()]));
    }

    #[test]
    fn a_learner_who_stops_reading_is_dropped_not_buffered() {
        let hub = Hub::default();
        let mut slow = hub.connect_learner("c1", "slow");
        for _ in 0..LEARNER_QUEUE {
            assert_eq!(hub.broadcast("c1", "x"), 1);
        }
        assert_eq!(hub.broadcast("c1", "one too many"), 0);
        assert!(hub.online("c1").is_empty());
        let mut drained = 0;
        while slow.messages.try_recv().is_ok() {
            drained += 1;
        }
        assert_eq!(drained, LEARNER_QUEUE);
    }

    #[test]
    fn changes_tick_the_class_version() {
        let hub = Hub::default();
        let watcher = hub.watch_class("c1");
        hub.class_changed("c1");
        hub.class_changed("c1");
        assert_eq!(*watcher.borrow(), 2);
    }
}
