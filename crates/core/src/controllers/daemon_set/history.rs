//! A DaemonSet's ControllerRevisions: the current one found or made, the old ones pruned to
//! `revisionHistoryLimit`. Mirrors pkg/controller/daemon/update.go (`constructHistory`,
//! `snapshot`, `getPatch`, `Match`, `cleanupHistory`).

use super::controller_ref;
use crate::api::{ControllerRevision, DaemonSet, Pod};
use crate::controllers::deployment::hash::compute_hash;
use crate::controllers::history::CONTROLLER_REVISION_HASH;
use crate::error::ApiError;
use crate::store::{DeleteOptions, Store};
use serde_json::{Value, json};

/// `getPatch`: the DaemonSet's template as a patch that replaces it whole.
pub fn patch(ds: &DaemonSet) -> Value {
    let mut template = crate::api::codec::to_value(&ds.spec.template);
    if let Some(map) = template.as_object_mut() {
        map.insert("$patch".to_string(), json!("replace"));
    }
    json!({"spec": {"template": template}})
}

/// `constructHistory`: the current revision's hash (made now if none matches the template) and
/// the other revisions. `None` when the revision could not be written (retried next sync).
pub fn construct_history(store: &mut Store, ds: &DaemonSet) -> Option<(String, Vec<ControllerRevision>)> {
    let wanted = patch(ds);
    let owned: Vec<ControllerRevision> = store
        .owned::<ControllerRevision>(ds.metadata.uid)
        .filter(|cr| cr.metadata.controller_ref().is_some_and(|r| r.uid == ds.metadata.uid))
        .cloned()
        .collect();
    let (mut current, old): (Vec<_>, Vec<_>) = owned.into_iter().partition(|cr| cr.data.as_ref() == Some(&wanted));
    let next = old.iter().map(|cr| cr.revision).max().unwrap_or(0) + 1;
    // Duplicates of the current revision (`dedupCurHistories`): the highest revision is kept.
    current.sort_by_key(|cr| std::cmp::Reverse(cr.revision));
    let current = match current.into_iter().next() {
        Some(mut cur) => {
            if cur.revision < next {
                cur.revision = next;
                cur = store.update(cur).ok()?;
            }
            cur
        }
        None => snapshot(store, ds, wanted, next).ok()?,
    };
    let hash = current.metadata.labels.get(CONTROLLER_REVISION_HASH).unwrap_or_default().to_string();
    Some((hash, old))
}

/// `snapshot`: a new revision named `<ds>-<hash>` carrying the template's labels, the
/// DaemonSet's annotations and the patch. A name already taken by another template counts a
/// collision, which moves the hash at the next sync.
fn snapshot(store: &mut Store, ds: &DaemonSet, data: Value, revision: i64) -> Result<ControllerRevision, ApiError> {
    let hash = compute_hash(&ds.spec.template, ds.status.collision_count);
    let mut labels = ds.spec.template.metadata.labels.clone();
    labels.insert(CONTROLLER_REVISION_HASH, hash.clone());
    let mut cr = ControllerRevision { data: Some(data), revision, ..Default::default() };
    cr.metadata.name = crate::controllers::history::controller_revision_name(&ds.metadata.name, &hash);
    cr.metadata.namespace = ds.metadata.namespace.clone();
    cr.metadata.labels = labels;
    cr.metadata.annotations = ds.metadata.annotations.clone();
    cr.metadata.owner_references = vec![controller_ref(ds)];
    match store.create(cr.clone()) {
        Err(ApiError::AlreadyExists { .. }) => {
            let existing = store.get::<ControllerRevision>(&cr.metadata.namespace, &cr.metadata.name)?.clone();
            let ours = existing.metadata.controller_ref().is_some_and(|r| r.uid == ds.metadata.uid);
            if ours && existing.data == cr.data {
                return Ok(existing);
            }
            let mut bumped = ds.clone();
            bumped.status.collision_count = Some(ds.status.collision_count.unwrap_or(0) + 1);
            store.update_status(bumped)?;
            Err(ApiError::AlreadyExists { resource: "controllerrevisions.apps".into(), name: cr.metadata.name })
        }
        other => other,
    }
}

/// `cleanupHistory`: the oldest revisions beyond `revisionHistoryLimit` deleted, except those
/// some pod still runs.
pub fn cleanup_history(store: &mut Store, ds: &DaemonSet, mut old: Vec<ControllerRevision>) {
    let keep = ds.spec.revision_history_limit.unwrap_or(10).max(0) as usize;
    let mut to_kill = old.len().saturating_sub(keep);
    if to_kill == 0 {
        return;
    }
    let live: Vec<String> = store
        .owned::<Pod>(ds.metadata.uid)
        .filter_map(|p| p.metadata.labels.get(CONTROLLER_REVISION_HASH).map(str::to_string))
        .collect();
    old.sort_by_key(|cr| cr.revision);
    for cr in old {
        if to_kill == 0 {
            break;
        }
        if cr.metadata.labels.get(CONTROLLER_REVISION_HASH).is_some_and(|h| live.iter().any(|l| l == h)) {
            continue;
        }
        let _ =
            store.delete::<ControllerRevision>(&cr.metadata.namespace, &cr.metadata.name, &DeleteOptions::default());
        to_kill -= 1;
    }
}
