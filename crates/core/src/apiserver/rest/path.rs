//! What a URL names, as kube-apiserver's `RequestInfoFactory` reads it
//! (staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go): discovery, OpenAPI and
//! `/version`, or a resource request with its group, version, resource, namespace, name and
//! subresource.

/// A parsed request path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    Version,
    /// `/api`: the core group's versions.
    CoreVersions,
    /// `/apis`: every named group.
    Groups,
    /// `/apis/<group>`.
    Group(String),
    /// `/api/v1` or `/apis/<group>/<version>`: the resources of one group version.
    Resources {
        group: String,
        version: String,
    },
    /// `/openapi/v2`.
    OpenApiV2,
    /// `/openapi/v3`, or one group version's document (`/openapi/v3/apis/apps/v1`).
    OpenApiV3(Option<String>),
    Resource(ResourcePath),
}

/// `/apis/apps/v1/namespaces/default/deployments/web/scale` and the like.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResourcePath {
    pub group: String,
    pub version: String,
    pub resource: String,
    pub namespace: String,
    pub name: String,
    pub subresource: String,
    /// The deprecated `/watch/` prefix (`?watch=true` is the other way to ask).
    pub watch: bool,
}

/// Reads `path` (without its query string); `None` when it names nothing the API serves.
pub fn parse(path: &str) -> Option<Target> {
    let parts: Vec<&str> = path.trim_matches('/').split('/').filter(|p| !p.is_empty()).collect();
    match parts.as_slice() {
        ["version"] => Some(Target::Version),
        ["api"] => Some(Target::CoreVersions),
        ["apis"] => Some(Target::Groups),
        ["apis", group] => Some(Target::Group(group.to_string())),
        ["api", version] => Some(Target::Resources { group: String::new(), version: version.to_string() }),
        ["apis", group, version] => Some(Target::Resources { group: group.to_string(), version: version.to_string() }),
        ["openapi", "v2"] => Some(Target::OpenApiV2),
        ["openapi", "v3"] => Some(Target::OpenApiV3(None)),
        ["openapi", "v3", rest @ ..] => Some(Target::OpenApiV3(Some(rest.join("/")))),
        ["api", version, rest @ ..] => resource("", version, rest).map(Target::Resource),
        ["apis", group, version, rest @ ..] => resource(group, version, rest).map(Target::Resource),
        _ => None,
    }
}

/// The part after the group version: `[watch/][namespaces/<ns>/]<resource>[/<name>[/<sub>]]`.
fn resource(group: &str, version: &str, rest: &[&str]) -> Option<ResourcePath> {
    let (watch, rest) = match rest {
        ["watch", rest @ ..] => (true, rest),
        _ => (false, rest),
    };
    let mut path = ResourcePath { group: group.into(), version: version.into(), watch, ..ResourcePath::default() };
    // `namespaces/<ns>/<resource>…` is namespaced, unless it is the namespace itself
    // (`namespaces/<name>` or `namespaces/<name>/status`).
    let rest = match rest {
        ["namespaces", namespace, resource, more @ ..] if !matches!(*resource, "status" | "finalize") => {
            path.namespace = namespace.to_string();
            path.resource = resource.to_string();
            more
        }
        [resource, more @ ..] => {
            path.resource = resource.to_string();
            more
        }
        [] => return None,
    };
    match rest {
        [] => {}
        [name] => path.name = name.to_string(),
        [name, subresource] => {
            path.name = name.to_string();
            path.subresource = subresource.to_string();
        }
        _ => return None,
    }
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn res(path: &str) -> ResourcePath {
        match parse(path) {
            Some(Target::Resource(r)) => r,
            other => panic!("{path}: {other:?}"),
        }
    }

    #[test]
    fn urls_name_what_the_request_info_factory_reads() {
        let r = res("/apis/apps/v1/namespaces/default/deployments/web/scale");
        assert_eq!(
            (r.group.as_str(), r.version.as_str(), r.resource.as_str(), r.namespace.as_str(), r.name.as_str()),
            ("apps", "v1", "deployments", "default", "web")
        );
        assert_eq!(r.subresource, "scale");
        let r = res("/api/v1/pods");
        assert_eq!((r.resource.as_str(), r.namespace.as_str()), ("pods", ""));
        let r = res("/api/v1/namespaces/kube-system");
        assert_eq!((r.resource.as_str(), r.name.as_str()), ("namespaces", "kube-system"));
        let r = res("/api/v1/namespaces/team-a/status");
        assert_eq!((r.resource.as_str(), r.name.as_str(), r.subresource.as_str()), ("namespaces", "team-a", "status"));
        let r = res("/api/v1/watch/namespaces/default/pods");
        assert!(r.watch);
        assert_eq!(parse("/apis"), Some(Target::Groups));
        assert_eq!(parse("/api/v1"), Some(Target::Resources { group: String::new(), version: "v1".into() }));
        assert_eq!(parse("/openapi/v3/apis/apps/v1"), Some(Target::OpenApiV3(Some("apis/apps/v1".into()))));
        assert_eq!(parse("/healthz/etcd"), None);
        assert_eq!(parse("/api/v1/namespaces/default/pods/web/log/extra"), None);
    }
}
