//! The `scale` subresource of Deployments, ReplicaSets and StatefulSets: an `autoscaling/v1` Scale read from
//! the object, and written back as its `spec.replicas` (what `kubectl scale` and the HPA use).
//! Mirrors pkg/registry/apps/deployment/storage's ScaleREST.

use super::{HttpRequest, HttpResponse};
use crate::api::{Kind, Object};
use crate::apiserver::managed_fields;
use crate::apiserver::patch::{self, PatchType};
use crate::apiserver::{Options, Request, Response, Status, Verb};
use crate::error::ApiError;
use crate::sim::Sim;
use crate::store::UserInfo;
use serde_json::{Value, json};
use std::sync::Arc;

/// The Scale of a Deployment, ReplicaSet or StatefulSet.
fn scale_of(object: &Object) -> Option<Value> {
    let (replicas, current, selector) = match object {
        Object::Deployment(d) => {
            (d.spec.replicas.unwrap_or(1), d.status.replicas.unwrap_or(0), d.spec.selector.as_ref())
        }
        Object::ReplicaSet(rs) => (rs.spec.replicas.unwrap_or(1), rs.status.replicas, rs.spec.selector.as_ref()),
        Object::StatefulSet(set) => (set.spec.replicas.unwrap_or(1), set.status.replicas, set.spec.selector.as_ref()),
        _ => return None,
    };
    let meta = object.metadata();
    let mut metadata = json!({
        "name": meta.name,
        "namespace": meta.namespace,
        "uid": meta.uid,
        "resourceVersion": meta.resource_version,
    });
    if let Some(created) = &meta.creation_timestamp {
        metadata["creationTimestamp"] = json!(created);
    }
    Some(json!({
        "kind": "Scale",
        "apiVersion": "autoscaling/v1",
        "metadata": metadata,
        "spec": {"replicas": replicas},
        "status": {"replicas": current, "selector": selector.map(|s| s.format()).unwrap_or_default()},
    }))
}

/// GET, PUT or PATCH on `…/<name>/scale`.
pub fn serve(
    sim: &mut Sim,
    user: Arc<UserInfo>,
    (kind, namespace, name): (Kind, &str, &str),
    http: &HttpRequest<'_>,
) -> Result<HttpResponse, ApiError> {
    let verb = match http.method {
        "GET" => "get",
        "PUT" => "update",
        "PATCH" => "patch",
        other => {
            return Err(ApiError::MethodNotAllowed {
                message: format!("the server does not allow this method on the requested resource ({other})"),
            });
        }
    };
    let store = sim.store();
    store.authorize_as(&user, (verb, kind), namespace, name, "scale")?;
    let live = store.get_object(kind, namespace, name)?;
    let current = scale_of(&live).ok_or_else(|| not_scalable(kind))?;
    if verb == "get" {
        return Ok(HttpResponse::json(200, &current));
    }
    let body: Value = serde_json::from_slice(http.body)
        .map_err(|e| ApiError::BadRequest { message: format!("the request body is not JSON: {e}") })?;
    let wanted = match verb {
        "update" => body,
        _ => {
            let patch_type = PatchType::from_content_type(http.content_type).unwrap_or(PatchType::Merge);
            patch::apply(patch_type, &current, &body)?
        }
    };
    let replicas = wanted.pointer("/spec/replicas").and_then(Value::as_i64).ok_or_else(|| ApiError::BadRequest {
        message: "Scale.autoscaling \"\" is invalid: spec.replicas: Required value".into(),
    })?;
    let patch = json!({"spec": {"replicas": replicas}});
    let updated = write_replicas(sim, user, (kind, namespace, name), patch, http)?;
    sim.settle();
    Ok(HttpResponse::json(200, &scale_of(&updated).ok_or_else(|| not_scalable(kind))?))
}

/// The replica count written to the object as a merge patch through the scale subresource,
/// so its field manager (`fieldManager`, else kubectl's user-agent name) owns `spec.replicas`
/// with `subresource: scale`, as upstream's ScaleREST records it.
fn write_replicas(
    sim: &mut Sim,
    user: Arc<UserInfo>,
    (kind, namespace, name): (Kind, &str, &str),
    patch: Value,
    http: &HttpRequest<'_>,
) -> Result<Object, ApiError> {
    let query = super::query::Query::parse(http.query);
    let manager = query.get("fieldManager").filter(|m| !m.is_empty()).unwrap_or(managed_fields::USER_AGENT_MANAGER);
    let options = Options {
        patch: Some(patch),
        patch_type: PatchType::Merge,
        field_manager: Some(manager.to_string()),
        dry_run: query.get("dryRun") == Some("All"),
        ..Options::default()
    };
    let request =
        Request::new(user, Verb::Patch, kind).namespace(namespace).name(name).subresource("scale").options(options);
    match crate::apiserver::handle(sim.store_mut(), request) {
        Response::Object(object) => Ok(object),
        Response::Status(Status(error)) => Err(error),
        _ => Err(ApiError::BadRequest { message: "the scale write answered no object".into() }),
    }
}

fn not_scalable(kind: Kind) -> ApiError {
    ApiError::NotFound { resource: format!("{}/scale", kind.info().plural), name: String::new() }
}
