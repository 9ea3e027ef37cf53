//! The scheduling.k8s.io/v1 messages: PriorityClass.

use super::Card::{One, Opt};
use super::Ty::*;
use super::{Message, f};

// From k8s.io/api scheduling/v1/generated.proto.
// Rows are (field number, JSON name, cardinality, type), field for field.
pub(super) const MESSAGES: &[Message] = &[(
    "PriorityClass",
    &[
        f(1, "metadata", One, Msg("ObjectMeta")),
        f(2, "value", One, Int),
        f(3, "globalDefault", Opt, Bool),
        f(4, "description", Opt, Str),
        f(5, "preemptionPolicy", One, Str),
    ],
)];
