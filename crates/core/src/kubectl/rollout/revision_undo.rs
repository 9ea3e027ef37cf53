//! `kubectl rollout undo` for the kinds whose history is ControllerRevisions: a DaemonSet or a
//! StatefulSet. Mirrors `DaemonSetRollbacker` and `StatefulSetRollbacker` in
//! staging/src/k8s.io/kubectl/pkg/polymorphichelpers/rollback.go, which differ only in type.

use super::TemplateOf;
use super::undo::{revision_not_found, warn_last_applied};
use crate::api::controller_revision::ControllerRevision;
use crate::api::{DaemonSet, Kind, StatefulSet};
use crate::controllers::{controlled_revisions, history};
use crate::kubectl::Context;
use crate::kubectl::output::Output;
use crate::store::Stored;

/// Rolls back the named DaemonSet or StatefulSet: `rolled back` or `skipped rollback (…)`.
/// `None` when it is another kind or does not exist (the caller reports either).
pub fn rollback(
    ctx: &mut Context<'_>,
    (kind, namespace, name): (Kind, &str, &str),
    to_revision: i64,
    out: &mut Output,
) -> Option<Result<String, String>> {
    match kind {
        Kind::DaemonSet => {
            let ds = ctx.sim.store().try_get::<DaemonSet>(namespace, name)?.clone();
            Some(rollback_object(ctx, ds, |ds| &mut ds.spec.template, to_revision, out))
        }
        Kind::StatefulSet => {
            let set = ctx.sim.store().try_get::<StatefulSet>(namespace, name)?.clone();
            Some(rollback_object(ctx, set, |set| &mut set.spec.template, to_revision, out))
        }
        _ => None,
    }
}

/// Upstream `Rollback` of both: the revision's patch (the whole template, `$patch: replace`)
/// applied to the object, or skipped when its template already is that revision's.
fn rollback_object<T: Stored>(
    ctx: &mut Context<'_>,
    mut object: T,
    template_of: TemplateOf<T>,
    to_revision: i64,
    out: &mut Output,
) -> Result<String, String> {
    if to_revision < 0 {
        return Err(revision_not_found(to_revision));
    }
    let owned = controlled_revisions::controlled_revisions(ctx.sim.store(), object.metadata().uid);
    if to_revision == 0 && owned.len() <= 1 {
        return Err("error: no last revision to roll back to".into());
    }
    let template = find_history(to_revision, &owned)
        .and_then(history::revision_template)
        .ok_or_else(|| revision_not_found(to_revision))?;
    if *template_of(&mut object) == template {
        return Ok(format!("skipped rollback (current template already matches revision {to_revision})"));
    }
    warn_last_applied(out, T::KIND, object.metadata());
    *template_of(&mut object) = template;
    ctx.api()
        .update_typed(object)
        .map_err(|e| format!("error: failed restoring revision {to_revision}: {}", e.message()))?;
    Ok("rolled back".into())
}

/// Upstream `findHistory`: revision N, or for N = 0 the one before the newest (`owned` is
/// oldest first).
fn find_history(to_revision: i64, owned: &[ControllerRevision]) -> Option<&ControllerRevision> {
    if to_revision == 0 {
        return owned.len().checked_sub(2).and_then(|i| owned.get(i));
    }
    owned.iter().find(|cr| cr.revision == to_revision)
}
