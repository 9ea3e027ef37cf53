//! The ControllerRevisions an owner controls, read from the store: the StatefulSet controller's
//! and kubectl's rollout history and undo read the same list. Apart from `history.rs`, which the
//! store's own validation reads, so that the store is not imported back.

use super::history::sort_controller_revisions;
use crate::api::controller_revision::ControllerRevision;
use crate::api::meta::Uid;
use crate::store::Store;

/// The revisions `owner` controls, oldest first (`ListControllerRevisions` filtered by
/// controller, as both controllers and kubectl's `controlledHistoryV1` do).
pub fn controlled_revisions(store: &Store, owner: Uid) -> Vec<ControllerRevision> {
    let mut revisions: Vec<ControllerRevision> = store
        .owned::<ControllerRevision>(owner)
        .filter(|r| r.metadata.controller_ref().is_some_and(|o| o.uid == owner))
        .cloned()
        .collect();
    sort_controller_revisions(&mut revisions);
    revisions
}
