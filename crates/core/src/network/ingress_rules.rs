//! Which backend an ingress controller picks for a request, from every Ingress of its class:
//! the host first (an exact name, then a `*.` wildcard covering one label, then rules with no
//! host), then the longest matching path (`Exact` before `Prefix` on a tie; `Prefix` matches
//! whole path elements; ingress-nginx reads `ImplementationSpecific` as a plain prefix), then
//! the Ingresses' default backend. The matching table in the Ingress docs is the test below.

use crate::api::Ingress;
use crate::api::ingress::IngressBackend;

/// What a request matched: the backend and the namespace of the Ingress that named it.
#[derive(Clone, Debug, PartialEq)]
pub struct Matched {
    pub namespace: String,
    pub backend: IngressBackend,
    /// The Ingress and path that matched, for the controller's logs.
    pub ingress: String,
    pub path: String,
}

/// How well a host rule matches: exact beats wildcard beats catch-all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum HostMatch {
    Any,
    Wildcard,
    Exact,
}

fn host_match(rule: Option<&str>, host: &str) -> Option<HostMatch> {
    match rule.filter(|r| !r.is_empty()) {
        None => Some(HostMatch::Any),
        Some(rule) if rule.eq_ignore_ascii_case(host) => Some(HostMatch::Exact),
        Some(rule) => {
            let suffix = rule.strip_prefix("*.")?;
            let (label, rest) = host.split_once('.')?;
            (!label.is_empty() && rest.eq_ignore_ascii_case(suffix)).then_some(HostMatch::Wildcard)
        }
    }
}

/// Whether `rule` (of `path_type`) matches the request path, and how long the match is.
pub fn path_match(path_type: &str, rule: &str, request: &str) -> Option<usize> {
    match path_type {
        "Exact" => (rule == request).then_some(rule.len()),
        "Prefix" => {
            let elements = |p: &str| p.split('/').filter(|e| !e.is_empty()).map(str::to_string).collect::<Vec<_>>();
            let (rule_parts, request_parts) = (elements(rule), elements(request));
            let matches =
                rule_parts.len() <= request_parts.len() && rule_parts.iter().zip(&request_parts).all(|(a, b)| a == b);
            matches.then_some(rule.trim_end_matches('/').len())
        }
        _ => request.starts_with(rule).then_some(rule.len()),
    }
}

/// The backend for `host` and `path` among `ingresses`, or `None`: the controller's own default
/// backend answers (404).
pub fn route<'a>(ingresses: impl Iterator<Item = &'a Ingress>, host: &str, path: &str) -> Option<Matched> {
    let path = path.split('?').next().unwrap_or("/");
    let host = host.split(':').next().unwrap_or(host);
    let ingresses: Vec<&Ingress> = ingresses.collect();
    // (host match, path length, Exact?) — the best wins; an earlier Ingress wins a tie.
    let mut best: Option<((HostMatch, usize, bool), Matched)> = None;
    let mut best_host: Option<HostMatch> = None;
    for ingress in &ingresses {
        for rule in &ingress.spec.rules {
            let Some(quality) = host_match(rule.host.as_deref(), host) else { continue };
            best_host = best_host.max(Some(quality));
            let Some(http) = &rule.http else { continue };
            for candidate in &http.paths {
                let path_type = candidate.path_type.as_deref().unwrap_or("ImplementationSpecific");
                let rule_path = candidate.path.as_deref().unwrap_or("/");
                let Some(length) = path_match(path_type, rule_path, path) else { continue };
                let score = (quality, length, path_type == "Exact");
                if best.as_ref().is_none_or(|(b, _)| score > *b) {
                    let matched = Matched {
                        namespace: ingress.metadata.namespace.clone(),
                        backend: candidate.backend.clone(),
                        ingress: ingress.metadata.name.clone(),
                        path: rule_path.to_string(),
                    };
                    best = Some((score, matched));
                }
            }
        }
    }
    // A more specific host's rules shadow the others: its paths or nothing (then the default).
    if let Some(((quality, _, _), matched)) = best
        && Some(quality) == best_host
    {
        return Some(matched);
    }
    ingresses.iter().find_map(|ingress| {
        let backend = ingress.spec.default_backend.clone()?;
        let namespace = ingress.metadata.namespace.clone();
        Some(Matched { namespace, backend, ingress: ingress.metadata.name.clone(), path: String::new() })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Ingress docs' "Examples" table: kind, rule paths, request path, which rule matches.
    #[test]
    fn the_docs_matching_table() {
        let table: &[(&str, &[&str], &str, Option<&str>)] = &[
            ("Prefix", &["/"], "/anything/at/all", Some("/")),
            ("Exact", &["/foo"], "/foo", Some("/foo")),
            ("Exact", &["/foo"], "/bar", None),
            ("Exact", &["/foo"], "/foo/", None),
            ("Exact", &["/foo/"], "/foo", None),
            ("Prefix", &["/foo"], "/foo", Some("/foo")),
            ("Prefix", &["/foo"], "/foo/", Some("/foo")),
            ("Prefix", &["/foo/"], "/foo", Some("/foo/")),
            ("Prefix", &["/foo/"], "/foo/", Some("/foo/")),
            ("Prefix", &["/aaa/bb"], "/aaa/bbb", None),
            ("Prefix", &["/aaa/bbb"], "/aaa/bbb", Some("/aaa/bbb")),
            ("Prefix", &["/aaa/bbb/"], "/aaa/bbb", Some("/aaa/bbb/")),
            ("Prefix", &["/aaa/bbb"], "/aaa/bbb/", Some("/aaa/bbb")),
            ("Prefix", &["/aaa/bbb"], "/aaa/bbb/ccc", Some("/aaa/bbb")),
            ("Prefix", &["/aaa/bbb"], "/aaa/bbbxyz", None),
            ("Prefix", &["/", "/aaa"], "/aaa/ccc", Some("/aaa")),
            ("Prefix", &["/", "/aaa", "/aaa/bbb"], "/aaa/bbb", Some("/aaa/bbb")),
            ("Prefix", &["/", "/aaa", "/aaa/bbb"], "/ccc", Some("/")),
            ("Prefix", &["/aaa"], "/ccc", None),
            ("ImplementationSpecific", &["/api"], "/apiary", Some("/api")),
        ];
        for (path_type, paths, request, expected) in table {
            let rules: Vec<String> = paths
                .iter()
                .map(|p| format!("{{path: '{p}', pathType: {path_type}, backend: {{service: {{name: s, port: {{number: 80}}}}}}}}"))
                .collect();
            let ingress = ingress_yaml(&format!("rules: [{{http: {{paths: [{}]}}}}]", rules.join(", ")));
            let matched = route([&ingress].into_iter(), "example.com", request).map(|m| m.path);
            assert_eq!(matched.as_deref(), *expected, "{path_type} {paths:?} {request}");
        }
        // Mixed: /foo (Prefix) and /foo (Exact) for /foo prefers Exact.
        let ingress = ingress_yaml(
            "rules: [{http: {paths: [{path: /foo, pathType: Prefix, backend: {service: {name: prefix, port: {number: 80}}}}, {path: /foo, pathType: Exact, backend: {service: {name: exact, port: {number: 80}}}}]}}]",
        );
        let matched = route([&ingress].into_iter(), "example.com", "/foo").unwrap();
        assert_eq!(matched.backend.service.unwrap().name, "exact");
    }

    /// The docs' host examples: exact, wildcard for one label only, no host for everything,
    /// and the default backend when nothing matches.
    #[test]
    fn hosts_wildcards_and_the_default_backend() {
        let ingress = ingress_yaml(
            "defaultBackend: {service: {name: fallback, port: {number: 80}}}\nrules:\n- {host: foo.bar.com, http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: exact, port: {number: 80}}}}]}}\n- {host: '*.foo.com', http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: wildcard, port: {number: 80}}}}]}}\n- {host: shop.example.com, http: {paths: [{path: /api, pathType: Prefix, backend: {service: {name: api, port: {number: 80}}}}]}}",
        );
        let name = |host: &str, path: &str| {
            route([&ingress].into_iter(), host, path).and_then(|m| m.backend.service).map(|s| s.name)
        };
        assert_eq!(name("foo.bar.com", "/x").as_deref(), Some("exact"));
        assert_eq!(name("bar.foo.com", "/x").as_deref(), Some("wildcard"));
        assert_eq!(name("baz.bar.foo.com", "/").as_deref(), Some("fallback"), "a wildcard covers one label");
        assert_eq!(name("foo.com", "/").as_deref(), Some("fallback"), "nor the bare domain");
        assert_eq!(name("shop.example.com", "/api/cart").as_deref(), Some("api"));
        assert_eq!(
            name("shop.example.com", "/apiary").as_deref(),
            Some("fallback"),
            "the host's rules shadow the rest"
        );
        assert_eq!(
            name("FOO.bar.com:8080", "/").as_deref(),
            Some("exact"),
            "hosts are case-insensitive, ports ignored"
        );
    }

    fn ingress_yaml(spec: &str) -> Ingress {
        let indented: String = spec.lines().map(|l| format!("  {l}\n")).collect();
        serde_yaml::from_str(&format!("metadata: {{name: shop, namespace: default}}\nspec:\n{indented}")).unwrap()
    }
}
