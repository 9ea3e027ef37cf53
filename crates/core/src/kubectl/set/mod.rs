//! `kubectl set SUBCOMMAND`: change one field of objects that carry a pod template. Mirrors
//! staging/src/k8s.io/kubectl/pkg/cmd/set (set.go, helper.go); one file per subcommand, plus
//! what they share here: reaching the pod spec of a Deployment, ReplicaSet, DaemonSet, StatefulSet or Pod and writing
//! back only what changed.

pub mod env;
pub mod image;

use super::args::Args;
use super::output::Output;
use super::{Context, Verb, group_run};
use crate::api::pod::PodSpec;
use crate::api::{DaemonSet, Deployment, Kind, Pod, ReplicaSet, StatefulSet};
use crate::apiserver::Client;
use crate::error::ApiError;
use crate::store::Stored;

pub const VERB: Verb = Verb {
    name: "set",
    short: "Set specific features on objects",
    usage: "kubectl set SUBCOMMAND [options]",
    flags: &[],
    run,
};

pub const SUBCOMMANDS: &[Verb] = &[env::VERB, image::VERB];

fn run(_ctx: &mut Context<'_>, args: Args) -> Output {
    group_run(&VERB, &args)
}

/// What happened to one object's pod spec.
pub enum Patched {
    /// The update changed nothing, so nothing was sent (kubectl prints nothing).
    Unchanged,
    Written,
}

/// Upstream `UpdatePodSpecForObject` plus the patch: applies `update` to the object's pod spec
/// and, when `write` and that changed it, writes the object back.
pub fn update_pod_spec(
    ctx: &mut Context<'_>,
    (kind, namespace, name): (Kind, &str, &str),
    write: bool,
    update: &mut dyn FnMut(&mut PodSpec),
) -> Result<Patched, String> {
    let store = &mut ctx.api();
    let result = match kind {
        Kind::Deployment => patch::<Deployment>(store, (namespace, name), write, |d| &mut d.spec.template.spec, update),
        Kind::StatefulSet => {
            patch::<StatefulSet>(store, (namespace, name), write, |set| &mut set.spec.template.spec, update)
        }
        Kind::ReplicaSet => {
            patch::<ReplicaSet>(store, (namespace, name), write, |rs| &mut rs.spec.template.spec, update)
        }
        Kind::DaemonSet => patch::<DaemonSet>(store, (namespace, name), write, |ds| &mut ds.spec.template.spec, update),
        Kind::Pod => patch::<Pod>(store, (namespace, name), write, |pod| &mut pod.spec, update),
        other => {
            let type_name = format!("*v1.{}", other.info().kind_name);
            return Err(format!(
                "error: {}/{name} the object is not a pod or does not have a pod template: {type_name}",
                other.info().plural
            ));
        }
    };
    result.map_err(|e| e.to_string())
}

fn patch<T: Stored>(
    api: &mut Client<'_>,
    (namespace, name): (&str, &str),
    write: bool,
    spec_of: fn(&mut T) -> &mut PodSpec,
    update: &mut dyn FnMut(&mut PodSpec),
) -> Result<Patched, ApiError> {
    let original = api.store().get::<T>(namespace, name)?.clone();
    let mut changed = original.clone();
    update(spec_of(&mut changed));
    if changed == original || !write {
        return Ok(Patched::Unchanged);
    }
    api.update_typed(changed).map(|_| Patched::Written)
}

/// Checks every named object exists first, as kubectl's resource builder does before any change.
pub fn check_exist(ctx: &Context<'_>, namespace: &str, found: &[(Kind, String)]) -> Result<(), String> {
    for (kind, name) in found {
        ctx.sim.store().get_object(*kind, namespace, name).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// `[a, b]` for several errors, the error itself for one (upstream `utilerrors.NewAggregate`).
pub fn aggregate(errors: &[String]) -> String {
    match errors {
        [one] => format!("error: {one}"),
        many => format!("error: [{}]", many.join(", ")),
    }
}

/// A `filepath.Match` pattern with `*` (any run of characters) and `?` (one character).
pub fn glob_match(pattern: &str, name: &str) -> bool {
    let (p, n): (Vec<char>, Vec<char>) = (pattern.chars().collect(), name.chars().collect());
    let (mut pi, mut ni, mut star, mut mark) = (0, 0, None, 0);
    while ni < n.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == n[ni]) {
            pi += 1;
            ni += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ni;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ni = mark;
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|c| *c == '*')
}

#[cfg(test)]
mod tests {
    use super::glob_match;

    #[test]
    fn container_patterns_match_like_filepath_match() {
        assert!(glob_match("*", "hello"));
        assert!(glob_match("hel*", "hello"));
        assert!(glob_match("h?llo", "hello"));
        assert!(!glob_match("web", "hello"));
        assert!(!glob_match("hello?", "hello"));
    }
}
