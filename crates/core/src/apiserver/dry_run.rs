//! `dryRun=All`: a write admitted, validated and answered as if stored, on a copy of the store
//! that is then dropped. As upstream's `DryRunnableStorage` answers, nothing was written, so no
//! resourceVersion was spent: the answer carries the live object's (an update, a patch) or none
//! (a create) — which is why `kubectl diff` shows no resourceVersion line
//! (staging/src/k8s.io/apiserver/pkg/registry/generic/registry/dryrun.go).

use super::request::Request;
use super::response::Response;
use crate::api::meta::ResourceVersion;
use crate::error::ApiError;
use crate::store::Store;

/// Serves `request` with `serve` on a scratch copy of `store`.
pub fn serve(
    store: &Store,
    mut request: Request,
    serve: fn(&mut Store, Request) -> Result<Response, ApiError>,
) -> Result<Response, ApiError> {
    let live = request.resource.kind().and_then(|kind| {
        let object = store.get_object(kind, &request.namespace, &request.name).ok()?;
        Some(object.metadata().resource_version)
    });
    let mut scratch = store.clone();
    scratch.stop_trace();
    request.options.dry_run = false;
    let served = serve(&mut scratch, request);
    store.request_paths().carry_from(scratch.request_paths());
    // What admission warned about reaches the client, as for a write that is kept.
    store.warn(scratch.take_warnings());
    let mut response = served?;
    if let Response::Object(object) = &mut response {
        object.metadata_mut().resource_version = live.unwrap_or(ResourceVersion(0));
    }
    Ok(response)
}
