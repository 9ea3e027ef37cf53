//! Tests: bodies built with a tiny protobuf encoder, and upstream's own protobuf/JSON fixture pairs.

use super::*;
use serde_json::json;

/// A test-only protobuf encoder: fields appended in call order.
#[derive(Default)]
struct Enc(Vec<u8>);

impl Enc {
    fn new() -> Self {
        Enc::default()
    }

    fn key(mut self, num: u32, wire_type: u64) -> Self {
        put_varint(&mut self.0, u64::from(num) << 3 | wire_type);
        self
    }

    fn varint(self, num: u32, value: i64) -> Self {
        let mut enc = self.key(num, 0);
        put_varint(&mut enc.0, value as u64);
        enc
    }

    fn bytes(self, num: u32, bytes: &[u8]) -> Self {
        let mut enc = self.key(num, 2);
        put_varint(&mut enc.0, bytes.len() as u64);
        enc.0.extend_from_slice(bytes);
        enc
    }

    fn str(self, num: u32, text: &str) -> Self {
        self.bytes(num, text.as_bytes())
    }

    fn msg(self, num: u32, message: Enc) -> Self {
        self.bytes(num, &message.0)
    }

    /// A map entry {1: key, 2: value}.
    fn entry(self, num: u32, key: &str, value: &[u8]) -> Self {
        self.msg(num, Enc::new().str(1, key).bytes(2, value))
    }
}

fn put_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// A whole body: magic, then `runtime.Unknown` as the Go client writes it (empty 3 and 4 included).
fn body(api_version: &str, kind: &str, object: Enc) -> Vec<u8> {
    let type_meta = Enc::new().str(1, api_version).str(2, kind);
    let unknown = Enc::new().msg(1, type_meta).msg(2, object).str(3, "").str(4, "");
    [MAGIC, &unknown.0].concat()
}

/// ObjectMeta as gogo writes it: every non-pointer field present, zero or not, and the zero
/// creationTimestamp as an empty message.
fn meta(name: &str, namespace: &str, labels: &[(&str, &str)]) -> Enc {
    let mut meta = Enc::new().str(1, name).str(2, "").str(3, namespace).str(4, "").str(5, "").str(6, "");
    meta = meta.varint(7, 0).msg(8, Enc::new());
    for (key, value) in labels {
        meta = meta.entry(11, key, value.as_bytes());
    }
    meta
}

/// Decodes a body and checks the strict JSON decoder takes the result too.
fn decode_checked(body: &[u8]) -> Value {
    let value = decode(body).unwrap();
    crate::api::codec::decode(value.clone()).unwrap_or_else(|e| panic!("codec rejected {value}: {e:?}"));
    value
}

#[test]
fn content_types() {
    assert!(is_protobuf("application/vnd.kubernetes.protobuf"));
    assert!(is_protobuf("application/vnd.kubernetes.protobuf; charset=utf-8"));
    assert!(is_protobuf("Application/VND.Kubernetes.Protobuf"));
    assert!(!is_protobuf("application/json"));
    assert!(!is_protobuf("application/vnd.kubernetes.protobufx"));
}

#[test]
fn config_map_with_data() {
    let object = Enc::new().msg(1, meta("settings", "default", &[])).entry(2, "color", b"blue").entry(2, "size", b"");
    let value = decode_checked(&body("v1", "ConfigMap", object));
    let want = json!({
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "settings", "namespace": "default"},
        "data": {"color": "blue", "size": ""},
    });
    assert_eq!(value, want);
}

#[test]
fn secret_binary_data_is_base64() {
    let object = Enc::new()
        .msg(1, meta("creds", "default", &[]))
        .entry(2, "key", &[0x00, 0x01, 0xfe, 0xff])
        .entry(2, "password", b"s3cr3t")
        .str(3, "Opaque");
    let value = decode_checked(&body("v1", "Secret", object));
    let want = json!({
        "apiVersion": "v1", "kind": "Secret",
        "metadata": {"name": "creds", "namespace": "default"},
        "data": {"key": "AAH+/w==", "password": "czNjcjN0"},
        "type": "Opaque",
    });
    assert_eq!(value, want);
}

#[test]
fn namespace_as_kubectl_creates_it() {
    let object = Enc::new().msg(1, meta("team-a", "", &[])).msg(2, Enc::new()).msg(3, Enc::new().str(1, ""));
    let value = decode_checked(&body("v1", "Namespace", object));
    let want =
        json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team-a"}, "spec": {}, "status": {}});
    assert_eq!(value, want);
}

/// `kubectl create deployment web --image=nginx --replicas=2`.
#[test]
fn deployment_as_kubectl_creates_it() {
    let labels = [("app", "web")];
    let container = Enc::new().str(1, "nginx").str(2, "nginx").msg(8, Enc::new()).str(13, "").str(14, "").varint(16, 0);
    let pod_spec = Enc::new().msg(2, container).str(3, "").str(6, "").str(8, "").varint(11, 0).str(19, "");
    let template = Enc::new().msg(1, meta("", "", &labels)).msg(2, pod_spec);
    let selector = Enc::new().entry(1, "app", b"web");
    let spec = Enc::new()
        .varint(1, 2)
        .msg(2, selector)
        .msg(3, template)
        .msg(4, Enc::new().str(1, ""))
        .varint(5, 0)
        .varint(7, 0);
    let object = Enc::new().msg(1, meta("web", "", &labels)).msg(2, spec).msg(3, Enc::new());
    let value = decode_checked(&body("apps/v1", "Deployment", object));
    let want = json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "labels": {"app": "web"}},
        "spec": {
            "replicas": 2,
            "selector": {"matchLabels": {"app": "web"}},
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "nginx", "image": "nginx", "resources": {}}]},
            },
            "strategy": {},
        },
        "status": {},
    });
    assert_eq!(value, want);
}

/// A pointer field keeps its zero (`--replicas=0` is not "unset").
#[test]
fn pointer_zero_is_kept() {
    let object = Enc::new().msg(1, meta("idle", "", &[])).msg(2, Enc::new().varint(1, 0));
    let value = decode(&body("apps/v1", "Deployment", object)).unwrap();
    assert_eq!(value["spec"], json!({"replicas": 0}));
}

/// `kubectl autoscale deploy/hello --cpu=70% --min=3 --max=10` (autoscaling/v2): gogo writes the
/// non-pointer ints of the empty status, and only `desiredReplicas` lacks omitempty.
#[test]
fn hpa_v2_as_kubectl_autoscale_creates_it() {
    let target_ref = Enc::new().str(1, "Deployment").str(2, "hello").str(3, "apps/v1");
    let target = Enc::new().str(1, "Utilization").varint(4, 70);
    let metric = Enc::new().str(1, "Resource").msg(4, Enc::new().str(1, "cpu").msg(2, target));
    let spec = Enc::new().msg(1, target_ref).varint(2, 3).varint(3, 10).msg(4, metric);
    let status = Enc::new().varint(3, 0).varint(4, 0);
    let object = Enc::new().msg(1, meta("hello", "", &[])).msg(2, spec).msg(3, status);
    let value = decode_checked(&body("autoscaling/v2", "HorizontalPodAutoscaler", object));
    let want = json!({
        "apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
        "metadata": {"name": "hello"},
        "spec": {
            "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "hello"},
            "minReplicas": 3,
            "maxReplicas": 10,
            "metrics": [{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 70}}}],
        },
        "status": {"desiredReplicas": 0},
    });
    assert_eq!(value, want);
}

/// A v2 behavior: pointer zeros stay (`stabilizationWindowSeconds: 0` is not "unset"), the
/// tolerance is a quantity, and a container-resource metric names its container.
#[test]
fn hpa_v2_behavior_and_container_resource() {
    let policy = Enc::new().str(1, "Pods").varint(2, 4).varint(3, 60);
    let rules = Enc::new().varint(3, 0).str(1, "Min").msg(2, policy).msg(4, Enc::new().str(1, "50m"));
    let target = Enc::new().str(1, "AverageValue").msg(3, Enc::new().str(1, "500Mi"));
    let source = Enc::new().str(1, "memory").msg(2, target).str(3, "app");
    let metric = Enc::new().str(1, "ContainerResource").msg(7, source);
    let spec = Enc::new().varint(3, 5).msg(4, metric).msg(5, Enc::new().msg(2, rules));
    let object = Enc::new().msg(1, meta("web", "", &[])).msg(2, spec);
    let value = decode(&body("autoscaling/v2", "HorizontalPodAutoscaler", object)).unwrap();
    let want = json!({
        "maxReplicas": 5,
        "metrics": [{
            "type": "ContainerResource",
            "containerResource": {"name": "memory", "container": "app", "target": {"type": "AverageValue", "averageValue": "500Mi"}},
        }],
        "behavior": {"scaleDown": {
            "stabilizationWindowSeconds": 0,
            "selectPolicy": "Min",
            "policies": [{"type": "Pods", "value": 4, "periodSeconds": 60}],
            "tolerance": "50m",
        }},
    });
    assert_eq!(value["spec"], want);
}

/// The autoscaling/v1 fallback of `kubectl autoscale`: CPU only, and both status counts lack omitempty.
#[test]
fn hpa_v1_as_kubectl_autoscale_creates_it() {
    let target_ref = Enc::new().str(1, "Deployment").str(2, "hello").str(3, "apps/v1");
    let spec = Enc::new().msg(1, target_ref).varint(2, 3).varint(3, 10).varint(4, 70);
    let status = Enc::new().varint(3, 0).varint(4, 0);
    let object = Enc::new().msg(1, meta("hello", "", &[])).msg(2, spec).msg(3, status);
    let value = decode(&body("autoscaling/v1", "HorizontalPodAutoscaler", object)).unwrap();
    let want = json!({
        "apiVersion": "autoscaling/v1", "kind": "HorizontalPodAutoscaler",
        "metadata": {"name": "hello"},
        "spec": {
            "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "hello"},
            "minReplicas": 3,
            "maxReplicas": 10,
            "targetCPUUtilizationPercentage": 70,
        },
        "status": {"currentReplicas": 0, "desiredReplicas": 0},
    });
    assert_eq!(value, want);
}

/// `kubectl create service clusterip web --tcp=80:8080` plus a named and an unset target port.
#[test]
fn service_target_ports() {
    let int_port = Enc::new().varint(1, 0).varint(2, 8080).str(3, "");
    let named_port = Enc::new().varint(1, 1).varint(2, 0).str(3, "http");
    let port = |name: &str, number: i64, target: Enc| {
        Enc::new().str(1, name).str(2, "TCP").varint(3, number).msg(4, target).varint(5, 0)
    };
    let spec = Enc::new()
        .msg(1, port("80-8080", 80, int_port))
        .msg(1, port("443-http", 443, named_port))
        .msg(1, port("9000", 9000, Enc::new().varint(1, 0).varint(2, 0).str(3, "")))
        .entry(2, "app", b"web")
        .str(3, "")
        .str(4, "ClusterIP");
    let object =
        Enc::new().msg(1, meta("web", "", &[("app", "web")])).msg(2, spec).msg(3, Enc::new().msg(1, Enc::new()));
    let value = decode_checked(&body("v1", "Service", object));
    let ports = json!([
        {"name": "80-8080", "protocol": "TCP", "port": 80, "targetPort": 8080},
        {"name": "443-http", "protocol": "TCP", "port": 443, "targetPort": "http"},
        {"name": "9000", "protocol": "TCP", "port": 9000},
    ]);
    assert_eq!(value["spec"]["ports"], ports);
    assert_eq!(value["spec"]["selector"], json!({"app": "web"}));
    assert_eq!(value["spec"]["type"], "ClusterIP");
    assert_eq!(value["status"], json!({"loadBalancer": {}}));
}

/// `kubectl create ingress simple --rule="foo.com/bar=svc1:8080,tls=my-cert"`: the rule value is
/// inlined into the rule, the port is a message of its own.
#[test]
fn ingress_rule_value_is_inlined() {
    let backend = Enc::new().msg(4, Enc::new().str(1, "svc1").msg(2, Enc::new().str(1, "").varint(2, 8080)));
    let path = Enc::new().str(1, "/bar").msg(2, backend).str(3, "Exact");
    let rule = Enc::new().str(1, "foo.com").msg(2, Enc::new().msg(1, Enc::new().msg(1, path)));
    let tls = Enc::new().str(1, "foo.com").str(2, "my-cert");
    let object = Enc::new().msg(1, meta("simple", "", &[])).msg(2, Enc::new().msg(2, tls).msg(3, rule));
    let value = decode_checked(&body("networking.k8s.io/v1", "Ingress", object));
    let backend = json!({"service": {"name": "svc1", "port": {"number": 8080}}});
    let want = json!({
        "tls": [{"hosts": ["foo.com"], "secretName": "my-cert"}],
        "rules": [{"host": "foo.com", "http": {"paths": [{"path": "/bar", "pathType": "Exact", "backend": backend}]}}],
    });
    assert_eq!(value["spec"], want);
}

/// `kubectl create priorityclass low --value=0`: `value` has no omitempty, so its zero stays.
#[test]
fn priority_class_zero_value_is_kept() {
    let object =
        Enc::new().msg(1, meta("low", "", &[])).varint(2, 0).varint(3, 0).str(4, "").str(5, "PreemptLowerPriority");
    let value = decode_checked(&body("scheduling.k8s.io/v1", "PriorityClass", object));
    let want = json!({
        "apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
        "metadata": {"name": "low"}, "value": 0, "preemptionPolicy": "PreemptLowerPriority",
    });
    assert_eq!(value, want);
}

#[test]
fn times_negative_numbers_and_packed_lists() {
    let created = Enc::new().varint(1, 1_767_323_045).varint(2, 0);
    let meta = Enc::new().str(1, "p").msg(8, created).varint(10, 30);
    let security = Enc::new().varint(2, -5).bytes(4, &[1, 2, 0xac, 0x02]).msg(99, Enc::new());
    let spec = Enc::new().msg(14, security).msg(1_000, Enc::new()).msg(2, Enc::new().str(1, "c"));
    let object = Enc::new().msg(1, meta).msg(2, spec);
    let value = decode(&body("v1", "Pod", object)).unwrap();
    assert_eq!(value["metadata"]["creationTimestamp"], "2026-01-02T03:04:05Z");
    assert_eq!(value["metadata"]["deletionGracePeriodSeconds"], 30);
    assert_eq!(value["spec"]["securityContext"], json!({"runAsUser": -5, "supplementalGroups": [1, 2, 300]}));
    assert_eq!(value["spec"]["containers"], json!([{"name": "c"}]));
}

#[test]
fn unsupported_kind_is_named() {
    let err = decode(&body("apps/v1", "StatefulSet", Enc::new())).unwrap_err();
    assert!(err.contains("apps/v1") && err.contains("StatefulSet"), "{err}");
}

#[test]
fn malformed_bodies_are_errors() {
    assert!(decode(b"{\"kind\":\"Pod\"}").unwrap_err().contains("magic"));
    let mut cut = body("v1", "ConfigMap", Enc::new().msg(1, Enc::new().str(1, "x")));
    cut.truncate(cut.len() - 6);
    assert_eq!(decode(&cut).unwrap_err(), "protobuf envelope: 5 bytes wanted, 3 left");
    let short_name = Enc::new().bytes(1, &[0x0a, 0x02, b'x']);
    let err = decode(&body("v1", "ConfigMap", short_name)).unwrap_err();
    assert_eq!(err, "decoding protobuf ConfigMap.metadata: 2 bytes wanted, 1 left");
    let wrong_wire = Enc::new().msg(1, Enc::new().varint(1, 7));
    let err = decode(&self::body("v1", "ConfigMap", wrong_wire)).unwrap_err();
    assert_eq!(err, "decoding protobuf ConfigMap.metadata.name: wire type 0 where 2 (length-delimited) was expected");
}

/// The PersistentVolumeSource fields the lab's PersistentVolume leaves out.
const UNMODELLED_VOLUME_SOURCES: &[&str] = &[
    "gcePersistentDisk",
    "awsElasticBlockStore",
    "glusterfs",
    "rbd",
    "iscsi",
    "cinder",
    "cephfs",
    "fc",
    "flocker",
    "flexVolume",
    "azureFile",
    "vsphereVolume",
    "quobyte",
    "azureDisk",
    "photonPersistentDisk",
    "portworxVolume",
    "scaleIO",
    "storageos",
];

/// Upstream's round-trip fixtures (k8s.io/api testdata/HEAD at 10b39a39, copied unchanged): each
/// kind's protobuf body as Go writes it, with every field filled, and the JSON of the same object.
#[test]
fn upstream_fixtures_match_their_json() {
    let fixtures: [(&[u8], &str); 21] = [
        (include_bytes!("testdata/core.v1.Namespace.pb"), include_str!("testdata/core.v1.Namespace.json")),
        (include_bytes!("testdata/core.v1.ConfigMap.pb"), include_str!("testdata/core.v1.ConfigMap.json")),
        (include_bytes!("testdata/core.v1.Secret.pb"), include_str!("testdata/core.v1.Secret.json")),
        (include_bytes!("testdata/core.v1.ResourceQuota.pb"), include_str!("testdata/core.v1.ResourceQuota.json")),
        (include_bytes!("testdata/core.v1.LimitRange.pb"), include_str!("testdata/core.v1.LimitRange.json")),
        (include_bytes!("testdata/core.v1.Service.pb"), include_str!("testdata/core.v1.Service.json")),
        (include_bytes!("testdata/core.v1.Pod.pb"), include_str!("testdata/core.v1.Pod.json")),
        (include_bytes!("testdata/apps.v1.Deployment.pb"), include_str!("testdata/apps.v1.Deployment.json")),
        (include_bytes!("testdata/apps.v1.DaemonSet.pb"), include_str!("testdata/apps.v1.DaemonSet.json")),
        (
            include_bytes!("testdata/apps.v1.ControllerRevision.pb"),
            include_str!("testdata/apps.v1.ControllerRevision.json"),
        ),
        (
            include_bytes!("testdata/autoscaling.v2.HorizontalPodAutoscaler.pb"),
            include_str!("testdata/autoscaling.v2.HorizontalPodAutoscaler.json"),
        ),
        (
            include_bytes!("testdata/autoscaling.v1.HorizontalPodAutoscaler.pb"),
            include_str!("testdata/autoscaling.v1.HorizontalPodAutoscaler.json"),
        ),
        (
            include_bytes!("testdata/networking.k8s.io.v1.Ingress.pb"),
            include_str!("testdata/networking.k8s.io.v1.Ingress.json"),
        ),
        (
            include_bytes!("testdata/scheduling.k8s.io.v1.PriorityClass.pb"),
            include_str!("testdata/scheduling.k8s.io.v1.PriorityClass.json"),
        ),
        (include_bytes!("testdata/batch.v1.Job.pb"), include_str!("testdata/batch.v1.Job.json")),
        (include_bytes!("testdata/batch.v1.CronJob.pb"), include_str!("testdata/batch.v1.CronJob.json")),
        (
            include_bytes!("testdata/policy.v1.PodDisruptionBudget.pb"),
            include_str!("testdata/policy.v1.PodDisruptionBudget.json"),
        ),
        (include_bytes!("testdata/policy.v1.Eviction.pb"), include_str!("testdata/policy.v1.Eviction.json")),
        (
            include_bytes!("testdata/core.v1.PersistentVolumeClaim.pb"),
            include_str!("testdata/core.v1.PersistentVolumeClaim.json"),
        ),
        (
            include_bytes!("testdata/core.v1.PersistentVolume.pb"),
            include_str!("testdata/core.v1.PersistentVolume.json"),
        ),
        (
            include_bytes!("testdata/storage.k8s.io.v1.StorageClass.pb"),
            include_str!("testdata/storage.k8s.io.v1.StorageClass.json"),
        ),
    ];
    for (pb, json) in fixtures {
        let mut want: Value = serde_json::from_str(json).unwrap();
        // JobSpec's alpha `scheduling` (Workload scheduling) is newer than the lab's Job: the
        // decoder skips field 17 as it skips every unknown field.
        for path in ["/spec", "/spec/jobTemplate/spec"] {
            if let Some(spec) = want.pointer_mut(path).and_then(Value::as_object_mut)
                && (spec.contains_key("completionMode") || spec.contains_key("jobTemplate"))
            {
                spec.remove("scheduling");
            }
        }
        // The lab's PersistentVolume has four of the volume sources; the decoder skips the
        // others' fields.
        if want["kind"] == "PersistentVolume"
            && let Some(spec) = want.pointer_mut("/spec").and_then(Value::as_object_mut)
        {
            spec.retain(|key, _| !UNMODELLED_VOLUME_SOURCES.contains(&key.as_str()));
        }
        let got = decode(pb).unwrap();
        assert_eq!(got, want, "{}", want["kind"]);
    }
}
