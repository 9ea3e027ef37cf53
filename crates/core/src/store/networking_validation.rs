//! Validation and admission of the networking.k8s.io kinds (pkg/apis/networking/validation and
//! the DefaultIngressClass admission plugin), worded as upstream's field errors:
//! `spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified`; and
//! what the Gateway API CRDs' schemas check (their OpenAPI and CEL rules), in the apiextensions
//! server's words.

use super::Store;
use super::validation::is_dns1123_subdomain;
use crate::api::ingress::Ingress;
use crate::api::ingress::{HttpIngressPath, IngressBackend};
use crate::api::ingress_class::IngressClass;
use crate::api::{Gateway, HttpRoute};
use crate::error::{FieldError, go_quote};

const PATH_TYPES: [&str; 3] = ["Exact", "ImplementationSpecific", "Prefix"];
const INVALID_SEQUENCES: [&str; 4] = ["//", "/./", "/../", "%2f"];
const INVALID_SUFFIXES: [&str; 2] = ["/..", "/."];

/// DefaultIngressClass: an Ingress that names no class gets the default one (the newest, when
/// several are marked default).
pub fn default_ingress_class(ingress: &mut Ingress, store: &Store) {
    if ingress.spec.ingress_class_name.is_some()
        || ingress.metadata.annotations.get("kubernetes.io/ingress.class").is_some()
    {
        return;
    }
    let newest = store
        .list::<IngressClass>(None)
        .filter(|c| c.is_default())
        .max_by_key(|c| (c.metadata.creation_timestamp.map(|t| t.0), c.metadata.name.clone()));
    ingress.spec.ingress_class_name = newest.map(|c| c.metadata.name.clone());
}

pub fn ingress(ingress: &Ingress) -> Vec<FieldError> {
    let spec = &ingress.spec;
    let mut causes = Vec::new();
    if spec.rules.is_empty() && spec.default_backend.is_none() {
        causes.push(FieldError::invalid(
            "spec",
            "[]networking.IngressRule(nil)",
            "either `defaultBackend` or `rules` must be specified",
        ));
    }
    if let Some(backend) = &spec.default_backend {
        causes.extend(backend_problems(backend, "spec.defaultBackend"));
    }
    for (i, rule) in spec.rules.iter().enumerate() {
        let at = format!("spec.rules[{i}]");
        if let Some(host) = rule.host.as_deref().filter(|h| !h.is_empty()) {
            causes.extend(host_problems(host, &format!("{at}.host"), true));
        }
        let Some(http) = &rule.http else { continue };
        if http.paths.is_empty() {
            causes.push(FieldError::required(format!("{at}.http.paths"), ""));
        }
        for (j, path) in http.paths.iter().enumerate() {
            causes.extend(path_problems(path, &format!("{at}.http.paths[{j}]")));
        }
    }
    for (i, tls) in spec.tls.iter().enumerate() {
        for (j, host) in tls.hosts.iter().enumerate() {
            causes.extend(host_problems(host, &format!("spec.tls[{i}].hosts[{j}]"), false));
        }
        if let Some(secret) = tls.secret_name.as_deref().filter(|s| !s.is_empty() && !is_dns1123_subdomain(s)) {
            causes.push(FieldError::invalid(format!("spec.tls[{i}].secretName"), go_quote(secret), SUBDOMAIN));
        }
    }
    if let Some(class) = spec.ingress_class_name.as_deref().filter(|c| !is_dns1123_subdomain(c)) {
        causes.push(FieldError::invalid("spec.ingressClassName", go_quote(class), SUBDOMAIN));
    }
    causes
}

const SUBDOMAIN: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const WILDCARD: &str = "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

fn host_problems(host: &str, field: &str, rule: bool) -> Vec<FieldError> {
    let mut causes = Vec::new();
    if rule && host.parse::<std::net::IpAddr>().is_ok() {
        causes.push(FieldError::invalid(field, go_quote(host), "must be a DNS name, not an IP address"));
    }
    if host.contains('*') {
        let valid = host.strip_prefix("*.").is_some_and(is_dns1123_subdomain);
        if !valid {
            causes.push(FieldError::invalid(field, go_quote(host), WILDCARD));
        }
    } else if !is_dns1123_subdomain(host) {
        causes.push(FieldError::invalid(field, go_quote(host), SUBDOMAIN));
    }
    causes
}

fn path_problems(path: &HttpIngressPath, at: &str) -> Vec<FieldError> {
    let Some(path_type) = path.path_type.as_deref() else {
        return vec![FieldError::required(format!("{at}.pathType"), "pathType must be specified")];
    };
    let mut causes = Vec::new();
    let text = path.path.as_deref().unwrap_or("");
    let field = format!("{at}.path");
    match path_type {
        "Exact" | "Prefix" => {
            if !text.starts_with('/') {
                causes.push(FieldError::invalid(&field, go_quote(text), "must be an absolute path"));
            }
            for sequence in INVALID_SEQUENCES.iter().filter(|s| !text.is_empty() && text.contains(**s)) {
                causes.push(FieldError::invalid(&field, go_quote(text), format!("must not contain '{sequence}'")));
            }
            for suffix in INVALID_SUFFIXES.iter().filter(|s| !text.is_empty() && text.ends_with(**s)) {
                causes.push(FieldError::invalid(&field, go_quote(text), format!("cannot end with '{suffix}'")));
            }
        }
        "ImplementationSpecific" => {
            if !text.is_empty() && !text.starts_with('/') {
                causes.push(FieldError::invalid(&field, go_quote(text), "must be an absolute path"));
            }
        }
        other => causes.push(FieldError::not_supported(format!("{at}.pathType"), other, &PATH_TYPES)),
    }
    causes.extend(backend_problems(&path.backend, &format!("{at}.backend")));
    causes
}

fn backend_problems(backend: &IngressBackend, at: &str) -> Vec<FieldError> {
    match (&backend.service, &backend.resource) {
        (Some(_), Some(_)) => vec![FieldError::invalid(at, "\"\"", "cannot set both resource and service backends")],
        (None, None) => vec![FieldError::invalid(at, "\"\"", "resource or service backend is required")],
        (None, Some(_)) => Vec::new(),
        (Some(service), None) => {
            let mut causes = Vec::new();
            if service.name.is_empty() {
                causes.push(FieldError::required(format!("{at}.service.name"), ""));
            }
            match (service.port.name.as_deref().filter(|n| !n.is_empty()), service.port.number.filter(|n| *n != 0)) {
                (Some(_), Some(_)) => {
                    causes.push(FieldError::invalid(at, "\"\"", "cannot set both port name & port number"))
                }
                (None, Some(number)) if !(1..=65535).contains(&number) => causes.push(FieldError::invalid(
                    format!("{at}.service.port.number"),
                    number.to_string(),
                    "must be between 1 and 65535, inclusive",
                )),
                (None, None) => causes.push(FieldError::required(at, "port name or number is required")),
                _ => {}
            }
            causes
        }
    }
}

pub fn ingress_class(class: &IngressClass, old: Option<&IngressClass>) -> Vec<FieldError> {
    let mut causes = Vec::new();
    match class.spec.controller.as_deref() {
        None | Some("") => causes.push(FieldError::required("spec.controller", "")),
        Some(controller) if controller.len() > 250 => {
            let kind = crate::error::FieldErrorKind::TooLong { value: "may not be more than 250 bytes".into() };
            causes.push(FieldError { field: "spec.controller".into(), kind, detail: String::new() });
        }
        _ => {}
    }
    if let Some(old) = old
        && old.spec.controller != class.spec.controller
    {
        causes.push(FieldError::invalid(
            "spec.controller",
            go_quote(class.spec.controller.as_deref().unwrap_or("")),
            "field is immutable",
        ));
    }
    causes
}

/// The Gateway CRD's rules: one listener at least, unique names, ports 1–65535, known protocols.
pub fn gateway(gateway: &Gateway) -> Vec<FieldError> {
    let mut causes = Vec::new();
    let listeners = &gateway.spec.listeners;
    if gateway.spec.gateway_class_name.is_empty() {
        causes.push(FieldError::required("spec.gatewayClassName", ""));
    }
    if listeners.is_empty() {
        causes.push(FieldError::invalid("spec.listeners", "[]", "spec.listeners in body should have at least 1 items"));
    }
    for (i, listener) in listeners.iter().enumerate() {
        if !(1..=65535).contains(&listener.port) {
            causes.push(FieldError::invalid(
                format!("spec.listeners[{i}].port"),
                listener.port.to_string(),
                "spec.listeners[{i}].port in body should be greater than or equal to 1".replace("{i}", &i.to_string()),
            ));
        }
        if listeners[..i].iter().any(|l| l.name == listener.name) {
            causes.push(FieldError::invalid(
                "spec.listeners",
                "\"object\"",
                "Listener name must be unique within the Gateway",
            ));
        }
    }
    causes
}

/// The HTTPRoute CRD's rules: backend weights 0–1,000,000, a port for Service backends.
pub fn http_route(route: &HttpRoute) -> Vec<FieldError> {
    let mut causes = Vec::new();
    for (i, rule) in route.spec.rules.iter().enumerate() {
        for (j, backend) in rule.backend_refs.iter().enumerate() {
            let at = format!("spec.rules[{i}].backendRefs[{j}]");
            if let Some(weight) = backend.weight.filter(|w| !(0..=1_000_000).contains(w)) {
                causes.push(FieldError::invalid(
                    format!("{at}.weight"),
                    weight.to_string(),
                    format!("{at}.weight in body should be less than or equal to 1000000"),
                ));
            }
            let is_service = backend.kind.as_deref().is_none_or(|k| k == "Service")
                && backend.group.as_deref().is_none_or(str::is_empty);
            if is_service && backend.port.is_none() {
                causes.push(FieldError::invalid(at.clone(), "\"object\"", "Must have port for Service reference"));
            }
        }
    }
    causes
}
