//! Impersonation (`Impersonate-User`, `-Group`, `-Uid`, `-Extra-*` headers, what `kubectl --as`
//! sends): the requester must be allowed to impersonate each part, then the request is served
//! as the impersonated user, `system:authenticated` added. Kubernetes 1.36 has constrained
//! impersonation on (beta), so the modes are tried in upstream's order, each needing its own
//! `impersonate-on:<mode>:<verb>` on the request and `impersonate:<mode>` on the identity,
//! before the legacy `impersonate` verb; when every mode refuses, the first mode's refusal is
//! the answer (apiserver/pkg/endpoints/filters/impersonation/constrained_impersonation.go,
//! mode.go). Pure: the server reads the headers, this decides.

use crate::error::ApiError;
use crate::store::rbac::review::ResourceAttributes;
use crate::store::{Store, UserInfo};
use std::sync::Arc;

const USER_HEADER: &str = "impersonate-user";
const GROUP_HEADER: &str = "impersonate-group";
const UID_HEADER: &str = "impersonate-uid";
const EXTRA_PREFIX: &str = "impersonate-extra-";
const SERVICE_ACCOUNT_PREFIX: &str = "system:serviceaccount:";
const NODE_PREFIX: &str = "system:node:";
const AUTHENTICATION_GROUP: &str = "authentication.k8s.io";

/// Who a request asks to be served as.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Impersonation {
    pub user: String,
    pub uid: String,
    pub groups: Vec<String>,
    /// `Impersonate-Extra-<key>` values by key (lower-cased, %-unescaped), in header order.
    pub extra: Vec<(String, Vec<String>)>,
}

/// What the request itself does, as the authorizer sees it (`impersonate-on` asks about it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RequestAttributes {
    Resource(ResourceAttributes),
    NonResource { verb: String, path: String },
}

impl RequestAttributes {
    /// What an HTTP request asks (`RequestInfoFactory`): a resource request's verb from its
    /// method and whether it names an object, or a non-resource path's lower-cased method.
    pub fn of(method: &str, path: &str, query: &str) -> RequestAttributes {
        use super::rest::path::{Target, parse};
        let Some(Target::Resource(target)) = parse(path) else {
            return RequestAttributes::NonResource { verb: method.to_ascii_lowercase(), path: path.to_string() };
        };
        let watching = target.watch || super::rest::query::Query::parse(query).flag("watch");
        let named = !target.name.is_empty();
        let verb = match method {
            "GET" | "HEAD" if watching => "watch",
            "GET" | "HEAD" if named => "get",
            "GET" | "HEAD" => "list",
            "POST" => "create",
            "PUT" => "update",
            "PATCH" => "patch",
            "DELETE" if named => "delete",
            "DELETE" => "deletecollection",
            other => return RequestAttributes::NonResource { verb: other.to_ascii_lowercase(), path: path.into() },
        };
        RequestAttributes::Resource(ResourceAttributes {
            namespace: target.namespace,
            verb: verb.to_string(),
            group: target.group,
            resource: target.resource,
            subresource: target.subresource,
            name: target.name,
        })
    }
}

impl Impersonation {
    /// Reads the impersonation headers from `(name, value)` pairs (names in any case).
    pub fn from_headers<'a>(headers: impl IntoIterator<Item = (&'a str, &'a str)>) -> Impersonation {
        let mut wanted = Impersonation::default();
        for (name, value) in headers {
            let name = name.to_ascii_lowercase();
            match name.as_str() {
                // `Header.Get`: the first value counts.
                USER_HEADER if wanted.user.is_empty() => wanted.user = value.to_string(),
                UID_HEADER if wanted.uid.is_empty() => wanted.uid = value.to_string(),
                GROUP_HEADER => wanted.groups.push(value.to_string()),
                _ => {
                    if let Some(key) = name.strip_prefix(EXTRA_PREFIX) {
                        let key = percent_decode(key);
                        match wanted.extra.iter_mut().find(|(k, _)| *k == key) {
                            Some((_, values)) => values.push(value.to_string()),
                            None => wanted.extra.push((key, vec![value.to_string()])),
                        }
                    }
                }
            }
        }
        wanted
    }

    /// Whether any impersonation header came.
    pub fn is_empty(&self) -> bool {
        self.user.is_empty() && self.uid.is_empty() && self.groups.is_empty() && self.extra.is_empty()
    }

    /// The user to serve the request as: the requester when nothing is impersonated, else the
    /// impersonated user, or the Forbidden (BadRequest for groups without a user) to answer.
    pub fn resolve(
        &self,
        store: &Store,
        requestor: &Arc<UserInfo>,
        request: &RequestAttributes,
    ) -> Result<Arc<UserInfo>, ApiError> {
        if self.is_empty() {
            return Ok(requestor.clone());
        }
        if self.user.is_empty() {
            return Err(ApiError::BadRequest { message: self.without_user_message() });
        }
        let mut first_error = None;
        for mode in MODES {
            if !mode.applies(self) {
                continue;
            }
            match mode.check(store, requestor, self, request) {
                Ok(user) => return Ok(user),
                Err(error) => {
                    first_error.get_or_insert(error);
                }
            }
        }
        Err(first_error.unwrap_or_else(|| ApiError::Forbidden { message: "all impersonation modes failed".into() }))
    }

    /// `requested &user.DefaultInfo{…} without impersonating a user name` (Go's `%#v`).
    fn without_user_message(&self) -> String {
        let list = |items: &[String]| {
            if items.is_empty() {
                "[]string(nil)".to_string()
            } else {
                let quoted: Vec<String> = items.iter().map(|i| format!("{i:?}")).collect();
                format!("[]string{{{}}}", quoted.join(", "))
            }
        };
        let extra = if self.extra.is_empty() {
            "map[string][]string(nil)".to_string()
        } else {
            let pairs: Vec<String> = self.extra.iter().map(|(k, v)| format!("{k:?}:{}", list(v))).collect();
            format!("map[string][]string{{{}}}", pairs.join(", "))
        };
        format!(
            "requested &user.DefaultInfo{{Name:\"\", UID:{:?}, Groups:{}, Extra:{extra}}} without impersonating a user name",
            self.uid,
            list(&self.groups)
        )
    }
}

/// One way impersonation may be allowed (`impersonationMode`). The associated-node mode needs
/// a requester with a node-name extra, which the lab's users never carry, so it never applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    ArbitraryNode,
    ServiceAccount,
    UserInfo,
    Legacy,
}

const MODES: [Mode; 4] = [Mode::ArbitraryNode, Mode::ServiceAccount, Mode::UserInfo, Mode::Legacy];

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::ArbitraryNode => "arbitrary-node",
            Mode::ServiceAccount => "serviceaccount",
            Mode::UserInfo => "user-info",
            Mode::Legacy => "",
        }
    }

    /// The mode's filter: which wanted users it may allow.
    fn applies(self, wanted: &Impersonation) -> bool {
        let only_name = wanted.uid.is_empty() && wanted.groups.is_empty() && wanted.extra.is_empty();
        match self {
            Mode::ArbitraryNode => only_name && node_name(&wanted.user).is_some(),
            Mode::ServiceAccount => only_name && service_account(&wanted.user).is_some(),
            Mode::UserInfo => node_name(&wanted.user).is_none() && service_account(&wanted.user).is_none(),
            Mode::Legacy => true,
        }
    }

    /// `impersonate`, or `impersonate:<mode>`.
    fn verb(self) -> String {
        match self {
            Mode::Legacy => "impersonate".to_string(),
            mode => format!("impersonate:{}", mode.name()),
        }
    }

    /// The group the user, group and service-account checks name (core for legacy).
    fn identity_group(self) -> &'static str {
        if self == Mode::Legacy { "" } else { AUTHENTICATION_GROUP }
    }

    fn check(
        self,
        store: &Store,
        requestor: &Arc<UserInfo>,
        wanted: &Impersonation,
        request: &RequestAttributes,
    ) -> Result<Arc<UserInfo>, ApiError> {
        if self != Mode::Legacy {
            // `impersonate-on:<mode>:<verb>` on what the request does.
            let on = format!("impersonate-on:{}:", self.name());
            match request {
                RequestAttributes::Resource(asked) => {
                    let asked = ResourceAttributes { verb: format!("{on}{}", asked.verb), ..asked.clone() };
                    authorize(store, requestor, &asked)?;
                }
                RequestAttributes::NonResource { verb, path } => {
                    let verb = format!("{on}{verb}");
                    let status = store.non_resource_review(requestor, &verb, path);
                    if !status.allowed {
                        let message = format!("forbidden: User {:?} cannot {verb} path {path:?}", requestor.name);
                        return Err(ApiError::Forbidden { message: with_reason(message, &status.reason) });
                    }
                }
            }
        }
        let verb = self.verb();
        let identity = |resource: &str, namespace: &str, name: &str, group: &str| ResourceAttributes {
            namespace: namespace.to_string(),
            verb: verb.clone(),
            group: group.to_string(),
            resource: resource.to_string(),
            subresource: String::new(),
            name: name.to_string(),
        };
        let mut groups = wanted.groups.clone();
        if let Some(node) = node_name(&wanted.user).filter(|_| self != Mode::Legacy) {
            authorize(store, requestor, &identity("nodes", "", node, self.identity_group()))?;
            groups = vec!["system:nodes".to_string()];
        } else if let Some((namespace, name)) = service_account(&wanted.user) {
            authorize(store, requestor, &identity("serviceaccounts", namespace, name, self.identity_group()))?;
            if groups.is_empty() {
                groups = vec!["system:serviceaccounts".to_string(), format!("system:serviceaccounts:{namespace}")];
            }
        } else {
            authorize(store, requestor, &identity("users", "", &wanted.user, self.identity_group()))?;
        }
        if !wanted.uid.is_empty() {
            authorize(store, requestor, &identity("uids", "", &wanted.uid, AUTHENTICATION_GROUP))?;
        }
        for group in &wanted.groups {
            authorize(store, requestor, &identity("groups", "", group, self.identity_group()))?;
        }
        for (key, values) in &wanted.extra {
            for value in values {
                let asked = ResourceAttributes {
                    subresource: key.clone(),
                    ..identity("userextras", "", value, AUTHENTICATION_GROUP)
                };
                authorize(store, requestor, &asked)?;
            }
        }
        if wanted.user == "system:anonymous" {
            ensure(&mut groups, "system:unauthenticated");
        } else if !groups.iter().any(|g| g == "system:unauthenticated") {
            ensure(&mut groups, "system:authenticated");
        }
        // The lab's users carry a name and groups; the uid and extras are checked, not kept.
        Ok(Arc::new(UserInfo { name: wanted.user.clone(), groups }))
    }
}

fn ensure(groups: &mut Vec<String>, group: &str) {
    if !groups.iter().any(|g| g == group) {
        groups.push(group.to_string());
    }
}

/// The authorizer's decision on `asked`, or the Forbidden the filter answers
/// (`responsewriters.ForbiddenStatusError`).
fn authorize(store: &Store, requestor: &UserInfo, asked: &ResourceAttributes) -> Result<(), ApiError> {
    let status = store.access_review(requestor, asked);
    if status.allowed {
        return Ok(());
    }
    Err(ApiError::Forbidden { message: with_reason(forbidden_message(requestor, asked), &status.reason) })
}

fn with_reason(message: String, reason: &str) -> String {
    if reason.is_empty() { message } else { format!("{message}: {reason}") }
}

/// `users "jane" is forbidden: User "x" cannot impersonate resource "users" in API group ""
/// at the cluster scope` (`errors.NewForbidden` around `forbiddenMessage`).
pub fn forbidden_message(requestor: &UserInfo, asked: &ResourceAttributes) -> String {
    let qualified = match asked.group.as_str() {
        "" => asked.resource.clone(),
        group => format!("{}.{group}", asked.resource),
    };
    let object = match asked.name.as_str() {
        "" => qualified,
        name => format!("{qualified} {name:?}"),
    };
    let resource = match asked.subresource.as_str() {
        "" => asked.resource.clone(),
        sub => format!("{}/{sub}", asked.resource),
    };
    let scope = match asked.namespace.as_str() {
        "" => "at the cluster scope".to_string(),
        namespace => format!("in the namespace {namespace:?}"),
    };
    format!(
        "{object} is forbidden: User {:?} cannot {} resource {resource:?} in API group {:?} {scope}",
        requestor.name, asked.verb, asked.group
    )
}

/// `system:serviceaccount:<namespace>:<name>`'s namespace and name (`serviceaccount.SplitUsername`).
fn service_account(user: &str) -> Option<(&str, &str)> {
    let (namespace, name) = user.strip_prefix(SERVICE_ACCOUNT_PREFIX)?.split_once(':')?;
    (!namespace.is_empty() && !name.is_empty() && !name.contains(':')).then_some((namespace, name))
}

/// `system:node:<name>`'s name, when it is a DNS subdomain.
fn node_name(user: &str) -> Option<&str> {
    let name = user.strip_prefix(NODE_PREFIX)?;
    let valid = !name.is_empty()
        && name.len() <= 253
        && name.split('.').all(|label| {
            !label.is_empty()
                && label.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                && !label.starts_with('-')
                && !label.ends_with('-')
        });
    valid.then_some(name)
}

/// `url.PathUnescape`, keeping the key as sent when it is malformed.
fn percent_decode(key: &str) -> String {
    let bytes = key.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = key.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(h, 16).ok());
            match hex {
                Some(byte) => {
                    out.push(byte);
                    i += 3;
                    continue;
                }
                None => return key.to_string(),
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| key.to_string())
}

#[cfg(test)]
mod tests;
