//! The networking.k8s.io/v1 messages: Ingress.

use super::Card::{List, One, Opt};
use super::Ty::*;
use super::{Message, f};

// From k8s.io/api networking/v1/generated.proto.
// Rows are (field number, JSON name, cardinality, type), field for field.
pub(super) const MESSAGES: &[Message] = &[
    (
        "Ingress",
        &[
            f(1, "metadata", One, Msg("ObjectMeta")),
            f(2, "spec", One, Msg("IngressSpec")),
            f(3, "status", One, Msg("IngressStatus")),
        ],
    ),
    (
        "IngressSpec",
        &[
            f(1, "defaultBackend", One, Msg("IngressBackend")),
            f(2, "tls", List, Msg("IngressTLS")),
            f(3, "rules", List, Msg("IngressRule")),
            f(4, "ingressClassName", One, Str),
        ],
    ),
    (
        "IngressBackend",
        &[f(3, "resource", One, Msg("TypedLocalObjectReference")), f(4, "service", One, Msg("IngressServiceBackend"))],
    ),
    ("IngressServiceBackend", &[f(1, "name", One, Str), f(2, "port", One, Msg("ServiceBackendPort"))]),
    ("ServiceBackendPort", &[f(1, "name", Opt, Str), f(2, "number", Opt, Int)]),
    ("IngressTLS", &[f(1, "hosts", List, Str), f(2, "secretName", Opt, Str)]),
    ("IngressRule", &[f(1, "host", Opt, Str), f(2, "", One, Inline("IngressRuleValue"))]),
    ("IngressRuleValue", &[f(1, "http", One, Msg("HTTPIngressRuleValue"))]),
    ("HTTPIngressRuleValue", &[f(1, "paths", List, Msg("HTTPIngressPath"))]),
    (
        "HTTPIngressPath",
        &[f(1, "path", Opt, Str), f(2, "backend", One, Msg("IngressBackend")), f(3, "pathType", One, Str)],
    ),
    ("IngressStatus", &[f(1, "loadBalancer", One, Msg("IngressLoadBalancerStatus"))]),
    ("IngressLoadBalancerStatus", &[f(1, "ingress", List, Msg("IngressLoadBalancerIngress"))]),
    (
        "IngressLoadBalancerIngress",
        &[f(1, "ip", Opt, Str), f(2, "hostname", Opt, Str), f(4, "ports", List, Msg("IngressPortStatus"))],
    ),
    ("IngressPortStatus", &[f(1, "port", One, Int), f(2, "protocol", One, Str), f(3, "error", One, Str)]),
];
