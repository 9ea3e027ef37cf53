//! The authorization hook every request passes, typed writes included: who wants to do what to
//! which object (upstream `authorizer.Attributes`) and the decision. The store's chain is the
//! privileged group, the Node authorizer (`node_authorizer.rs`) and RBAC (`rbac/`).

use super::user::UserInfo;
use crate::api::Kind;
use crate::error::ApiError;

/// What is asked: `verb` is the API verb (`get`, `list`, `watch`, `create`, `update`, `patch`,
/// `delete`, `deletecollection`), resource and subresource as the URL names them.
#[derive(Clone, Copy, Debug)]
pub struct Attributes<'a> {
    pub user: &'a UserInfo,
    pub verb: &'static str,
    pub kind: Kind,
    pub namespace: &'a str,
    pub name: &'a str,
    pub subresource: &'a str,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    Allow,
    /// Denied, with the authorizer's reason (appended to the Forbidden message).
    Deny(String),
    /// This authorizer has no opinion; the next one decides (a union ends denied).
    NoOpinion,
}

/// Decides whether a request may proceed (upstream `authorizer.Authorizer`).
pub trait Authorizer: std::fmt::Debug + Send + Sync {
    fn authorize(&self, attributes: &Attributes<'_>) -> Decision;
}

/// Allows every request.
#[derive(Clone, Copy, Debug, Default)]
pub struct AlwaysAllow;

impl Authorizer for AlwaysAllow {
    fn authorize(&self, _: &Attributes<'_>) -> Decision {
        Decision::Allow
    }
}

/// A denial as the API server words it: `pods "web" is forbidden: User "x" cannot get resource
/// "pods" in API group "" in the namespace "default"` (`forbidden` in endpoints/handlers/responsewriters).
pub fn forbidden(attributes: &Attributes<'_>, reason: &str) -> ApiError {
    let info = attributes.kind.info();
    let resource = match attributes.subresource {
        "" => info.plural.to_string(),
        sub => format!("{}/{sub}", info.plural),
    };
    let object = match attributes.name {
        "" => info.plural_qualified(),
        name => format!("{} \"{name}\"", info.plural_qualified()),
    };
    let scope = match attributes.namespace {
        "" if info.namespaced => String::new(),
        "" => " at the cluster scope".to_string(),
        ns => format!(" in the namespace \"{ns}\""),
    };
    let user = &attributes.user.name;
    let (verb, group) = (attributes.verb, info.group);
    let mut message = format!(
        "{object} is forbidden: User \"{user}\" cannot {verb} resource \"{resource}\" in API group \"{group}\"{scope}"
    );
    if !reason.is_empty() {
        message.push_str(": ");
        message.push_str(reason);
    }
    ApiError::Forbidden { message }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_denial_reads_like_the_api_servers() {
        let user = UserInfo { name: "jane".into(), groups: vec![] };
        let attributes =
            Attributes { user: &user, verb: "list", kind: Kind::Pod, namespace: "default", name: "", subresource: "" };
        assert_eq!(
            forbidden(&attributes, "").to_string(),
            "Error from server (Forbidden): pods is forbidden: User \"jane\" cannot list resource \"pods\" in API group \"\" in the namespace \"default\""
        );
        let attributes = Attributes { verb: "get", kind: Kind::Node, namespace: "", name: "node-1", ..attributes };
        assert_eq!(
            forbidden(&attributes, "").to_string(),
            "Error from server (Forbidden): nodes \"node-1\" is forbidden: User \"jane\" cannot get resource \"nodes\" in API group \"\" at the cluster scope"
        );
    }
}
