//! The API over HTTP, as kube-apiserver serves it to kubectl, client-go and the Python client:
//! a method, a path, a query string, the Accept and Content-Type headers and a body in; a
//! status code, a content type and a JSON body out. Pure, like the rest of the core: the
//! server moves the bytes, this decides what they say (discovery, resources as objects, lists
//! or server-side printed Tables, patches by Content-Type, watches' starting points, and
//! `Status` errors with upstream's reasons and codes).

pub mod aggregated_discovery;
pub mod body;
pub mod discovery;
pub mod eviction;
pub mod exec;
pub mod health;
pub mod log;
pub mod metrics;
pub mod openapi;
pub mod path;
pub mod query;
pub mod reviews;
pub mod scale;
pub mod table;
pub mod watch;

use super::field_validation::{self, FieldValidation};
use super::managed_fields;
use super::patch::PatchType;
use super::request::{GroupVersionResource, Request, Verb};
use super::response::{ObjectList, Response, Status, WatchStart};
use crate::api::{Kind, Object};
use crate::controllers::control_plane::{Component, etcd_timeout_status};
use crate::error::ApiError;
use crate::sim::Sim;
use crate::store::{Deleted, UserInfo};
use path::{ResourcePath, Target};
use query::Query;
use serde_json::{Value, json};
use std::sync::Arc;
use table::IncludeObject;

/// A request as it arrived.
#[derive(Clone, Copy, Debug, Default)]
pub struct HttpRequest<'a> {
    pub method: &'a str,
    pub path: &'a str,
    pub query: &'a str,
    pub accept: &'a str,
    pub content_type: &'a str,
    pub body: &'a [u8],
}

impl HttpRequest<'_> {
    /// Whether serving it may change the lab (reads may be served from a snapshot).
    pub fn is_write(&self) -> bool {
        !matches!(self.method, "GET" | "HEAD" | "OPTIONS")
    }

    fn wants_table(&self) -> bool {
        self.accept.split(',').any(|media| media.contains("as=Table"))
    }
}

/// The answer: a body, and what the server streams after it (a watch's events, a followed
/// log's lines).
#[derive(Clone, Debug, PartialEq)]
pub struct HttpResponse {
    pub status: u16,
    pub content_type: &'static str,
    pub body: String,
    pub stream: Option<Stream>,
    /// `Warning` headers' texts (an unknown field dropped under `fieldValidation=Warn`).
    pub warnings: Vec<String>,
}

/// What a response goes on streaming.
#[derive(Clone, Debug, PartialEq)]
pub enum Stream {
    Watch(WatchRequest),
    Log(log::LogFollow),
}

impl HttpResponse {
    fn json(status: u16, body: &Value) -> HttpResponse {
        HttpResponse {
            status,
            content_type: "application/json",
            body: body.to_string(),
            stream: None,
            warnings: Vec::new(),
        }
    }

    pub fn from_error(error: ApiError) -> HttpResponse {
        let status = Status(error);
        HttpResponse::json(status.code(), &status.to_json())
    }
}

/// A watch the server streams: which objects, from which resourceVersion, in what form.
#[derive(Clone, Debug, PartialEq)]
pub struct WatchRequest {
    pub kind: Kind,
    pub namespace: String,
    pub name: String,
    pub query: Query,
    pub table: bool,
    pub after: u64,
}

/// Serves one request as `user`.
pub fn serve(sim: &mut Sim, user: Arc<UserInfo>, request: &HttpRequest<'_>) -> HttpResponse {
    if let Some(answer) = health::serve(sim.control_plane(), request.path, request.query) {
        return answer;
    }
    let Some(target) = path::parse(request.path) else { return not_found_path() };
    if let Some(node) = user.node_name().filter(|_| request.method == "POST" && request.path == "/api/v1/nodes") {
        // A real machine's kubelet registering: the simulation must not run that node too.
        sim.register_external(node);
    }
    let store = sim.store();
    if request.method == "GET" && aggregated_discovery::wanted(request.accept) {
        let aggregated = match &target {
            Target::CoreVersions => Some(aggregated_discovery::core(store)),
            Target::Groups => Some(aggregated_discovery::groups(store)),
            _ => None,
        };
        if let Some(document) = aggregated {
            let mut answer = HttpResponse::json(200, &document);
            answer.content_type = aggregated_discovery::MEDIA_TYPE;
            return answer;
        }
    }
    if is_metrics_discovery(&target)
        && let Some(answer) = metrics::unavailable_answer(store)
    {
        return answer;
    }
    let document = match &target {
        Target::Version => Some(discovery::version()),
        Target::CoreVersions => Some(discovery::core_versions()),
        Target::Groups => {
            let mut groups = discovery::groups(store);
            if let Some(list) = groups["groups"].as_array_mut().filter(|_| metrics::listed(store)) {
                list.push(metrics::group());
            }
            Some(groups)
        }
        Target::Group(name) if name == metrics::GROUP => Some(metrics_group()),
        Target::Resources { group, version } if group == metrics::GROUP && version == metrics::VERSION => {
            Some(metrics::resources())
        }
        Target::Group(name) => discovery::group(store, name),
        Target::Resources { group, version } => discovery::resources(store, group, version),
        Target::OpenApiV3(None) => Some(openapi::root(store)),
        Target::OpenApiV3(Some(key)) => openapi::document(store, key),
        Target::OpenApiV2 => {
            // Every byte of the small document is ASCII, so it travels as text.
            let body = String::from_utf8(openapi::v2_document()).unwrap_or_default();
            return HttpResponse {
                status: 200,
                content_type: openapi::V2_PROTOBUF,
                body,
                stream: None,
                warnings: Vec::new(),
            };
        }
        Target::Resource(resource) => return serve_resource(sim, user, resource, request),
    };
    match document {
        Some(document) if request.method == "GET" => HttpResponse::json(200, &document),
        Some(_) => HttpResponse::from_error(ApiError::MethodNotAllowed {
            message: format!("the server does not allow this method on the requested resource ({})", request.method),
        }),
        None => not_found_path(),
    }
}

/// `404 page not found`, as the API server's mux answers a path nothing serves.
fn not_found_path() -> HttpResponse {
    HttpResponse::json(
        404,
        &json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                "message": "the server could not find the requested resource", "reason": "NotFound",
                "details": {}, "code": 404}),
    )
}

/// Whether the path is the metrics API's discovery (`/apis/metrics.k8s.io[/VERSION]`).
fn is_metrics_discovery(target: &Target) -> bool {
    matches!(target, Target::Group(group) | Target::Resources { group, .. } if group == metrics::GROUP)
}

/// `/apis/metrics.k8s.io`.
fn metrics_group() -> Value {
    let mut group = metrics::group();
    group["kind"] = json!("APIGroup");
    group["apiVersion"] = json!("v1");
    group
}

fn serve_resource(sim: &mut Sim, user: Arc<UserInfo>, path: &ResourcePath, http: &HttpRequest<'_>) -> HttpResponse {
    if let Some(answer) = reviews::serve(sim.store(), &user, path, http) {
        return answer;
    }
    if path.group == metrics::GROUP
        && let Some(answer) = metrics::unavailable_answer(sim.store())
    {
        return answer;
    }
    if path.group == metrics::GROUP && path.version == metrics::VERSION && http.method == "GET" {
        return metrics::serve(sim, path, &Query::parse(http.query)).unwrap_or_else(HttpResponse::from_error);
    }
    // Access reviews and the metrics API are answered from memory; every other resource
    // request waits on etcd, and with etcd stopped gets the request timeout's 504. A real one
    // hangs for the 60 s first; a served lab answers at once, the wait being the client's.
    if !sim.control_plane().is_running(Component::Etcd) {
        return HttpResponse::json(504, &etcd_timeout_status());
    }
    let gvr = GroupVersionResource {
        group: path.group.clone(),
        version: path.version.clone(),
        resource: path.resource.clone(),
    };
    let Some(kind) = gvr.kind().filter(|k| sim.store().serves(*k)) else { return not_found_path() };
    let scalable = matches!(kind, Kind::Deployment | Kind::ReplicaSet | Kind::StatefulSet);
    match path.subresource.as_str() {
        "" | "status" => {}
        "log" if kind == Kind::Pod && !path.name.is_empty() && http.method == "GET" => {
            let query = Query::parse(http.query);
            return log::serve(sim, &path.namespace, &path.name, &query).unwrap_or_else(HttpResponse::from_error);
        }
        "token" if kind == Kind::ServiceAccount && !path.name.is_empty() && http.method == "POST" => {
            return reviews::token_request(sim.store_mut(), &user, path, http).unwrap_or_else(HttpResponse::from_error);
        }
        "eviction" if kind == Kind::Pod && !path.name.is_empty() && http.method == "POST" => {
            let target = (path.namespace.as_str(), path.name.as_str());
            return eviction::serve(sim, user, target, http).unwrap_or_else(HttpResponse::from_error);
        }
        "scale" if scalable && !path.name.is_empty() => {
            let target = (kind, path.namespace.as_str(), path.name.as_str());
            return scale::serve(sim, user, target, http).unwrap_or_else(HttpResponse::from_error);
        }
        _ => return not_found_path(),
    }
    match resource_request(sim, user, kind, (gvr, path), http) {
        Ok(response) => response,
        Err(error) => HttpResponse::from_error(error),
    }
}

fn resource_request(
    sim: &mut Sim,
    user: Arc<UserInfo>,
    kind: Kind,
    (gvr, path): (GroupVersionResource, &ResourcePath),
    http: &HttpRequest<'_>,
) -> Result<HttpResponse, ApiError> {
    let query = Query::parse(http.query);
    let mut options = query.options(kind)?;
    let watching = path.watch || query.flag("watch");
    let verb = match (http.method, path.name.is_empty()) {
        ("GET", true) if watching => Verb::Watch,
        ("GET", true) => Verb::List,
        ("GET", false) if watching => Verb::Watch,
        ("GET", false) => Verb::Get,
        ("POST", true) => Verb::Create,
        ("PUT", false) => Verb::Update,
        ("PATCH", false) => Verb::Patch,
        ("DELETE", false) => Verb::Delete,
        (method, _) => {
            return Err(ApiError::MethodNotAllowed {
                message: format!("the server does not allow this method on the requested resource ({method})"),
            });
        }
    };
    let (mut body, mut warnings) = (None, Vec::new());
    if matches!(verb, Verb::Create | Verb::Update | Verb::Patch) {
        options.field_validation = FieldValidation::parse(query.get("fieldValidation"))?;
    }
    match verb {
        Verb::Create | Verb::Update => {
            let (object, dropped) = decode_body(http, kind, options.field_validation)?;
            body = Some(object);
            warnings = dropped;
        }
        Verb::Patch => {
            options.patch_type = PatchType::from_content_type(http.content_type).ok_or_else(|| {
                let accepted = "application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json";
                ApiError::UnsupportedMediaType {
                    message: format!("the body of the request was in an unknown format - accepted media types include: {accepted}"),
                }
            })?;
            options.patch = Some(body::parse(http.body, http.content_type)?);
        }
        Verb::Delete => delete_options_from_body(http.body, http.content_type, &mut options)?,
        _ => {}
    }
    if options.field_manager.is_none() && options.patch_type != PatchType::Apply {
        // Upstream names an unnamed writer after its user agent; an apply must name itself.
        options.field_manager = Some(managed_fields::USER_AGENT_MANAGER.to_string());
    }
    let request = Request {
        user,
        verb,
        resource: gvr,
        namespace: path.namespace.clone(),
        name: path.name.clone(),
        subresource: path.subresource.clone(),
        body,
        options,
    };
    // An apply that creates answers 201, as a create does (upstream patch.go's wasCreated).
    let creates = verb == Verb::Create
        || (request.options.patch_type == PatchType::Apply
            && verb == Verb::Patch
            && sim.store().get_object(kind, &request.namespace, &request.name).is_err());
    // What the controllers' own writes were warned about (a Warn policy matching a
    // Deployment controller's update) went to them, not to this client.
    sim.store_mut().take_warnings();
    let response = super::handle(sim.store_mut(), request);
    // A patch's dropped fields are found as the patched object is decoded, inside the door.
    warnings.extend(sim.store_mut().take_warnings());
    if http.is_write() {
        // The controllers react to the write, as kubectl's own verbs let them.
        sim.settle();
    }
    let table = http.wants_table();
    let include = IncludeObject::parse(query.get("includeObject"));
    let mut answer = match response {
        Response::Object(object) if table => {
            let rv = sim.store().resource_version();
            HttpResponse::json(200, &table::table(kind, &[object], sim.now(), rv, include))
        }
        Response::Object(object) => HttpResponse::json(if creates { 201 } else { 200 }, &object.to_json_value()),
        Response::List(list) if table => {
            let mut document = table::table(kind, &list.items, sim.now(), list.resource_version, include);
            if let Some(token) = &list.continue_token {
                document["metadata"]["continue"] = json!(token);
            }
            HttpResponse::json(200, &document)
        }
        Response::List(list) => HttpResponse::json(200, &list_json(&list)),
        Response::Deleted(Deleted::Terminating(object)) => HttpResponse::json(200, &object.to_json_value()),
        Response::Deleted(Deleted::Gone(object)) => HttpResponse::json(200, &deleted_status(&object)),
        Response::Watch(WatchStart { kind, resource_version }) => {
            let after = match query.get("resourceVersion").filter(|v| !v.is_empty() && *v != "0") {
                Some(version) => version.parse().map_err(|_| ApiError::BadRequest {
                    message: format!("resourceVersion: Invalid value: {version:?}: must be a number"),
                })?,
                None => resource_version,
            };
            let watch =
                WatchRequest { kind, namespace: path.namespace.clone(), name: path.name.clone(), query, table, after };
            HttpResponse {
                status: 200,
                content_type: "application/json",
                body: String::new(),
                stream: Some(Stream::Watch(watch)),
                warnings: Vec::new(),
            }
        }
        Response::Status(Status(error)) => HttpResponse::from_error(error),
    };
    answer.warnings = warnings;
    Ok(answer)
}

/// The object in a create's or update's body; a body without apiVersion and kind is read as
/// the kind its URL names (the decoder's defaults, as client libraries rely on).
fn decode_body(
    http: &HttpRequest<'_>,
    kind: Kind,
    validation: FieldValidation,
) -> Result<(Object, Vec<String>), ApiError> {
    let mut value = body::parse(http.body, http.content_type)?;
    if let Value::Object(map) = &mut value {
        let info = kind.info();
        map.entry("apiVersion").or_insert_with(|| json!(info.api_version()));
        map.entry("kind").or_insert_with(|| json!(info.kind_name));
    }
    field_validation::decode(value, validation)
}

/// A delete's options may come in its body (`DeleteOptions`) as well as its query.
fn delete_options_from_body(
    body: &[u8],
    content_type: &str,
    options: &mut super::request::Options,
) -> Result<(), ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(());
    }
    let value = body::parse(body, content_type)?;
    if let Some(seconds) = value.get("gracePeriodSeconds").and_then(Value::as_i64) {
        options.delete.grace_period_seconds = Some(seconds);
    }
    let policy = value.get("propagationPolicy").and_then(Value::as_str).unwrap_or("");
    options.delete.propagation_policy = query::propagation_policy(policy)?;
    if value.get("dryRun").and_then(Value::as_array).is_some_and(|d| d.iter().any(|v| v == "All")) {
        options.dry_run = true;
    }
    Ok(())
}

/// `PodList` and the like, items with their apiVersion and kind.
fn list_json(list: &ObjectList) -> Value {
    let info = list.kind.info();
    let mut metadata = json!({"resourceVersion": list.resource_version.to_string()});
    if let Some(token) = &list.continue_token {
        metadata["continue"] = json!(token);
    }
    json!({
        "kind": format!("{}List", info.kind_name),
        "apiVersion": info.api_version(),
        "metadata": metadata,
        "items": list.items.iter().map(Object::to_json_value).collect::<Vec<_>>(),
    })
}

/// What a delete that removed the object at once answers.
fn deleted_status(object: &Object) -> Value {
    let info = object.kind().info();
    let meta = object.metadata();
    json!({
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Success",
        "details": {"name": meta.name, "group": info.group, "kind": info.plural, "uid": meta.uid},
    })
}

#[cfg(test)]
mod tests;
