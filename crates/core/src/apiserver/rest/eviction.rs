//! `POST …/pods/NAME/eviction` with a policy/v1 (or v1beta1) Eviction: the pod is deleted as
//! its `deleteOptions` say unless a PodDisruptionBudget refuses (`429`). Success answers `201`
//! with a bare `Success` Status, as pkg/registry/core/pod/storage/eviction.go does.

use super::{HttpRequest, HttpResponse, body, delete_options_from_body, query::Query};
use crate::api::Kind;
use crate::apiserver::{Request, Response, Status, Verb};
use crate::error::ApiError;
use crate::sim::Sim;
use crate::store::UserInfo;
use serde_json::{Value, json};
use std::sync::Arc;

pub fn serve(
    sim: &mut Sim,
    user: Arc<UserInfo>,
    (namespace, name): (&str, &str),
    http: &HttpRequest<'_>,
) -> Result<HttpResponse, ApiError> {
    let eviction = body::parse(http.body, http.content_type)?;
    let accepted =
        matches!(eviction.get("apiVersion").and_then(Value::as_str), None | Some("policy/v1" | "policy/v1beta1"));
    if !accepted || eviction.get("kind").and_then(Value::as_str).is_some_and(|k| k != "Eviction") {
        let sent = eviction.get("kind").and_then(Value::as_str).unwrap_or("");
        return Err(ApiError::BadRequest { message: format!("not a Eviction object: {sent}") });
    }
    if eviction.pointer("/metadata/name").and_then(Value::as_str) != Some(name) {
        return Err(ApiError::BadRequest { message: "name in URL does not match name in Eviction object".into() });
    }
    let mut options = Query::parse(http.query).options(Kind::Pod)?;
    if let Some(delete) = eviction.get("deleteOptions") {
        delete_options_from_body(delete.to_string().as_bytes(), "application/json", &mut options)?;
    }
    let request = Request::new(user, Verb::Create, Kind::Pod).namespace(namespace).name(name).subresource("eviction");
    let response = crate::apiserver::handle(sim.store_mut(), request.options(options));
    sim.settle();
    match response {
        Response::Status(Status(error)) => Err(error),
        _ => Ok(HttpResponse::json(
            201,
            &json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success", "code": 201}),
        )),
    }
}

#[cfg(test)]
mod tests {
    use crate::apiserver::rest::{HttpRequest, serve};
    use crate::kubectl::fixture::{lab, run};
    use crate::store::UserInfo;
    use serde_json::Value;

    fn post(sim: &mut crate::sim::Sim, pod: &str) -> (u16, Value) {
        let path = format!("/api/v1/namespaces/default/pods/{pod}/eviction");
        let body = format!(
            r#"{{"apiVersion":"policy/v1","kind":"Eviction","metadata":{{"name":"{pod}","namespace":"default"}}}}"#
        );
        let request = HttpRequest { method: "POST", path: &path, body: body.as_bytes(), ..Default::default() };
        let answer = serve(sim, UserInfo::admin(), &request);
        (answer.status, serde_json::from_str(&answer.body).unwrap())
    }

    /// One length-delimited protobuf field (every length here is under 128 bytes).
    fn field(number: u8, bytes: &[u8]) -> Vec<u8> {
        [&[number << 3 | 2, bytes.len() as u8][..], bytes].concat()
    }

    /// `kubectl drain` posts its Evictions as protobuf (`k8s\0` and a runtime.Unknown).
    #[test]
    fn an_eviction_in_protobuf_is_read_as_kubectl_drain_sends_it() {
        let mut sim = lab("kubectl run web --image=nginx\nsleep 10s\n");
        let type_meta = [field(1, b"policy/v1"), field(2, b"Eviction")].concat();
        let eviction = field(1, &[field(1, b"web"), field(3, b"default")].concat());
        let body = [&b"k8s\0"[..], &field(1, &type_meta), &field(2, &eviction)].concat();
        let request = HttpRequest {
            method: "POST",
            path: "/api/v1/namespaces/default/pods/web/eviction",
            content_type: "application/vnd.kubernetes.protobuf",
            body: &body,
            ..Default::default()
        };
        let answer = serve(&mut sim, UserInfo::admin(), &request);
        assert_eq!(answer.status, 201, "{}", answer.body);
    }

    #[test]
    fn an_eviction_a_budget_refuses_is_a_429_with_its_cause() {
        let mut sim = lab(
            "kubectl create deployment web --image=nginx --replicas=2\nkubectl create pdb web --selector=app=web --min-available=2\nsleep 30s\n",
        );
        let pods = run(&mut sim, "kubectl get pods -o name");
        let pod = pods.lines().next().unwrap().trim_start_matches("pod/").to_string();
        let (code, status) = post(&mut sim, &pod);
        assert_eq!(code, 429, "{status}");
        assert_eq!(status["message"], "Cannot evict pod as it would violate the pod's disruption budget.");
        assert_eq!(status["reason"], "TooManyRequests");
        assert_eq!(
            status["details"]["causes"][0],
            serde_json::json!({"reason": "DisruptionBudget", "message": "The disruption budget web needs 2 healthy pods and has 2 currently"})
        );
        let patched = run(&mut sim, r#"kubectl patch pdb web --type=merge -p '{"spec":{"minAvailable":1}}'"#);
        assert_eq!(patched, "poddisruptionbudget.policy/web patched\n");
        run(&mut sim, "sleep 1s");
        let (code, status) = post(&mut sim, &pod);
        assert_eq!((code, status["status"].as_str()), (201, Some("Success")), "{status}");
        let budget = run(&mut sim, "kubectl get pdb web -o jsonpath={.status.disruptionsAllowed}");
        assert_eq!(budget, "0");
    }
}
