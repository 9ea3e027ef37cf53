//! A StatefulSet's revisions: each template it has had, kept as a ControllerRevision whose data
//! is the patch that restores it, so pods can be told apart by revision and a rollout undone.
//! Mirrors pkg/controller/statefulset/stateful_set_utils.go (`getPatch`, `newRevision`) and
//! stateful_set_control.go (`getStatefulSetRevisions`, `truncateHistory`); listing and
//! reading revisions is shared with the DaemonSet side in controllers/history.rs.

use super::identity::{self, controller_ref};
use crate::api::controller_revision::ControllerRevision;
use crate::api::{Pod, StatefulSet};
use crate::controllers::history;
use crate::error::ApiError;
use crate::store::{DeleteOptions, Store};
use serde_json::{Value, json};

/// `getPatch`: `{"spec":{"template":{…,"$patch":"replace"}}}`, the template as stored.
pub fn patch_of(set: &StatefulSet) -> Value {
    let mut template = crate::api::codec::to_value(&set.spec.template);
    if let Value::Object(fields) = &mut template {
        fields.insert("$patch".to_string(), json!("replace"));
    }
    json!({"spec": {"template": template}})
}

/// The current and update revisions and the collision count (`getStatefulSetRevisions`):
/// the set's template as a new revision unless one equal to it exists (the newest: nothing
/// changed; an older one: a rollback, which renumbers it).
pub fn current_and_update(
    store: &mut Store,
    set: &StatefulSet,
    revisions: &[ControllerRevision],
) -> Result<(ControllerRevision, ControllerRevision, i32), ApiError> {
    let mut collision_count = set.status.collision_count.unwrap_or(0);
    let labels = &set.spec.template.metadata.labels;
    let next = history::next_revision(revisions);
    let wanted = history::new_controller_revision(
        &set.metadata,
        controller_ref(set),
        labels,
        patch_of(set),
        next,
        Some(collision_count),
    );
    let equal = history::find_equal_revisions(revisions, &wanted);
    let update = match (equal.last(), revisions.last()) {
        (Some(found), Some(newest)) if history::equal_revision(newest, found) => newest.clone(),
        (Some(found), _) => {
            let mut renumbered = (*found).clone();
            renumbered.revision = next;
            store.update(renumbered)?
        }
        (None, _) => create_revision(store, set, next, &mut collision_count)?,
    };
    let current = revisions
        .iter()
        .find(|r| r.metadata.name == set.status.current_revision)
        .cloned()
        .unwrap_or_else(|| update.clone());
    Ok((current, update, collision_count))
}

/// `CreateControllerRevision`: a name taken by other data is a hash collision; count it and
/// hash again.
fn create_revision(
    store: &mut Store,
    set: &StatefulSet,
    number: i64,
    collision_count: &mut i32,
) -> Result<ControllerRevision, ApiError> {
    let labels = &set.spec.template.metadata.labels;
    loop {
        let revision = history::new_controller_revision(
            &set.metadata,
            controller_ref(set),
            labels,
            patch_of(set),
            number,
            Some(*collision_count),
        );
        let namespace = set.metadata.namespace.clone();
        match store.create(revision.clone()) {
            Ok(created) => return Ok(created),
            Err(ApiError::AlreadyExists { .. }) => {
                let existing = store.get::<ControllerRevision>(&namespace, &revision.metadata.name)?;
                if history::equal_revision(existing, &revision) {
                    return Ok(existing.clone());
                }
                *collision_count += 1;
            }
            Err(err) => return Err(err),
        }
    }
}

/// `truncateHistory`: beyond `revisionHistoryLimit`, the oldest revisions no pod and neither
/// the current nor the update revision use are deleted.
pub fn truncate_history(
    store: &mut Store,
    set: &StatefulSet,
    pods: &[&Pod],
    revisions: &[ControllerRevision],
    live: [&str; 2],
) {
    let in_use = |r: &ControllerRevision| {
        live.contains(&r.metadata.name.as_str()) || pods.iter().any(|p| identity::pod_revision(p) == r.metadata.name)
    };
    let history: Vec<&ControllerRevision> = revisions.iter().filter(|r| !in_use(r)).collect();
    let limit = set.spec.revision_history_limit.unwrap_or(10).max(0) as usize;
    let excess = history.len().saturating_sub(limit);
    for revision in &history[..excess] {
        let _ = store.delete::<ControllerRevision>(
            &set.metadata.namespace,
            &revision.metadata.name,
            &DeleteOptions::default(),
        );
    }
}
