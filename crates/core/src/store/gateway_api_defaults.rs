//! The defaults the Gateway API CRDs' schemas declare (`+kubebuilder:default` in
//! sigs.k8s.io/gateway-api/apis/v1), applied as the API server's structural defaulting applies
//! them on create and update, so `kubectl get httproute -o yaml` shows what a real cluster stores.

use crate::api::gateway::Gateway;
use crate::api::http_route::{HttpPathMatch, HttpRoute, HttpRouteMatch, HttpRouteRule, ParentReference};
use serde_json::{Value, json};

const GROUP: &str = "gateway.networking.k8s.io";

fn set(field: &mut Option<String>, value: &str) {
    if field.is_none() {
        *field = Some(value.to_string());
    }
}

/// `path: {type: PathPrefix, value: /}`, the match of a rule that names none.
fn prefix_root() -> HttpPathMatch {
    HttpPathMatch { type_: Some("PathPrefix".into()), value: Some("/".into()) }
}

fn parent_ref(parent: &mut ParentReference) {
    set(&mut parent.group, GROUP);
    set(&mut parent.kind, "Gateway");
}

pub fn http_route(route: &mut HttpRoute) {
    let spec = &mut route.spec;
    spec.parent_refs.iter_mut().for_each(parent_ref);
    if spec.rules.is_empty() {
        spec.rules.push(HttpRouteRule::default());
    }
    for rule in &mut spec.rules {
        if rule.matches.is_empty() {
            rule.matches.push(HttpRouteMatch::default());
        }
        for m in &mut rule.matches {
            let path = m.path.get_or_insert_with(prefix_root);
            set(&mut path.type_, "PathPrefix");
            set(&mut path.value, "/");
            m.headers.iter_mut().for_each(|h| set(&mut h.type_, "Exact"));
        }
        for backend in &mut rule.backend_refs {
            set(&mut backend.group, "");
            set(&mut backend.kind, "Service");
            backend.weight.get_or_insert(1);
        }
    }
}

pub fn gateway(gateway: &mut Gateway) {
    for listener in &mut gateway.spec.listeners {
        let allowed = listener.allowed_routes.get_or_insert_with(|| json!({}));
        if let Value::Object(allowed) = allowed {
            let namespaces = allowed.entry("namespaces").or_insert_with(|| json!({}));
            if let Value::Object(namespaces) = namespaces {
                namespaces.entry("from").or_insert_with(|| json!("Same"));
            }
        }
        if let Some(Value::Object(tls)) = &mut listener.tls {
            tls.entry("mode").or_insert_with(|| json!("Terminate"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_route_gets_the_schema_defaults() {
        let mut route: HttpRoute = serde_yaml::from_str(
            "metadata: {name: web}\nspec:\n  parentRefs: [{name: gw}]\n  rules:\n  - backendRefs: [{name: web, port: 80}]\n",
        )
        .unwrap();
        http_route(&mut route);
        assert_eq!(
            serde_json::to_string(&route.spec).unwrap(),
            r#"{"parentRefs":[{"group":"gateway.networking.k8s.io","kind":"Gateway","name":"gw"}],"rules":[{"matches":[{"path":{"type":"PathPrefix","value":"/"}}],"backendRefs":[{"group":"","kind":"Service","name":"web","port":80,"weight":1}]}]}"#
        );
    }

    #[test]
    fn a_listener_admits_routes_from_its_own_namespace_unless_told() {
        let mut gw: Gateway = serde_yaml::from_str(
            "metadata: {name: gw}\nspec:\n  gatewayClassName: nginx\n  listeners:\n  - {name: http, port: 80, protocol: HTTP}\n  - {name: all, port: 81, protocol: HTTP, allowedRoutes: {namespaces: {from: All}}}\n",
        )
        .unwrap();
        gateway(&mut gw);
        let from: Vec<_> = gw
            .spec
            .listeners
            .iter()
            .map(|l| l.allowed_routes.as_ref().unwrap()["namespaces"]["from"].clone())
            .collect();
        assert_eq!(from, [json!("Same"), json!("All")]);
    }
}
