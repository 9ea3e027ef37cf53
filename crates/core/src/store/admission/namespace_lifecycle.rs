//! `NamespaceLifecycle` (plugin/pkg/admission/namespace/lifecycle): nothing new is created in
//! a namespace that does not exist or is being terminated.

use super::{Operation, Plugin, Request};
use crate::api::ObjectMut;
use crate::error::ApiError;
use crate::store::Store;

// Upstream implements it as `Admit` (a mutating plugin that changes nothing), so it runs
// first and a request into a missing namespace fails before any other plugin looks at it.
pub const PLUGIN: Plugin = Plugin { name: "NamespaceLifecycle", admit: Some(admit), validate: None };

fn admit(store: &Store, request: &Request<'_>, _: &mut ObjectMut<'_>) -> Result<(), ApiError> {
    // Namespaces themselves, and cluster-scoped kinds, are not inside one.
    if request.operation != Operation::Create || !request.kind.info().namespaced || request.namespace.is_empty() {
        return Ok(());
    }
    match store.try_get::<crate::api::Namespace>("", request.namespace) {
        None => Err(ApiError::not_found("namespaces", request.namespace)),
        Some(ns) if ns.metadata.deletion_timestamp.is_some() => Err(ApiError::Forbidden {
            message: format!(
                "unable to create new content in namespace {} because it is being terminated",
                request.namespace
            ),
        }),
        Some(_) => Ok(()),
    }
}
