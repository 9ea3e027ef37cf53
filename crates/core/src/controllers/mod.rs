//! Controllers: level-triggered loops that read the store and write through it. Each keeps a
//! cursor into the watch log (its informer) and is told *that* something changed, never why.

pub mod garbage_collector;
pub mod namespace;

use crate::store::Store;

/// Every controller the simulation runs, in the order each pass visits them.
#[derive(Clone, Debug, Default)]
pub struct Controllers {
    pub garbage_collector: garbage_collector::GarbageCollector,
    pub namespace: namespace::NamespaceController,
}

impl Controllers {
    /// One pass over every controller; returns true if any of them wrote to the store.
    pub fn run_once(&mut self, store: &mut Store) -> bool {
        let before = store.resource_version();
        self.garbage_collector.sync(store);
        self.namespace.sync(store);
        store.resource_version() != before
    }
}
