//! `kubectl apply --server-side [--force-conflicts]`: the manifest sent whole as an apply
//! patch by field manager `kubectl`, the API server merging it and owning its fields; a
//! conflict printed with kubectl's advice. Mirrors kubectl's apply.go (`o.ServerSideApply`).

use super::args::{Args, Flag};
use crate::api::Kind;
use crate::apiserver::Client;
use crate::error::ApiError;
use serde_json::Value;

pub const SERVER_SIDE: Flag =
    Flag::switch("server-side", None, "If true, apply runs in the server instead of the client.");
pub const FORCE_CONFLICTS: Flag =
    Flag::switch("force-conflicts", None, "If true, server-side apply will force the changes against conflicts.");

/// kubectl's field manager for server-side apply (apply.go `fieldManagerServerSideApply`).
const FIELD_MANAGER: &str = "kubectl";

/// What kubectl adds below an apply's conflicts (apply.go).
const ADVICE: &str = "Please review the fields above--they currently have other managers. Here
are the ways you can resolve this warning:
* If you intend to manage all of these fields, please re-run the apply
  command with the `--force-conflicts` flag.
* If you do not intend to manage all of the fields, please edit your
  manifest to remove references to the fields that should keep their
  current managers.
* You may co-own fields by updating your manifest to match the existing
  value; in this case, you'll become the manager if the other manager(s)
  stop managing the field (remove it from their configuration).
See https://kubernetes.io/docs/reference/using-api/server-side-apply/#conflicts";

/// `Some(force)` when the command applies server-side; `--force-conflicts` alone is refused.
pub fn mode(args: &Args) -> Result<Option<bool>, String> {
    match (args.switch("server-side"), args.switch("force-conflicts")) {
        (false, true) => Err("error: --force-conflicts only works with --server-side".into()),
        (false, false) => Ok(None),
        (true, force) => Ok(Some(force)),
    }
}

/// Applies one document; `deployment.apps/web serverside-applied`, or kubectl's error.
pub fn apply(
    api: &mut Client<'_>,
    (kind, namespace, name): (Kind, &str, &str),
    document: Value,
    force: bool,
) -> Result<String, String> {
    match api.apply(kind, (namespace, name), document, (FIELD_MANAGER, force)) {
        Ok(_) => Ok(format!("{}/{name} serverside-applied", kind.info().singular_qualified())),
        Err(ApiError::ApplyConflict { message, .. }) => Err(format!("error: {message}\n{ADVICE}")),
        Err(error) => Err(error.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use crate::api::Kind;
    use crate::kubectl::create::tests::{kubectl, kubectl_in};
    use crate::sim::Sim;

    const DEPLOYMENT: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: hello:v1\n";

    #[test]
    fn a_server_side_apply_owns_its_fields_and_a_change_by_another_manager_conflicts() {
        let mut sim = Sim::default();
        let (text, code) = kubectl_in(&mut sim, "apply --server-side -f -", Some(DEPLOYMENT));
        assert_eq!((text.as_str(), code), ("deployment.apps/web serverside-applied\n", 0));
        let (shown, _) = kubectl(&mut sim, "get deploy web -o yaml --show-managed-fields");
        assert!(shown.contains("    manager: kubectl\n    operation: Apply\n"), "{shown}");
        let (plain, _) = kubectl(&mut sim, "get deploy web -o yaml");
        assert!(!plain.contains("managedFields"), "{plain}");
        let other = serde_json::json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web"}, "spec": {"replicas": 7}});
        let target = (Kind::Deployment, ("default", "web"));
        let mut client = crate::apiserver::Client::new(sim.store_mut(), crate::store::UserInfo::admin());
        client.apply(target.0, target.1, other, ("other", true)).unwrap();
        let (text, code) = kubectl_in(&mut sim, "apply --server-side -f -", Some(DEPLOYMENT));
        assert_eq!(code, 1, "{text}");
        assert!(
            text.starts_with(
                "error: Apply failed with 1 conflict: conflict with \"other\": .spec.replicas\nPlease review"
            ),
            "{text}"
        );
        let (text, _) = kubectl_in(&mut sim, "apply --server-side --force-conflicts -f -", Some(DEPLOYMENT));
        assert_eq!(text, "deployment.apps/web serverside-applied\n");
        let (text, code) = kubectl_in(&mut sim, "apply --force-conflicts -f -", Some(DEPLOYMENT));
        assert_eq!((text.as_str(), code), ("error: --force-conflicts only works with --server-side\n", 1));
    }
}
