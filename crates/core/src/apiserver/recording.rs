//! The door's part in recording a request's way through the gates (`store/request_path.rs`):
//! the method and URL a request arrives as (`GET /api/v1/namespaces/default/pods`), opened
//! before the gates and closed with the answer's status, as kube-apiserver's handler chain
//! sees a request from its first filter to the response writer.

use super::request::{Request, Verb};
use super::response::{Response, Status};
use crate::error::ApiError;
use crate::store::request_path::{self, RequestPath};
use crate::store::{Store, UserInfo};

/// The HTTP method a verb is sent as.
pub fn method(verb: Verb) -> &'static str {
    match verb {
        Verb::Get | Verb::List | Verb::Watch => "GET",
        Verb::Create => "POST",
        Verb::Update => "PUT",
        Verb::Patch => "PATCH",
        Verb::Delete => "DELETE",
    }
}

/// The URL path a request names: `/api/v1/…` for the core group, `/apis/GROUP/VERSION/…` else.
pub fn url_path(request: &Request) -> String {
    let resource = &request.resource;
    let namespace = namespace_in_url(request);
    let mut path = if resource.group.is_empty() {
        format!("/api/{}", resource.version)
    } else {
        format!("/apis/{}/{}", resource.group, resource.version)
    };
    if !namespace.is_empty() {
        path.push_str(&format!("/namespaces/{namespace}"));
    }
    path.push('/');
    path.push_str(&resource.resource);
    for part in [&request.name, &request.subresource] {
        if !part.is_empty() {
            path.push('/');
            path.push_str(part);
        }
    }
    path
}

/// The namespace a client names in the URL: a create of a namespaced object is sent to its
/// namespace, `default` when it names none (the client's context namespace).
fn namespace_in_url(request: &Request) -> &str {
    if !request.namespace.is_empty() || request.verb != Verb::Create {
        return &request.namespace;
    }
    let namespaced = request.resource.kind().is_some_and(|kind| kind.info().namespaced);
    match &request.body {
        Some(body) if namespaced && !body.metadata().namespace.is_empty() => &body.metadata().namespace,
        _ if namespaced => "default",
        _ => "",
    }
}

/// The query parameters the request's options carry, by name.
pub fn query(request: &Request) -> Vec<(String, String)> {
    let options = &request.options;
    let mut query = Vec::new();
    let mut add = |key: &str, value: String| query.push((key.to_string(), value));
    if options.dry_run {
        add("dryRun", "All".into());
    }
    if let Some(manager) = &options.field_manager {
        add("fieldManager", manager.clone());
    }
    if !options.field_selector.is_empty() {
        add("fieldSelector", options.field_selector.to_string());
    }
    if options.force {
        add("force", "true".into());
    }
    if !options.label_selector.is_empty() {
        add("labelSelector", options.label_selector.to_string());
    }
    if let Some(limit) = options.limit {
        add("limit", limit.to_string());
    }
    if let Some(token) = &options.continue_token {
        add("continue", token.clone());
    }
    query
}

/// Opens the request's record when the store records paths; true when this call opened it.
pub fn begin(store: &Store, request: &Request) -> bool {
    if !store.request_paths().recording() {
        return false;
    }
    let user = &request.user;
    store.request_paths().begin(RequestPath {
        method: method(request.verb),
        path: url_path(request),
        query: query(request),
        verb: request.verb.as_str(),
        user: user.name.clone(),
        groups: user.groups.clone(),
        authenticated_by: request_path::authenticated_by(user).to_string(),
        authorization: None,
        admission: Vec::new(),
        validation: None,
        storage: None,
        status: 0,
        refused: None,
        error_status: None,
    })
}

/// Closes the record with the answer: `201 Created` for a create, `200 OK` for the rest, or
/// the error's status and the Status it was sent as.
pub fn finish(store: &Store, verb: Verb, response: &Response) {
    match response {
        Response::Status(status @ Status(error)) => {
            store.request_paths().finish(status.code(), Some(error), Some(status.to_json()));
        }
        Response::Object(_) if verb == Verb::Create => store.request_paths().finish(201, None, None),
        Response::Object(object) if verb == Verb::Get => {
            let read = format!("read at resourceVersion {}", object.metadata().resource_version.0);
            store.request_paths().update(|path| path.storage = Some(Ok(read)));
            store.request_paths().finish(200, None, None);
        }
        Response::List(list) => {
            let read = format!("listed {} at resourceVersion {}", list.items.len(), list.resource_version);
            store.request_paths().update(|path| path.storage = Some(Ok(read)));
            store.request_paths().finish(200, None, None);
        }
        _ => store.request_paths().finish(200, None, None),
    }
}

/// Records a request the lab serves beside the door (a pod's `log` subresource, read from its
/// node): authenticated as `user`, answered `200 OK` or with `error`.
pub fn note(store: &Store, user: &UserInfo, (path, query): (String, Vec<(String, String)>), error: Option<&ApiError>) {
    if !store.request_paths().recording() {
        return;
    }
    store.request_paths().begin(RequestPath {
        method: "GET",
        path,
        query,
        verb: "get",
        user: user.name.clone(),
        groups: user.groups.clone(),
        authenticated_by: request_path::authenticated_by(user).to_string(),
        authorization: None,
        admission: Vec::new(),
        validation: None,
        storage: None,
        status: 0,
        refused: None,
        error_status: None,
    });
    match error {
        Some(error) => {
            // The API server passes the kubelet's refusal on as a Status without its type
            // (`kind`, `apiVersion`), as kubectl -v=6 shows it.
            let status = Status(error.clone());
            let mut body = status.to_json();
            if let Some(fields) = body.as_object_mut() {
                fields.remove("kind");
                fields.remove("apiVersion");
            }
            store.request_paths().finish(status.code(), Some(error), Some(body));
        }
        None => store.request_paths().finish(200, None, None),
    }
}
