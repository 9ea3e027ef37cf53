//! The API over HTTP, request by request: what kubectl sends in, the status and body out.

use super::*;
use crate::sim::time::Duration;

fn send(sim: &mut Sim, method: &str, target: &str, body: &str) -> HttpResponse {
    send_with(sim, method, target, ("application/json", "application/json"), body)
}

fn send_with(
    sim: &mut Sim,
    method: &str,
    target: &str,
    (accept, content_type): (&str, &str),
    body: &str,
) -> HttpResponse {
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let request = HttpRequest { method, path, query, accept, content_type, body: body.as_bytes() };
    serve(sim, UserInfo::admin(), &request)
}

fn json(response: &HttpResponse) -> Value {
    serde_json::from_str(&response.body).unwrap_or_else(|e| panic!("{e}: {}", response.body))
}

const DEPLOYMENT: &str = r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
  "spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},
  "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"hello:v1"}]}}}}"#;

#[test]
fn a_deployment_created_over_http_runs_and_lists_as_kubectl_prints_it() {
    let mut sim = Sim::new(1, &crate::cluster::ClusterSpec::default());
    let created = send(&mut sim, "POST", "/apis/apps/v1/namespaces/default/deployments", DEPLOYMENT);
    assert_eq!(created.status, 201, "{}", created.body);
    sim.advance(Duration::from_secs(30));
    let table = send_with(
        &mut sim,
        "GET",
        "/api/v1/namespaces/default/pods?labelSelector=app%3Dweb",
        ("application/json;as=Table;v=v1;g=meta.k8s.io,application/json", ""),
        "",
    );
    let table = json(&table);
    assert_eq!(table["kind"], "Table");
    let rows: Vec<String> = table["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let cells = r["cells"].as_array().unwrap();
            format!("{} {} {}", cells[1].as_str().unwrap(), cells[2].as_str().unwrap(), r["object"]["kind"])
        })
        .collect();
    assert_eq!(rows, ["1/1 Running \"PartialObjectMetadata\"", "1/1 Running \"PartialObjectMetadata\""]);
    let list = json(&send(&mut sim, "GET", "/apis/apps/v1/namespaces/default/deployments", ""));
    assert_eq!(list["kind"], "DeploymentList");
    assert_eq!(list["items"][0]["status"]["readyReplicas"], 2);
}

#[test]
fn every_patch_type_reaches_the_object() {
    let mut sim = Sim::new(1, &crate::cluster::ClusterSpec::default());
    send(&mut sim, "POST", "/apis/apps/v1/namespaces/default/deployments", DEPLOYMENT);
    let path = "/apis/apps/v1/namespaces/default/deployments/web";
    let cases = [
        (
            "application/strategic-merge-patch+json",
            r#"{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"hello:v2"}]}}}}"#,
            "hello:v2",
        ),
        (
            "application/json-patch+json",
            r#"[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"hello:v3"}]"#,
            "hello:v3",
        ),
        ("application/merge-patch+json", r#"{"spec":{"replicas":3}}"#, "hello:v3"),
    ];
    for (content_type, patch, image) in cases {
        let response = send_with(&mut sim, "PATCH", path, ("application/json", content_type), patch);
        assert_eq!(response.status, 200, "{content_type}: {}", response.body);
        assert_eq!(json(&response)["spec"]["template"]["spec"]["containers"][0]["image"], image, "{content_type}");
    }
    let unsupported = send_with(&mut sim, "PATCH", path, ("application/json", "text/plain"), "{}");
    assert_eq!(unsupported.status, 415);
}

#[test]
fn an_unknown_field_is_dropped_with_a_warning_unless_strict_is_asked_for() {
    let mut sim = Sim::new(1, &crate::cluster::ClusterSpec::default());
    let typo = DEPLOYMENT.replace("\"replicas\"", "\"replica\"");
    // No fieldValidation (the Python client's way): the server's default, Warn.
    let created = send(&mut sim, "POST", "/apis/apps/v1/namespaces/default/deployments", &typo);
    assert_eq!(
        (created.status, created.warnings.as_slice()),
        (201, ["unknown field \"spec.replica\"".to_string()].as_slice())
    );
    assert_eq!(json(&created)["spec"]["replicas"], 1, "the default stands in for the dropped field");
}

#[test]
fn bad_requests_get_the_api_servers_answers() {
    let mut sim = Sim::new(1, &crate::cluster::ClusterSpec::default());
    send(&mut sim, "POST", "/apis/apps/v1/namespaces/default/deployments", DEPLOYMENT);
    let live = json(&send(&mut sim, "GET", "/apis/apps/v1/namespaces/default/deployments/web", ""));
    let mut stale = live.clone();
    stale["metadata"]["resourceVersion"] = json!("1");
    let typo = DEPLOYMENT.replace("\"replicas\"", "\"replica\"");
    let cases: Vec<(&str, &str, String, u16, &str)> = vec![
        ("POST", "/apis/apps/v1/namespaces/default/deployments", "{not json".into(), 400, "BadRequest"),
        (
            "POST",
            "/apis/apps/v1/namespaces/default/deployments?fieldValidation=Strict",
            typo.clone(),
            400,
            "BadRequest",
        ),
        ("POST", "/apis/apps/v1/namespaces/default/deployments?fieldValidation=Loose", typo, 400, "BadRequest"),
        ("POST", "/apis/apps/v1/namespaces/default/deployments", DEPLOYMENT.into(), 409, "AlreadyExists"),
        ("PUT", "/apis/apps/v1/namespaces/default/deployments/web", stale.to_string(), 409, "Conflict"),
        ("GET", "/apis/apps/v1/namespaces/default/deployments/nope", String::new(), 404, "NotFound"),
        ("GET", "/apis/apps/v1/namespaces/default/widgets", String::new(), 404, "NotFound"),
        ("GET", "/api/v1/pods?dryRun=Maybe", String::new(), 400, "BadRequest"),
    ];
    for (method, target, body, code, reason) in cases {
        let response = send(&mut sim, method, target, &body);
        let status = json(&response);
        assert_eq!(
            (response.status, status["reason"].as_str().unwrap_or("")),
            (code, reason),
            "{method} {target}: {status}"
        );
        assert_eq!(status["kind"], "Status");
    }
    let unknown = json(&send(
        &mut sim,
        "POST",
        "/apis/apps/v1/namespaces/default/deployments?fieldValidation=Strict",
        &DEPLOYMENT.replace("\"replicas\"", "\"replica\""),
    ));
    assert!(unknown["message"].as_str().unwrap().contains("unknown field \"spec.replica\""), "{unknown}");
}

#[test]
fn a_delete_of_a_pod_is_graceful_and_of_a_config_map_immediate() {
    let mut sim = Sim::new(1, &crate::cluster::ClusterSpec::default());
    let cm = r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"settings"},"data":{"a":"1"}}"#;
    assert_eq!(send(&mut sim, "POST", "/api/v1/namespaces/default/configmaps", cm).status, 201);
    let gone = json(&send(&mut sim, "DELETE", "/api/v1/namespaces/default/configmaps/settings", ""));
    assert_eq!((gone["status"].as_str(), gone["details"]["name"].as_str()), (Some("Success"), Some("settings")));
    send(&mut sim, "POST", "/apis/apps/v1/namespaces/default/deployments", DEPLOYMENT);
    sim.advance(Duration::from_secs(30));
    let pods = json(&send(&mut sim, "GET", "/api/v1/namespaces/default/pods", ""));
    let name = pods["items"][0]["metadata"]["name"].as_str().unwrap().to_string();
    let terminating = json(&send(&mut sim, "DELETE", &format!("/api/v1/namespaces/default/pods/{name}"), ""));
    assert!(terminating["metadata"]["deletionTimestamp"].is_string(), "{terminating}");
}

#[test]
fn discovery_and_version_answer_what_kubectl_asks_first() {
    let mut sim = Sim::new(1, &crate::cluster::ClusterSpec::default());
    assert_eq!(json(&send(&mut sim, "GET", "/version", ""))["gitVersion"], crate::version::KUBERNETES_VERSION);
    assert_eq!(json(&send(&mut sim, "GET", "/api", ""))["versions"], json!(["v1"]));
    let core = json(&send(&mut sim, "GET", "/api/v1", ""));
    assert!(core["resources"].as_array().unwrap().iter().any(|r| r["name"] == "pods/log"));
    assert_eq!(send(&mut sim, "GET", "/apis/no.such.group/v1", "").status, 404);
    assert_eq!(send(&mut sim, "GET", "/nonsense", "").status, 404);
}

#[test]
fn a_watch_starts_where_the_list_ended() {
    let mut sim = Sim::new(1, &crate::cluster::ClusterSpec::default());
    let list = json(&send(&mut sim, "GET", "/api/v1/namespaces/default/pods", ""));
    let rv = list["metadata"]["resourceVersion"].as_str().unwrap().to_string();
    let watch = send(&mut sim, "GET", &format!("/api/v1/namespaces/default/pods?watch=true&resourceVersion={rv}"), "");
    let Some(Stream::Watch(start)) = watch.stream else { panic!("a watch") };
    assert_eq!((start.kind, start.after.to_string()), (Kind::Pod, rv));
}

#[test]
fn a_create_records_its_manager_with_the_defaulted_fields_it_sent() {
    let mut sim = Sim::new(1, &crate::cluster::ClusterSpec::default());
    let target = "/apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-create";
    let created = json(&send(&mut sim, "POST", target, DEPLOYMENT));
    let entries = &created["metadata"]["managedFields"];
    assert_eq!(entries.as_array().map(Vec::len), Some(1), "{entries}");
    let entry = &entries[0];
    assert_eq!(
        (&entry["manager"], &entry["operation"], &entry["apiVersion"], &entry["fieldsType"]),
        (&json!("kubectl-create"), &json!("Update"), &json!("apps/v1"), &json!("FieldsV1"))
    );
    assert_eq!(entry["time"], created["metadata"]["creationTimestamp"]);
    let container = json!({".": {}, "f:image": {}, "f:imagePullPolicy": {}, "f:name": {}, "f:resources": {},
        "f:terminationMessagePath": {}, "f:terminationMessagePolicy": {}});
    assert_eq!(entry["fieldsV1"]["f:spec"]["f:template"]["f:spec"]["f:containers"]["k:{\"name\":\"web\"}"], container);
    assert_eq!(
        entry["fieldsV1"]["f:spec"]["f:strategy"],
        json!({"f:rollingUpdate": {".": {}, "f:maxSurge": {}, "f:maxUnavailable": {}}, "f:type": {}})
    );
    assert_eq!(entry["fieldsV1"]["f:spec"]["f:template"]["f:metadata"], json!({"f:labels": {".": {}, "f:app": {}}}));
    assert!(entry["fieldsV1"].get("f:status").is_none() && entry["fieldsV1"].get("f:metadata").is_none());
}

#[test]
fn an_apply_that_changes_a_scaled_replica_count_conflicts_unless_forced() {
    let mut sim = Sim::new(1, &crate::cluster::ClusterSpec::default());
    let apply = |sim: &mut Sim, query: &str| {
        let target = format!("/apis/apps/v1/namespaces/default/deployments/web?{query}");
        send_with(sim, "PATCH", &target, ("application/json", "application/apply-patch+yaml"), DEPLOYMENT)
    };
    let created = apply(&mut sim, "fieldManager=kubectl&force=false");
    assert_eq!(created.status, 201, "{}", created.body);
    let scale = r#"{"spec":{"replicas":5}}"#;
    let target = "/apis/apps/v1/namespaces/default/deployments/web/scale";
    let scaled = send_with(&mut sim, "PATCH", target, ("application/json", "application/merge-patch+json"), scale);
    assert_eq!(scaled.status, 200, "{}", scaled.body);

    let refused = apply(&mut sim, "fieldManager=kubectl&force=false");
    assert_eq!(
        json(&refused),
        json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure", "reason": "Conflict", "code": 409,
            "message": "Apply failed with 1 conflict: conflict with \"kubectl\" with subresource \"scale\" using apps/v1: .spec.replicas",
            "details": {"causes": [{"reason": "FieldManagerConflict", "field": ".spec.replicas",
                "message": "conflict with \"kubectl\" with subresource \"scale\" using apps/v1"}]}})
    );
    let forced = json(&apply(&mut sim, "fieldManager=kubectl&force=true"));
    assert_eq!(forced["spec"]["replicas"], 2);
    let managers: Vec<&Value> =
        forced["metadata"]["managedFields"].as_array().unwrap().iter().map(|e| &e["manager"]).collect();
    assert_eq!(managers, [&json!("kubectl")]);
    let live = json(&send(&mut sim, "GET", "/apis/apps/v1/namespaces/default/deployments/web", ""));
    let again = json(&apply(&mut sim, "fieldManager=kubectl"));
    assert_eq!(again["metadata"]["resourceVersion"], live["metadata"]["resourceVersion"], "a no-op writes nothing");

    let target = "/apis/apps/v1/namespaces/default/deployments/web?fieldManager=kubectl";
    let old = DEPLOYMENT.replace("apps/v1", "apps/v1beta1");
    let wrong = json(&send_with(&mut sim, "PATCH", target, ("application/json", "application/apply-patch+yaml"), &old));
    assert_eq!(
        wrong["message"],
        "Incorrect version specified in apply patch. Specified patch version: apps/v1beta1, expected: apps/v1"
    );
    let unnamed = json(&apply(&mut sim, ""));
    assert_eq!(unnamed["code"], 422);
    assert_eq!(
        unnamed["message"],
        "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch"
    );
}

#[test]
fn a_list_in_pages_gives_every_object_once_in_order() {
    let mut sim = Sim::new(1, &crate::cluster::ClusterSpec::default());
    for name in ["e", "a", "d", "b", "c"] {
        let cm = format!(r#"{{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"{name}"}}}}"#);
        assert_eq!(send(&mut sim, "POST", "/api/v1/namespaces/default/configmaps", &cm).status, 201);
    }
    let mut seen = Vec::new();
    let mut target = "/api/v1/namespaces/default/configmaps?limit=2".to_string();
    loop {
        let page = json(&send(&mut sim, "GET", &target, ""));
        let names =
            page["items"].as_array().unwrap().iter().map(|i| i["metadata"]["name"].as_str().unwrap().to_string());
        seen.extend(names);
        match page["metadata"]["continue"].as_str() {
            Some(token) => target = format!("/api/v1/namespaces/default/configmaps?limit=2&continue={token}"),
            None => break,
        }
    }
    assert_eq!(seen, ["a", "b", "c", "d", "e", "kube-root-ca.crt"]);
}

#[test]
fn with_etcd_stopped_resources_time_out_and_what_is_served_from_memory_still_answers() {
    let mut sim = Sim::new(1, &crate::cluster::ClusterSpec::default());
    sim.set_running(Component::Etcd, false);
    let answer = send(&mut sim, "GET", "/api/v1/namespaces/default/pods", "");
    assert_eq!(
        (answer.status, json(&answer)),
        (
            504,
            json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                "message": "Timeout: request did not complete within the allotted timeout",
                "reason": "Timeout", "details": {}, "code": 504})
        )
    );
    let cm = r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"late"}}"#;
    assert_eq!(send(&mut sim, "POST", "/api/v1/namespaces/default/configmaps", cm).status, 504);
    assert_eq!(send(&mut sim, "GET", "/api/v1", "").status, 200, "discovery is the API server's own");
    assert_eq!(send(&mut sim, "GET", "/version", "").status, 200);
    sim.set_running(Component::Etcd, true);
    assert_eq!(send(&mut sim, "POST", "/api/v1/namespaces/default/configmaps", cm).status, 201, "the write, re-sent");
}
