//! The API server's health endpoints: `/livez`, `/readyz` and the older `/healthz`, each with
//! `?verbose` and `?exclude=NAME`, and one path per check (`/readyz/etcd`). The checks and their
//! order are a kubeadm 1.36 API server's (genericapiserver's `healthCheckRegistry`: `ping`,
//! `log`, the etcd checks, then one `poststarthook/NAME` per post-start hook of the aggregator,
//! kube-apiserver and apiextensions servers); the answers are healthz.go's `handleRootHealth`
//! and `adaptCheckToHandler`. In the lab every hook has long finished, so only the etcd checks
//! can fail: they probe etcd, and fail while it is stopped.

use super::HttpResponse;
use super::query::Query;
use crate::controllers::control_plane::{Component, ControlPlane};

/// Go's `http.Error` and the healthz handler both answer in plain text.
const TEXT: &str = "text/plain; charset=utf-8";

/// One of the three endpoints, named as its path's first segment (which its last line repeats).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Endpoint {
    Healthz,
    Livez,
    Readyz,
}

/// Where a check is installed: every endpoint (`AddHealthChecks` and the post-start hooks), or
/// only `/readyz` (`AddReadyzChecks`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Installed {
    Everywhere,
    ReadyzOnly,
}

use Installed::{Everywhere, ReadyzOnly};

/// The checks in the order a 1.36 API server prints them.
const CHECKS: &[(&str, Installed)] = &[
    ("ping", Everywhere),
    ("log", Everywhere),
    ("etcd", Everywhere),
    ("etcd-readiness", ReadyzOnly),
    ("informer-sync", ReadyzOnly),
    ("poststarthook/start-apiserver-admission-initializer", Everywhere),
    ("poststarthook/generic-apiserver-start-informers", Everywhere),
    ("poststarthook/priority-and-fairness-config-consumer", Everywhere),
    ("poststarthook/priority-and-fairness-filter", Everywhere),
    ("poststarthook/storage-object-count-tracker-hook", Everywhere),
    ("poststarthook/start-apiextensions-informers", Everywhere),
    ("poststarthook/start-apiextensions-controllers", Everywhere),
    ("poststarthook/crd-informer-synced", Everywhere),
    ("poststarthook/start-system-namespaces-controller", Everywhere),
    ("poststarthook/start-cluster-authentication-info-controller", Everywhere),
    ("poststarthook/start-kube-apiserver-identity-lease-controller", Everywhere),
    ("poststarthook/start-kube-apiserver-identity-lease-garbage-collector", Everywhere),
    ("poststarthook/storage-readiness", Everywhere),
    ("poststarthook/start-legacy-token-tracking-controller", Everywhere),
    ("poststarthook/start-service-ip-repair-controllers", Everywhere),
    ("poststarthook/rbac/bootstrap-roles", Everywhere),
    ("poststarthook/scheduling/bootstrap-system-priority-classes", Everywhere),
    ("poststarthook/priority-and-fairness-config-producer", Everywhere),
    ("poststarthook/bootstrap-controller", Everywhere),
    ("poststarthook/start-kubernetes-service-cidr-controller", Everywhere),
    ("poststarthook/aggregator-reload-proxy-client-cert", Everywhere),
    ("poststarthook/start-kube-aggregator-informers", Everywhere),
    ("poststarthook/apiservice-status-local-available-controller", Everywhere),
    ("poststarthook/apiservice-status-remote-available-controller", Everywhere),
    ("poststarthook/apiservice-registration-controller", Everywhere),
    ("poststarthook/apiservice-discovery-controller", Everywhere),
    ("poststarthook/kube-apiserver-autoregistration", Everywhere),
    ("autoregister-completion", Everywhere),
    ("poststarthook/apiservice-openapi-controller", Everywhere),
    ("poststarthook/apiservice-openapiv3-controller", Everywhere),
    // genericapiserver's `addReadyzShutdownCheck`: fails once the server starts shutting down.
    ("shutdown", ReadyzOnly),
];

/// What the etcd probe reports once its 2 s `--etcd-healthcheck-timeout` passes with no answer
/// (storagebackend/factory/etcd3.go's prober, wrapping the client's context error).
const ETCD_PROBE_ERROR: &str = "error getting data from etcd: context deadline exceeded";

/// The answer to a health path, or `None` when the path is not one.
pub fn serve(plane: &ControlPlane, path: &str, query: &str) -> Option<HttpResponse> {
    let (endpoint, rest) = endpoint_of(path)?;
    let checks = CHECKS.iter().filter(|(_, installed)| *installed == Everywhere || endpoint == Endpoint::Readyz);
    let failing = |name: &str| name.starts_with("etcd") && !plane.is_running(Component::Etcd);
    match rest {
        None => Some(root(endpoint, checks.map(|(name, _)| (*name, failing(name))), &Query::parse(query))),
        Some(check) => {
            let (name, _) = checks.into_iter().find(|(name, _)| *name == check)?;
            Some(match failing(name) {
                true => text(500, format!("internal server error: {ETCD_PROBE_ERROR}\n")),
                false => text(200, "ok".into()),
            })
        }
    }
}

/// The endpoint a path names, and the check after it (`/readyz/etcd`), if any.
fn endpoint_of(path: &str) -> Option<(Endpoint, Option<&str>)> {
    let trimmed = path.strip_prefix('/')?;
    let (first, rest) = match trimmed.split_once('/') {
        Some((first, rest)) => (first, Some(rest)),
        None => (trimmed, None),
    };
    let endpoint = match first {
        "healthz" => Endpoint::Healthz,
        "livez" => Endpoint::Livez,
        "readyz" => Endpoint::Readyz,
        _ => return None,
    };
    Some((endpoint, rest))
}

/// `handleRootHealth`: every check in order; a failing one makes the answer a 500 that lists
/// them all, verbose or not ("always be verbose on failure"), without the reason (the endpoint
/// is public, so the reason goes only to the server's log).
fn root<'a>(endpoint: Endpoint, checks: impl Iterator<Item = (&'a str, bool)>, query: &Query) -> HttpResponse {
    let mut unknown: Vec<&str> = query.all("exclude");
    let mut lines = String::new();
    let mut failed = false;
    for (name, failing) in checks {
        if unknown.contains(&name) {
            unknown.retain(|excluded| *excluded != name);
            lines.push_str(&format!("[+]{name} excluded: ok\n"));
        } else if failing {
            failed = true;
            lines.push_str(&format!("[-]{name} failed: reason withheld\n"));
        } else {
            lines.push_str(&format!("[+]{name} ok\n"));
        }
    }
    if !unknown.is_empty() {
        // A `sets.String`'s List() is sorted; each name is quoted with Go's %q.
        unknown.sort_unstable();
        unknown.dedup();
        let quoted: Vec<String> = unknown.iter().map(|name| format!("{name:?}")).collect();
        lines.push_str(&format!("warn: some health checks cannot be excluded: no matches for {}\n", quoted.join(",")));
    }
    let name = endpoint.name();
    if failed {
        return text(500, format!("{lines}{name} check failed\n"));
    }
    if query.get("verbose").is_none() {
        return text(200, "ok".into());
    }
    text(200, format!("{lines}{name} check passed\n"))
}

impl Endpoint {
    fn name(self) -> &'static str {
        match self {
            Endpoint::Healthz => "healthz",
            Endpoint::Livez => "livez",
            Endpoint::Readyz => "readyz",
        }
    }
}

fn text(status: u16, body: String) -> HttpResponse {
    HttpResponse { status, content_type: TEXT, body, stream: None, warnings: Vec::new() }
}

#[cfg(test)]
mod tests {
    use super::serve;
    use crate::controllers::control_plane::{Component, ControlPlane};

    fn answer(plane: &ControlPlane, path: &str, query: &str) -> (u16, String) {
        let response = serve(plane, path, query).expect("a health path");
        (response.status, response.body)
    }

    #[test]
    fn a_healthy_server_answers_ok_and_lists_its_checks_when_asked() {
        let plane = ControlPlane::default();
        assert_eq!(answer(&plane, "/readyz", ""), (200, "ok".into()));
        let (code, body) = answer(&plane, "/readyz", "verbose");
        assert_eq!(code, 200);
        assert!(body.starts_with("[+]ping ok\n[+]log ok\n[+]etcd ok\n[+]etcd-readiness ok\n[+]informer-sync ok\n"));
        assert!(body.ends_with("[+]shutdown ok\nreadyz check passed\n"), "{body}");
        assert_eq!(body.lines().count(), 37);
        let (_, livez) = answer(&plane, "/livez", "verbose");
        assert!(!livez.contains("etcd-readiness") && !livez.contains("shutdown"), "{livez}");
        assert!(livez.ends_with("[+]poststarthook/apiservice-openapiv3-controller ok\nlivez check passed\n"));
        assert_eq!(answer(&plane, "/readyz/poststarthook/rbac/bootstrap-roles", ""), (200, "ok".into()));
        assert!(serve(&plane, "/livez/shutdown", "").is_none());
        assert!(serve(&plane, "/readyzz", "").is_none());
    }

    #[test]
    fn with_etcd_stopped_its_checks_fail_and_the_reason_is_withheld() {
        let mut plane = ControlPlane::default();
        plane.set_running(Component::Etcd, false);
        let (code, body) = answer(&plane, "/readyz", "");
        assert_eq!(code, 500);
        assert!(
            body.contains("[+]log ok\n[-]etcd failed: reason withheld\n[-]etcd-readiness failed: reason withheld\n")
        );
        assert!(body.ends_with("[+]shutdown ok\nreadyz check failed\n"), "{body}");
        assert_eq!(
            answer(&plane, "/livez/etcd", ""),
            (500, "internal server error: error getting data from etcd: context deadline exceeded\n".into())
        );
        let (code, body) = answer(&plane, "/healthz", "exclude=etcd&exclude=nope&exclude=bogus&verbose");
        assert_eq!(code, 200);
        assert!(body.contains("[+]etcd excluded: ok\n"), "{body}");
        assert!(body.ends_with(
            "warn: some health checks cannot be excluded: no matches for \"bogus\",\"nope\"\nhealthz check passed\n"
        ));
    }
}
