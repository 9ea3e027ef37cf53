//! NGINX Gateway Fabric's pods (with the gateway-api add-on): how a request is routed — the
//! HTTPRoutes attached to its Gateways, matched by hostname then by the spec's precedence
//! (an Exact path, the longest prefix, the most header matches, the oldest route), then one
//! backendRef by weight, then one of that Service's ready endpoints. Its status loop is
//! `gateway_status.rs`.

use super::connection::{self, Answer};
use super::gateway_status::{CONTROLLER, NAMESPACE, SERVICE, our_gateways};
use super::service_rules::{ServiceRules, usable};
use crate::api::Service;
use crate::api::http_route::{HttpRoute, HttpRouteRule};
use crate::api::meta::Time;
use crate::sim::Sim;
use crate::sim::random::Purpose;
use crate::sim::time::Duration;

/// How well a rule matches a request, compared as the spec orders precedence.
type Score = (bool, usize, usize);

/// A route's age for ties: the oldest (then the first by namespace/name) wins.
type Age = std::cmp::Reverse<(Option<Time>, String)>;

fn hostname_matches(pattern: &str, host: &str) -> bool {
    match pattern.strip_prefix("*.") {
        Some(suffix) => host.len() > suffix.len() + 1 && host.ends_with(&format!(".{suffix}")),
        None => pattern.eq_ignore_ascii_case(host),
    }
}

/// The best match of `rule` for the request, if it matches.
fn rule_score(rule: &HttpRouteRule, path: &str, headers: &[(String, String)]) -> Option<Score> {
    let default = [crate::api::http_route::HttpRouteMatch::default()];
    let matches = if rule.matches.is_empty() { &default[..] } else { &rule.matches[..] };
    matches
        .iter()
        .filter_map(|m| {
            let (kind, value) = m.path.as_ref().map_or(("PathPrefix", "/"), |p| {
                (p.type_.as_deref().unwrap_or("PathPrefix"), p.value.as_deref().unwrap_or("/"))
            });
            let path_ok = match kind {
                "Exact" => path == value,
                "RegularExpression" => regex_lite::Regex::new(&format!("^{value}$")).is_ok_and(|r| r.is_match(path)),
                _ => super::ingress_rules::path_match("Prefix", value, path).is_some(),
            };
            let headers_ok =
                m.headers.iter().all(|h| headers.iter().any(|(n, v)| n.eq_ignore_ascii_case(&h.name) && *v == h.value));
            (path_ok && headers_ok).then_some((kind == "Exact", value.len(), m.headers.len()))
        })
        .max()
}

/// Answers a request that reached NGINX Gateway Fabric's pod.
pub fn serve(sim: &mut Sim, host: &str, path: &str, headers: &[(String, String)], hops: u32) -> Answer {
    let path_only = path.split('?').next().unwrap_or("/");
    let host = host.split(':').next().unwrap_or(host);
    let store = sim.store();
    let gateways: Vec<(String, String)> =
        our_gateways(store).iter().map(|g| (g.metadata.namespace.clone(), g.metadata.name.clone())).collect();
    let mut best: Option<((Score, Age), HttpRouteRule, String)> = None;
    for route in store.list::<HttpRoute>(None) {
        let attached = route.status.parents.iter().any(|p| {
            let namespace = p.parent_ref.namespace.clone().unwrap_or_else(|| route.metadata.namespace.clone());
            p.controller_name == CONTROLLER
                && gateways.contains(&(namespace, p.parent_ref.name.clone()))
                && p.conditions.iter().any(|c| c.type_ == "Accepted" && c.status == "True")
        });
        let host_ok = route.spec.hostnames.is_empty() || route.spec.hostnames.iter().any(|h| hostname_matches(h, host));
        if !attached || !host_ok {
            continue;
        }
        let age = std::cmp::Reverse((
            route.metadata.creation_timestamp,
            format!("{}/{}", route.metadata.namespace, route.metadata.name),
        ));
        for rule in &route.spec.rules {
            let Some(score) = rule_score(rule, path_only, headers) else { continue };
            if best.as_ref().is_none_or(|(b, _, _)| (score, age.clone()) > *b) {
                best = Some(((score, age.clone()), rule.clone(), route.metadata.namespace.clone()));
            }
        }
    }
    let Some((_, rule, namespace)) = best else { return nginx(404, "Not Found") };
    forward(sim, &rule, &namespace, host, path, hops)
}

/// One backendRef by weight (all zero: 500, as the spec asks), then one of its ready endpoints.
fn forward(sim: &mut Sim, rule: &HttpRouteRule, namespace: &str, host: &str, path: &str, hops: u32) -> Answer {
    let total: u64 = rule.backend_refs.iter().map(|b| b.weight.unwrap_or(1).max(0) as u64).sum();
    if total == 0 {
        return nginx(500, "Internal Server Error");
    }
    let mut draw = sim.store_mut().random_below(Purpose::ServiceRouting, total);
    let backend = rule
        .backend_refs
        .iter()
        .find(|b| {
            let weight = b.weight.unwrap_or(1).max(0) as u64;
            if draw < weight {
                return true;
            }
            draw -= weight;
            false
        })
        .cloned();
    let Some(backend) = backend else { return nginx(500, "Internal Server Error") };
    let namespace = backend.namespace.clone().unwrap_or_else(|| namespace.to_string());
    let Some(service) = sim.store().try_get::<Service>(&namespace, &backend.name) else {
        return nginx(500, "Internal Server Error");
    };
    let rules = ServiceRules::build(sim.store(), service);
    let endpoints: Vec<_> = backend
        .port
        .and_then(|port| rules.port(port))
        .map(|p| usable(&p.backends, None).into_iter().cloned().collect())
        .unwrap_or_default();
    if endpoints.is_empty() {
        return nginx(502, "Bad Gateway");
    }
    let pick = sim.store_mut().random_below(Purpose::ServiceRouting, endpoints.len() as u64) as usize;
    let endpoint = &endpoints[pick];
    match connection::request_host(sim, &endpoint.ip, endpoint.port, path, Some(host), hops + 1) {
        Answer::Refused | Answer::Unreachable | Answer::Killed => nginx(502, "Bad Gateway"),
        answer => answer,
    }
}

fn nginx(status: u16, title: &str) -> Answer {
    let body = format!(
        "<html>\r\n<head><title>{status} {title}</title></head>\r\n<body>\r\n<center><h1>{status} {title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"
    );
    Answer::Http { status, body, latency: Duration::ZERO, pod: (NAMESPACE.to_string(), SERVICE.to_string()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(yaml: &str) -> HttpRouteRule {
        serde_yaml::from_str(yaml).unwrap()
    }

    #[test]
    fn hostnames_and_match_precedence_follow_the_spec() {
        assert!(hostname_matches("*.example.com", "shop.example.com"));
        assert!(hostname_matches("*.example.com", "a.b.example.com"), "Gateway API wildcards cover one or more labels");
        assert!(!hostname_matches("*.example.com", "example.com"));
        assert!(hostname_matches("Shop.Example.com", "shop.example.com"));
        let prefix = rule("matches: [{path: {type: PathPrefix, value: /api}}]");
        let exact = rule("matches: [{path: {type: Exact, value: /api}}]");
        let header =
            rule("matches: [{path: {type: PathPrefix, value: /api}, headers: [{name: X-Canary, value: always}]}]");
        let everything = rule("backendRefs: []");
        let canary = [("X-Canary".to_string(), "always".to_string())];
        let score = |r: &HttpRouteRule, path: &str, headers: &[(String, String)]| rule_score(r, path, headers);
        assert!(score(&exact, "/api", &[]) > score(&prefix, "/api", &[]), "an Exact path beats a prefix");
        assert!(score(&header, "/api/x", &canary) > score(&prefix, "/api/x", &canary), "more header matches win a tie");
        assert_eq!(score(&header, "/api/x", &[]), None);
        assert_eq!(score(&prefix, "/apiary", &[]), None, "PathPrefix matches whole elements");
        assert!(score(&everything, "/anything", &[]).is_some(), "no matches: every request");
    }
}
