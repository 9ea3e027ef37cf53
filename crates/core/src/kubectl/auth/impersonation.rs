//! `--as` and `--as-group`: kubectl sends Impersonate-User and Impersonate-Group headers and the
//! API server's impersonation filter decides (`apiserver::impersonation`, shared with the
//! served lab), then serves the request as the impersonated user.

use crate::apiserver::impersonation::{Impersonation, RequestAttributes};
use crate::kubectl::args::Args;
use crate::kubectl::output::Output;
use crate::sim::Sim;
use crate::store::UserInfo;
use std::sync::Arc;

/// The user a command runs as: `None` for the kubeconfig's own, else the impersonated one.
pub fn user(sim: &Sim, args: &Args) -> Result<Option<Arc<UserInfo>>, Output> {
    let groups = args.all("as-group");
    let Some(name) = args.get("as").filter(|n| !n.is_empty()) else {
        if groups.is_empty() {
            return Ok(None);
        }
        // client-go's kubeconfig validation (clientcmd/validation.go), for kubeadm's user.
        let user = sim.kubectl_user();
        let message = format!(
            "error: invalid configuration: requesting uid, groups or user-extra for {} without impersonating a user",
            user.name
        );
        return Err(Output::failed(message));
    };
    let wanted = Impersonation { user: name.to_string(), groups: groups.to_vec(), ..Default::default() };
    // kubectl's first request with the headers is discovery's `GET /api`.
    let first = RequestAttributes::NonResource { verb: "get".into(), path: "/api".into() };
    match wanted.resolve(sim.store(), &sim.kubectl_user(), &first) {
        Ok(user) => Ok(Some(user)),
        Err(refused) => Err(Output::failed(refused.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use crate::kubectl::fixture::{lab, run};

    #[test]
    fn an_impersonated_user_is_authenticated_and_a_service_account_in_its_groups() {
        let mut sim = lab("");
        let jane = run(&mut sim, "kubectl auth whoami --as=jane");
        assert!(jane.contains("[system:authenticated]"), "{jane}");
        let robot = run(&mut sim, "kubectl auth whoami --as=system:serviceaccount:dev:robot");
        assert!(robot.contains("[system:serviceaccounts system:serviceaccounts:dev system:authenticated]"), "{robot}");
        let ops = run(&mut sim, "kubectl auth whoami --as=ann --as-group=ops");
        assert!(ops.contains("[ops system:authenticated]"), "{ops}");
    }
}
