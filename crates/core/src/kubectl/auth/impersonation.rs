//! `--as` and `--as-group`: kubectl sends Impersonate-User and Impersonate-Group headers and the
//! API server's impersonation filter (apiserver/pkg/endpoints/filters/impersonation.go) checks
//! that the real user may `impersonate` each, then serves the request as the impersonated user.

use crate::error::ApiError;
use crate::kubectl::args::Args;
use crate::kubectl::output::Output;
use crate::sim::Sim;
use crate::store::UserInfo;
use crate::store::rbac::review::ResourceAttributes;
use std::sync::Arc;

const SERVICE_ACCOUNT_PREFIX: &str = "system:serviceaccount:";

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
    let real = sim.kubectl_user();
    let mut asked = vec![match service_account(name) {
        Some((namespace, account)) => attributes("serviceaccounts", namespace, account),
        None => attributes("users", "", name),
    }];
    asked.extend(groups.iter().map(|group| attributes("groups", "", group)));
    for attributes in &asked {
        if !sim.store().access_review(&real, attributes).allowed {
            return Err(Output::failed(forbidden(&real, attributes).to_string()));
        }
    }
    Ok(Some(impersonated(name, groups)))
}

/// The impersonated user: the groups asked for (a service account's own when none are), and
/// `system:authenticated`, which the filter adds to everyone but `system:anonymous`.
pub fn impersonated(name: &str, groups: &[String]) -> Arc<UserInfo> {
    let mut groups = groups.to_vec();
    if let (Some((namespace, _)), true) = (service_account(name), groups.is_empty()) {
        groups.push("system:serviceaccounts".to_string());
        groups.push(format!("system:serviceaccounts:{namespace}"));
    }
    if name != "system:anonymous" && !groups.iter().any(|g| g == "system:authenticated") {
        groups.push("system:authenticated".to_string());
    }
    Arc::new(UserInfo { name: name.to_string(), groups })
}

fn service_account(name: &str) -> Option<(&str, &str)> {
    name.strip_prefix(SERVICE_ACCOUNT_PREFIX)?.split_once(':')
}

fn attributes(resource: &str, namespace: &str, name: &str) -> ResourceAttributes {
    ResourceAttributes {
        namespace: namespace.to_string(),
        verb: "impersonate".to_string(),
        resource: resource.to_string(),
        name: name.to_string(),
        ..Default::default()
    }
}

/// The filter's Forbidden: `users "jane" is forbidden: User "x" cannot impersonate resource
/// "users" in API group "" at the cluster scope`.
fn forbidden(real: &UserInfo, asked: &ResourceAttributes) -> ApiError {
    let scope = match asked.namespace.as_str() {
        "" => " at the cluster scope".to_string(),
        namespace => format!(" in the namespace \"{namespace}\""),
    };
    let message = format!(
        "{} \"{}\" is forbidden: User \"{}\" cannot impersonate resource \"{}\" in API group \"\"{scope}",
        asked.resource, asked.name, real.name, asked.resource
    );
    ApiError::Forbidden { message }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_impersonated_user_is_authenticated_and_a_service_account_in_its_groups() {
        let jane = impersonated("jane", &[]);
        assert_eq!(jane.groups, ["system:authenticated"]);
        let robot = impersonated("system:serviceaccount:dev:robot", &[]);
        assert_eq!(robot.groups, ["system:serviceaccounts", "system:serviceaccounts:dev", "system:authenticated"]);
        let ops = impersonated("ann", &["ops".to_string()]);
        assert_eq!(ops.groups, ["ops", "system:authenticated"]);
    }
}
