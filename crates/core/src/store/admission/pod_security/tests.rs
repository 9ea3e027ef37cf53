//! PodSecurity admission: a pod in, the refusal or warnings out, word for word as upstream.

use crate::api::meta::ObjectMeta;
use crate::api::{Deployment, Namespace, Pod, ServiceAccount};
use crate::store::{Store, UserInfo};

/// A store with namespace `ns` labelled `labels` (`enforce=restricted`, …), as the admin.
fn store_with(labels: &[(&str, &str)]) -> Store {
    let mut store = Store::new(1);
    store.act_as(UserInfo::admin());
    let mut ns = Namespace { metadata: ObjectMeta::named("", "ns"), ..Default::default() };
    for (key, value) in labels {
        ns.metadata.labels.insert(format!("pod-security.kubernetes.io/{key}"), value.to_string());
    }
    store.create(ns).unwrap();
    // What the ServiceAccount controller would make before the first pod.
    store.create(ServiceAccount { metadata: ObjectMeta::named("ns", "default"), ..Default::default() }).unwrap();
    store
}

/// A pod named `x` running container `app` (busybox) with `security` as its container's
/// securityContext and `pod` as the pod's.
fn pod(pod: &str, security: &str) -> Pod {
    let yaml = format!(
        "metadata: {{name: x, namespace: ns}}\nspec:\n  securityContext: {pod}\n  containers:\n  - name: app\n    image: busybox\n    securityContext: {security}\n"
    );
    serde_yaml::from_str(&yaml).unwrap()
}

/// What a restricted pod sets: passes every check.
const COMPLIANT: &str = "{allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}, runAsNonRoot: true, seccompProfile: {type: RuntimeDefault}}";

fn refusal(labels: &[(&str, &str)], pod: Pod) -> String {
    store_with(labels).create(pod).unwrap_err().to_string()
}

#[test]
fn each_restricted_check_refuses_with_upstreams_words() {
    let forbidden =
        r#"Error from server (Forbidden): pods "x" is forbidden: violates PodSecurity "restricted:latest": "#;
    let cases: &[(&str, &str, &str)] = &[
        (
            "{}",
            "{}",
            r#"allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")"#,
        ),
        (
            "{runAsNonRoot: true, seccompProfile: {type: RuntimeDefault}}",
            "{allowPrivilegeEscalation: true, capabilities: {drop: [ALL]}}",
            r#"allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false)"#,
        ),
        (
            "{runAsNonRoot: true, seccompProfile: {type: RuntimeDefault}}",
            "{allowPrivilegeEscalation: false, capabilities: {add: [NET_ADMIN, NET_BIND_SERVICE, SYS_TIME]}}",
            r#"unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]; container "app" must not include "NET_ADMIN", "SYS_TIME" in securityContext.capabilities.add)"#,
        ),
        (
            "{runAsNonRoot: false, seccompProfile: {type: RuntimeDefault}}",
            "{allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}}",
            r#"runAsNonRoot != true (pod must not set securityContext.runAsNonRoot=false)"#,
        ),
        (
            "{runAsUser: 0, seccompProfile: {type: RuntimeDefault}}",
            "{allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}, runAsNonRoot: true, runAsUser: 0}",
            r#"runAsUser=0 (pod and container "app" must not set runAsUser=0)"#,
        ),
        (
            "{runAsNonRoot: true, seccompProfile: {type: Unconfined}}",
            "{allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}}",
            r#"seccompProfile (pod must not set securityContext.seccompProfile.type to "Unconfined")"#,
        ),
        (
            "{runAsNonRoot: true, seccompProfile: {type: RuntimeDefault}}",
            "{allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}, procMount: Unmasked}",
            r#"procMount (container "app" must not set securityContext.procMount to "Unmasked")"#,
        ),
    ];
    for (pod_context, container_context, detail) in cases {
        let text = refusal(&[("enforce", "restricted")], pod(pod_context, container_context));
        assert_eq!(text, format!("{forbidden}{detail}"), "for {pod_context} / {container_context}");
    }
    let mut volume = pod("{}", COMPLIANT);
    volume.spec.volumes = serde_yaml::from_str("[{name: host, hostPath: {path: /}}]").unwrap();
    let detail = r#"restricted volume types (volume "host" uses restricted volume type "hostPath"), runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true)"#;
    let mut volume_only = volume.clone();
    volume_only.spec.containers.make_mut()[0].security_context.as_mut().unwrap().run_as_non_root = None;
    assert_eq!(refusal(&[("enforce", "restricted")], volume_only), format!("{forbidden}{detail}"));
    assert!(store_with(&[("enforce", "restricted")]).create(pod("{}", COMPLIANT)).is_ok());
}

#[test]
fn baseline_refuses_what_escapes_the_container() {
    let mut privileged = pod("{}", "{privileged: true, capabilities: {add: [SYS_ADMIN, CHOWN]}}");
    privileged.spec.host_network = Some(true);
    privileged.spec.host_pid = Some(true);
    privileged.spec.containers.make_mut()[0].ports =
        serde_yaml::from_str("[{containerPort: 80, hostPort: 8080}]").unwrap();
    let text = refusal(&[("enforce", "baseline")], privileged);
    assert_eq!(
        text,
        r#"Error from server (Forbidden): pods "x" is forbidden: violates PodSecurity "baseline:latest": non-default capabilities (container "app" must not include "SYS_ADMIN" in securityContext.capabilities.add), host namespaces (hostNetwork=true, hostPID=true), hostPort (container "app" uses hostPort 8080), privileged (container "app" must not set securityContext.privileged=true)"#
    );
    let sysctls =
        pod("{sysctls: [{name: kernel.msgmax, value: '1'}, {name: net.ipv4.tcp_syncookies, value: '1'}]}", "{}");
    assert_eq!(
        refusal(&[("enforce", "baseline")], sysctls),
        r#"Error from server (Forbidden): pods "x" is forbidden: violates PodSecurity "baseline:latest": forbidden sysctls (kernel.msgmax)"#
    );
}

#[test]
fn warn_mode_admits_with_the_warning() {
    let mut store = store_with(&[("warn", "restricted")]);
    store.create(pod("{}", "{allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}}")).unwrap();
    assert_eq!(
        store.take_warnings(),
        [
            r#"would violate PodSecurity "restricted:latest": runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")"#
        ]
    );
}

#[test]
fn an_enforced_level_warns_too_and_older_versions_run_older_checks() {
    let mut store = store_with(&[("enforce", "baseline"), ("warn", "restricted"), ("warn-version", "v1.22")]);
    store.create(pod("{}", "{capabilities: {add: [CHOWN]}}")).unwrap();
    let warnings = store.take_warnings();
    // v1.22 has no runAsUser check; its capabilities check replaces baseline's.
    assert_eq!(
        warnings,
        [
            r#"would violate PodSecurity "restricted:v1.22": allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]; container "app" must not include "CHOWN" in securityContext.capabilities.add), runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")"#
        ]
    );
}

#[test]
fn a_deployment_is_warned_about_never_refused() {
    let mut store = store_with(&[("enforce", "restricted")]);
    let deployment: Deployment = serde_yaml::from_str(
        "metadata: {name: web, namespace: ns}\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: web, image: nginx, securityContext: {privileged: true}}]\n",
    )
    .unwrap();
    store.create(deployment).unwrap();
    let warnings = store.take_warnings();
    assert_eq!(warnings.len(), 1);
    assert!(
        warnings[0].starts_with(r#"would violate PodSecurity "restricted:latest": privileged (container "web" must not set securityContext.privileged=true), allowPrivilegeEscalation != false"#),
        "{warnings:?}"
    );
}

#[test]
fn labelling_a_namespace_warns_about_the_pods_it_would_refuse() {
    let mut store = store_with(&[]);
    for name in ["b", "a", "c"] {
        let mut p = pod("{}", "{}");
        p.metadata.name = name.to_string();
        store.create(p).unwrap();
    }
    let mut privileged = pod("{}", "{privileged: true}");
    privileged.metadata.name = "root".to_string();
    store.create(privileged).unwrap();
    let mut ns = store.get::<Namespace>("", "ns").unwrap().clone();
    ns.metadata.labels.insert("pod-security.kubernetes.io/enforce", "baseline");
    store.update(ns.clone()).unwrap();
    assert_eq!(
        store.take_warnings(),
        [
            r#"existing pods in namespace "ns" violate the new PodSecurity enforce level "baseline:latest""#,
            "root: privileged",
        ]
    );
    ns = store.get::<Namespace>("", "ns").unwrap().clone();
    ns.metadata.labels.insert("pod-security.kubernetes.io/enforce", "restricted");
    store.update(ns).unwrap();
    assert_eq!(
        store.take_warnings(),
        [
            r#"existing pods in namespace "ns" violate the new PodSecurity enforce level "restricted:latest""#,
            "a (and 2 other pods): allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile",
            "root: privileged, allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile",
        ]
    );
}

#[test]
fn unreadable_labels_refuse_the_namespace() {
    let mut store = Store::new(1);
    let mut ns = Namespace { metadata: ObjectMeta::named("", "bad"), ..Default::default() };
    ns.metadata.labels.insert("pod-security.kubernetes.io/enforce", "strict");
    assert_eq!(
        store.create(ns).unwrap_err().to_string(),
        r#"The Namespace "bad" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted"#
    );
}

#[test]
fn the_system_namespaces_stay_privileged() {
    let mut store = Store::new(1);
    let mut p = pod("{}", "{privileged: true}");
    p.metadata.namespace = "kube-system".to_string();
    assert!(store.create(p).is_ok());
}

/// What baseline says of a pod spec (upstream's policy/check_*_test.go cases).
fn baseline_detail(spec: &str) -> String {
    let pod: Pod = serde_yaml::from_str(&format!("metadata: {{name: x}}\nspec:\n{spec}")).unwrap();
    let lv =
        super::policy::LevelVersion { level: super::policy::Level::Baseline, version: super::policy::Version::Latest };
    super::checks::forbidden_detail(&super::checks::evaluate(lv, &pod.metadata, &pod.spec))
}

#[test]
fn baseline_checks_word_their_details_as_upstreams_tests_expect() {
    let cases: &[(&str, &str)] = &[
        (
            "  securityContext: {seLinuxOptions: {type: foo, user: bar, role: baz}}\n  containers:\n  - {name: a, securityContext: {seLinuxOptions: {type: container_t}}}\n  - {name: d, securityContext: {seLinuxOptions: {type: container_engine_t}}}\n  - {name: e, securityContext: {seLinuxOptions: {type: bar}}}\n  - {name: f, securityContext: {seLinuxOptions: {user: bar}}}\n  - {name: g, securityContext: {seLinuxOptions: {role: baz}}}\n",
            r#"seLinuxOptions (pod and containers "e", "f", "g" set forbidden securityContext.seLinuxOptions: types "bar", "foo"; user may not be set; role may not be set)"#,
        ),
        (
            "  containers:\n  - {name: a, ports: [{containerPort: 1, hostPort: 0}]}\n  - {name: b, ports: [{containerPort: 1, hostPort: 10}, {containerPort: 2, hostPort: 20}]}\n  - {name: c, ports: [{containerPort: 1, hostPort: 10}, {containerPort: 2, hostPort: 30}]}\n",
            r#"hostPort (containers "b", "c" use hostPorts 10, 20, 30)"#,
        ),
        (
            "  containers:\n  - name: a\n    livenessProbe: {httpGet: {host: 127.0.0.1, port: 80}}\n    readinessProbe: {tcpSocket: {host: '::1', port: 80}}\n    startupProbe: {httpGet: {host: localhost, port: 80}}\n",
            r#"probe or lifecycle host (container "a" uses probe or lifecycle hosts "127.0.0.1", "::1", "localhost")"#,
        ),
        (
            "  containers:\n  - {name: foo, securityContext: {appArmorProfile: {type: Unconfined}}}\n",
            r#"forbidden AppArmor profile (container "foo" must not set AppArmor profile type to "Unconfined")"#,
        ),
        (
            "  securityContext: {seccompProfile: {type: Unconfined}, windowsOptions: {hostProcess: true}}\n  hostIPC: true\n  containers:\n  - {name: a, securityContext: {procMount: Unmasked}}\n",
            r#"host namespaces (hostIPC=true), procMount (container "a" must not set securityContext.procMount to "Unmasked"), seccompProfile (pod must not set securityContext.seccompProfile.type to "Unconfined"), hostProcess (pod must not set securityContext.windowsOptions.hostProcess=true)"#,
        ),
        (
            "  volumes: [{name: a, hostPath: {path: /a}}, {name: b, emptyDir: {}}, {name: c, hostPath: {path: /c}}]\n  containers: [{name: a}]\n",
            r#"hostPath volumes (volumes "a", "c")"#,
        ),
    ];
    for (spec, detail) in cases {
        assert_eq!(baseline_detail(spec), *detail, "for\n{spec}");
    }
}
