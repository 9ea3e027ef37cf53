//! Serving one request: the user it is made as, authorization, then the registry (the store's
//! create, update, patch and delete run the admission chain), as kube-apiserver's handler
//! chain does (`staging/src/k8s.io/apiserver/pkg/endpoints/handlers`).

use super::dry_run;
use super::field_manager;
use super::field_validation;
use super::patch::{self, PatchType};
use super::recording;
use super::request::{Request, Verb};
use super::response::{ObjectList, Response, Status, WatchStart};
use crate::api::{Kind, Object};
use crate::error::ApiError;
use crate::store::{Store, kinds};

/// Serves `request` as its user; the store's user is the caller's again afterwards.
pub fn handle(store: &mut Store, request: Request) -> Response {
    let caller = store.act_as(request.user.clone());
    let (recorded, verb) = (recording::begin(store, &request), request.verb);
    let response = serve(store, request).unwrap_or_else(|error| Response::Status(Status(error)));
    if recorded {
        recording::finish(store, verb, &response);
    }
    store.act_as(caller);
    response
}

fn serve(store: &mut Store, mut request: Request) -> Result<Response, ApiError> {
    let kind = request.resource.kind().ok_or_else(|| not_served(&request))?;
    if !store.serves(kind) {
        return Err(ApiError::NotServed);
    }
    if !kind.info().namespaced {
        request.namespace.clear();
    }
    if request.options.dry_run && !matches!(request.verb, Verb::Get | Verb::List | Verb::Watch) {
        return dry_run::serve(store, request, serve);
    }
    let (namespace, name) = (request.namespace.as_str(), request.name.as_str());
    match request.verb {
        Verb::Get | Verb::List => Ok(read(store, &request)),
        Verb::Watch => {
            store.authorize("watch", kind, namespace, "", "")?;
            store.snapshots_mut().open(kind);
            Ok(Response::Watch(WatchStart { kind, resource_version: store.resource_version() }))
        }
        Verb::Create if request.subresource == "eviction" && kind == Kind::Pod => {
            store.evict(namespace, name, &request.options.delete).map(Response::Deleted)
        }
        Verb::Create => {
            let mut object = body_for(&mut request, kind)?;
            field_manager::on_write(store, &request, kind, &mut object);
            store.create_object(object).map(Response::Object)
        }
        Verb::Update => {
            let status = request.subresource == "status";
            let mut object = body_for(&mut request, kind)?;
            field_manager::on_write(store, &request, kind, &mut object);
            if status { kinds::dispatch_update_status(store, object) } else { store.update_object(object) }
                .map(Response::Object)
        }
        Verb::Patch => {
            let patch = request.options.patch.take().ok_or_else(|| bad_request("a patch needs a body"))?;
            let status = request.subresource == "status";
            // A merge patch that may drop unknown fields is decoded as the other patches are.
            let strict = request.options.field_validation == field_validation::FieldValidation::Strict;
            let asked = ("patch", kind, namespace, name, request.subresource.as_str());
            store
                .authorized_write(asked, |store| match request.options.patch_type {
                    PatchType::Merge if strict => {
                        let patch = field_manager::merge_patch_with_managed_fields(store, &request, kind, patch);
                        let (namespace, name) = (request.namespace.as_str(), request.name.as_str());
                        kinds::dispatch_merge_patch(store, (kind, namespace, name), &patch, status)
                    }
                    PatchType::Apply if !status => apply(store, &request, kind, &patch),
                    _ => patch_live(store, &request, kind, &patch),
                })
                .map(Response::Object)
        }
        Verb::Delete => store.delete_object(kind, namespace, name, &request.options.delete).map(Response::Deleted),
    }
}

/// A strategic or JSON patch (or an apply to status): applied to the live object, which is
/// then updated as a whole (conflicting with a write in between, as upstream's patcher
/// retries).
fn patch_live(store: &mut Store, request: &Request, kind: Kind, patch: &serde_json::Value) -> Result<Object, ApiError> {
    let (namespace, name) = (request.namespace.as_str(), request.name.as_str());
    let live = store.get_object(kind, namespace, name)?;
    let patched = patch::apply(request.options.patch_type, &live.to_json_value(), patch)?;
    let (mut object, dropped) = field_validation::decode(patched, request.options.field_validation)?;
    store.warn(dropped);
    if object.metadata().name != name {
        return Err(bad_request("the name of the object (patched) does not match the name on the URL"));
    }
    if same_but_managed_fields(&object, &live) {
        // Nothing changes: nothing is written and no resourceVersion spent, as etcd3's
        // GuaranteedUpdate skips a no-op (so kubectl says `patched (no change)`).
        return Ok(live);
    }
    field_manager::on_patched(store, request, kind, &live, &mut object);
    if request.subresource == "status" {
        kinds::dispatch_update_status(store, object)
    } else {
        store.update_object(object)
    }
}

/// Whether two objects differ in nothing but their managed fields.
fn same_but_managed_fields(a: &Object, b: &Object) -> bool {
    let without = |object: &Object| {
        let mut value = object.to_json_value();
        if let Some(meta) = value.get_mut("metadata").and_then(serde_json::Value::as_object_mut) {
            meta.remove("managedFields");
        }
        value
    };
    without(a) == without(b)
}

/// Server-side apply: the configuration merged into the live object by its field manager
/// (created when absent).
fn apply(store: &mut Store, request: &Request, kind: Kind, config: &serde_json::Value) -> Result<Object, ApiError> {
    let live = match store.get_object(kind, &request.namespace, &request.name) {
        Ok(live) => Some(live),
        Err(ApiError::NotFound { .. }) => None,
        Err(error) => return Err(error),
    };
    let mut object = field_manager::apply(store, request, kind, live.as_ref(), config)?;
    if object.metadata().name != request.name {
        return Err(bad_request("the name of the object (patched) does not match the name on the URL"));
    }
    if let Some(live) = live {
        // Applying what is already there (managed fields included) writes nothing.
        return if object == live { Ok(live) } else { store.update_object(object) };
    }
    if object.metadata().namespace.is_empty() && kind.info().namespaced {
        object.metadata_mut().namespace = request.namespace.clone();
    }
    store.create_object(object)
}

/// Serves a read (get or list) on a store it does not change: a lesson check, a view.
pub fn read(store: &Store, request: &Request) -> Response {
    let recorded = recording::begin(store, request);
    let response = read_unrecorded(store, request);
    if recorded {
        recording::finish(store, request.verb, &response);
    }
    response
}

fn read_unrecorded(store: &Store, request: &Request) -> Response {
    let served = request.resource.kind().ok_or_else(|| not_served(request)).and_then(|kind| {
        if !store.serves(kind) {
            return Err(ApiError::NotServed);
        }
        let namespace = if kind.info().namespaced { request.namespace.as_str() } else { "" };
        match request.verb {
            Verb::Get => {
                store.authorize_as(&request.user, ("get", kind), namespace, &request.name, &request.subresource)?;
                store.get_object(kind, namespace, &request.name).map(Response::Object)
            }
            Verb::List => list(store, request, kind, namespace).map(Response::List),
            _ => Err(ApiError::MethodNotAllowed { message: format!("{} is not a read", request.verb.as_str()) }),
        }
    });
    served.unwrap_or_else(|error| Response::Status(Status(error)))
}

fn not_served(request: &Request) -> ApiError {
    ApiError::NotFound { resource: request.resource.resource.clone(), name: request.name.clone() }
}

/// The body of a create or update, checked against the URL it was sent to.
fn body_for(request: &mut Request, kind: Kind) -> Result<Object, ApiError> {
    let mut object = request.body.take().ok_or_else(|| bad_request("the request has no body"))?;
    if object.kind() != kind {
        let sent = object.kind().info().kind_name;
        return Err(bad_request(&format!(
            "the API version in the data ({sent}) does not match the expected API version"
        )));
    }
    let meta = object.metadata_mut();
    if !request.namespace.is_empty() {
        if meta.namespace.is_empty() {
            meta.namespace = request.namespace.clone();
        } else if meta.namespace != request.namespace {
            return Err(bad_request(
                "the namespace of the provided object does not match the namespace sent on the request",
            ));
        }
    }
    if !request.name.is_empty() && meta.name != request.name {
        return Err(bad_request("the name of the object does not match the name on the URL"));
    }
    Ok(object)
}

/// A list, filtered by selectors, one page at a time when `limit` is set. The continue token
/// names the last item of the page (upstream encodes the same key with the list's
/// resourceVersion; here a page resumes after it).
fn list(store: &Store, request: &Request, kind: Kind, namespace: &str) -> Result<ObjectList, ApiError> {
    store.authorize_as(&request.user, ("list", kind), namespace, "", "")?;
    let namespace = (!namespace.is_empty()).then_some(namespace);
    let options = &request.options;
    let after = match &options.continue_token {
        Some(token) => Some(token.split_once('/').ok_or_else(|| bad_request("continue key is not valid"))?),
        None => None,
    };
    let selectors = (&options.label_selector, &options.field_selector);
    let limit = options.limit.filter(|l| *l > 0);
    let (items, more) = kinds::dispatch_list_page(store, (kind, namespace), selectors, after, limit);
    let continue_token = more.then(|| items.last().map(|o| format!("{}/{}", key(o).0, key(o).1))).flatten();
    Ok(ObjectList { kind, items, resource_version: store.resource_version(), continue_token })
}

/// Where an object sorts in a list: namespace, then name.
fn key(object: &Object) -> (&str, &str) {
    let meta = object.metadata();
    (&meta.namespace, &meta.name)
}

fn bad_request(message: &str) -> ApiError {
    ApiError::BadRequest { message: message.to_string() }
}
