//! The authorization.k8s.io/v1 and authentication.k8s.io/v1 review messages `kubectl auth
//! can-i` and `whoami` post: their specs (a posted status is the server's to fill, so its field
//! is left unread), and the TokenRequest `kubectl create token` posts.

use super::Card::{List, One, Opt};
use super::Ty::*;
use super::{Message, f};

// From k8s.io/api authorization/v1/generated.proto and authentication/v1/generated.proto.
pub(super) const MESSAGES: &[Message] = &[
    (
        "SelfSubjectAccessReview",
        &[f(1, "metadata", One, Msg("ObjectMeta")), f(2, "spec", One, Msg("SelfSubjectAccessReviewSpec"))],
    ),
    (
        "SelfSubjectAccessReviewSpec",
        &[
            f(1, "resourceAttributes", Opt, Msg("ResourceAttributes")),
            f(2, "nonResourceAttributes", Opt, Msg("NonResourceAttributes")),
        ],
    ),
    (
        "SubjectAccessReview",
        &[f(1, "metadata", One, Msg("ObjectMeta")), f(2, "spec", One, Msg("SubjectAccessReviewSpec"))],
    ),
    (
        "LocalSubjectAccessReview",
        &[f(1, "metadata", One, Msg("ObjectMeta")), f(2, "spec", One, Msg("SubjectAccessReviewSpec"))],
    ),
    (
        "SubjectAccessReviewSpec",
        &[
            f(1, "resourceAttributes", Opt, Msg("ResourceAttributes")),
            f(2, "nonResourceAttributes", Opt, Msg("NonResourceAttributes")),
            f(3, "user", Opt, Str),
            f(4, "groups", List, Str),
            f(6, "uid", Opt, Str),
        ],
    ),
    (
        "ResourceAttributes",
        &[
            f(1, "namespace", Opt, Str),
            f(2, "verb", Opt, Str),
            f(3, "group", Opt, Str),
            f(4, "version", Opt, Str),
            f(5, "resource", Opt, Str),
            f(6, "subresource", Opt, Str),
            f(7, "name", Opt, Str),
        ],
    ),
    ("NonResourceAttributes", &[f(1, "path", Opt, Str), f(2, "verb", Opt, Str)]),
    (
        "SelfSubjectRulesReview",
        &[f(1, "metadata", One, Msg("ObjectMeta")), f(2, "spec", One, Msg("SelfSubjectRulesReviewSpec"))],
    ),
    ("SelfSubjectRulesReviewSpec", &[f(1, "namespace", Opt, Str)]),
    ("SelfSubjectReview", &[f(1, "metadata", One, Msg("ObjectMeta"))]),
    ("TokenRequest", &[f(1, "metadata", One, Msg("ObjectMeta")), f(2, "spec", One, Msg("TokenRequestSpec"))]),
    ("TokenRequestSpec", &[f(1, "audiences", List, Str), f(4, "expirationSeconds", Opt, Int)]),
];
