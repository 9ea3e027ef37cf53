//! The parts of a pod page that a pod and a pod template share: containers (image, ports,
//! state, resources, probes, environment, mounts), volumes and the `Pod Template:` block.
//! Mirrors `describeContainers`, `DescribeProbe`, `describeVolumes` and `DescribePodTemplate`
//! in staging/src/k8s.io/kubectl/pkg/describe/describe.go.

use super::{LEVEL_0, LEVEL_1, LEVEL_2, LEVEL_3, PrefixWriter, labels_multiline, rfc1123z, tolerations_multiline};
use crate::api::container::{Container, EnvVar, Probe, ResourceList, ResourceRequirements};
use crate::api::pod::{ContainerState, ContainerStatus, Pod, PodTemplateSpec};
use crate::api::volume::Volume;

/// Resolves an env var's `fieldRef` against the pod (none for templates).
pub type EnvResolver<'a> = Option<&'a Pod>;

/// `describeContainers`: `Containers:` (or `Init Containers:`), then each container.
pub fn describe_containers(
    w: &mut PrefixWriter,
    label: &str,
    containers: &[Container],
    statuses: &[ContainerStatus],
    pod: EnvResolver<'_>,
    space: &str,
) {
    let none = if containers.is_empty() { " <none>" } else { "" };
    w.write(LEVEL_0, &format!("{space}{label}:{none}\n"));
    for container in containers {
        let status = statuses.iter().find(|s| s.name == container.name);
        basic_info(w, container, status, space);
        command(w, container);
        if let Some(status) = status {
            container_state(w, status);
        }
        resources(w, &container.resources, LEVEL_2);
        probes(w, container);
        if !container.env_from.is_empty() {
            env_from(w, container);
        }
        env_vars(w, container, pod);
        mounts(w, container);
    }
}

fn basic_info(w: &mut PrefixWriter, container: &Container, status: Option<&ContainerStatus>, space: &str) {
    let name_indent = if space.is_empty() { "" } else { " " };
    w.write(LEVEL_1, &format!("{name_indent}{}:\n", container.name));
    if let Some(status) = status {
        w.write(LEVEL_2, &format!("Container ID:\t{}\n", status.container_id.as_deref().unwrap_or("")));
    }
    w.write(LEVEL_2, &format!("Image:\t{}\n", container.image.as_deref().unwrap_or("")));
    if let Some(status) = status {
        w.write(LEVEL_2, &format!("Image ID:\t{}\n", status.image_id));
    }
    // describeContainerPorts and describeContainerHostPorts: a named port carries its name.
    let port = |number: i32, p: &crate::api::container::ContainerPort| {
        let text = format!("{number}/{}", p.protocol.as_deref().unwrap_or_default());
        match p.name.as_deref().filter(|n| !n.is_empty()) {
            Some(name) => format!("{text} ({name})"),
            None => text,
        }
    };
    let ports: Vec<String> = container.ports.iter().map(|p| port(p.container_port, p)).collect();
    let host_ports: Vec<String> = container.ports.iter().map(|p| port(p.host_port.unwrap_or(0), p)).collect();
    port_line(w, "Port", &ports.join(", "));
    port_line(w, "Host Port", &host_ports.join(", "));
    if let Some(profile) = container.security_context.as_ref().and_then(|s| s.seccomp_profile.as_ref()) {
        w.write(LEVEL_2, &format!("SeccompProfile:\t{}\n", profile.type_));
        if profile.type_ == "Localhost" {
            let localhost = profile.localhost_profile.as_deref().unwrap_or("");
            w.write(LEVEL_3, &format!("LocalhostProfile:\t{localhost}\n"));
        }
    }
}

fn port_line(w: &mut PrefixWriter, title: &str, ports: &str) {
    if ports.contains(',') {
        w.write(LEVEL_2, &format!("{title}s:\t{ports}\n"));
    } else {
        w.write(LEVEL_2, &format!("{title}:\t{}\n", if ports.is_empty() { "<none>" } else { ports }));
    }
}

fn command(w: &mut PrefixWriter, container: &Container) {
    for (title, words) in [("Command", &container.command), ("Args", &container.args)] {
        if words.is_empty() {
            continue;
        }
        w.write(LEVEL_2, &format!("{title}:\n"));
        for line in words.iter().flat_map(|word| word.split('\n')) {
            w.write(LEVEL_3, &format!("{line}\n"));
        }
    }
}

fn container_state(w: &mut PrefixWriter, status: &ContainerStatus) {
    state(w, "State", &status.state);
    if status.last_state.terminated.is_some() {
        state(w, "Last State", &status.last_state);
    }
    w.write(LEVEL_2, &format!("Ready:\t{}\n", if status.ready { "True" } else { "False" }));
    w.write(LEVEL_2, &format!("Restart Count:\t{}\n", status.restart_count));
}

/// `describeStatus`: Running with its start, Waiting with its reason, or Terminated in full.
fn state(w: &mut PrefixWriter, name: &str, state: &ContainerState) {
    if let Some(running) = &state.running {
        w.write(LEVEL_2, &format!("{name}:\tRunning\n"));
        w.write(LEVEL_3, &format!("Started:\t{}\n", rfc1123z(running.started_at)));
    } else if let Some(waiting) = &state.waiting {
        w.write(LEVEL_2, &format!("{name}:\tWaiting\n"));
        if let Some(reason) = waiting.reason.as_deref().filter(|r| !r.is_empty()) {
            w.write(LEVEL_3, &format!("Reason:\t{reason}\n"));
        }
    } else if let Some(terminated) = &state.terminated {
        w.write(LEVEL_2, &format!("{name}:\tTerminated\n"));
        if let Some(reason) = terminated.reason.as_deref().filter(|r| !r.is_empty()) {
            w.write(LEVEL_3, &format!("Reason:\t{reason}\n"));
        }
        if let Some(message) = terminated.message.as_deref().filter(|m| !m.is_empty()) {
            w.write(LEVEL_3, &format!("Message:\t{message}\n"));
        }
        w.write(LEVEL_3, &format!("Exit Code:\t{}\n", terminated.exit_code));
        if let Some(signal) = terminated.signal.filter(|s| *s > 0) {
            w.write(LEVEL_3, &format!("Signal:\t{signal}\n"));
        }
        w.write(LEVEL_3, &format!("Started:\t{}\n", rfc1123z(terminated.started_at)));
        w.write(LEVEL_3, &format!("Finished:\t{}\n", rfc1123z(terminated.finished_at)));
    } else {
        w.write(LEVEL_2, &format!("{name}:\tWaiting\n"));
    }
}

/// `describeResources`: `Limits:` and `Requests:`, one resource a line, by name.
pub fn resources(w: &mut PrefixWriter, requirements: &ResourceRequirements, level: usize) {
    resource_list(w, "Limits", &requirements.limits, level);
    resource_list(w, "Requests", &requirements.requests, level);
}

fn resource_list(w: &mut PrefixWriter, title: &str, list: &ResourceList, level: usize) {
    if !list.is_empty() {
        w.write(level, &format!("{title}:\n"));
    }
    for (name, quantity) in list {
        w.write(level + 1, &format!("{name}:\t{quantity}\n"));
    }
}

fn probes(w: &mut PrefixWriter, container: &Container) {
    let kinds = [
        ("Liveness", &container.liveness_probe),
        ("Readiness", &container.readiness_probe),
        ("Startup", &container.startup_probe),
    ];
    for (title, probe) in kinds {
        if let Some(probe) = probe {
            w.write(LEVEL_2, &format!("{title}:\t{}\n", describe_probe(probe)));
        }
    }
}

/// `DescribeProbe`: `http-get http://:8080/healthz delay=0s timeout=1s period=10s #success=1 #failure=3`.
pub fn describe_probe(probe: &Probe) -> String {
    let attrs = format!(
        "delay={}s timeout={}s period={}s #success={} #failure={}",
        probe.initial_delay_seconds.unwrap_or(0),
        probe.timeout_seconds.unwrap_or(0),
        probe.period_seconds.unwrap_or(0),
        probe.success_threshold.unwrap_or(0),
        probe.failure_threshold.unwrap_or(0),
    );
    if let Some(exec) = &probe.exec {
        return format!("exec [{}] {attrs}", exec.command.join(" "));
    }
    if let Some(http) = &probe.http_get {
        let scheme = http.scheme.as_deref().unwrap_or("").to_ascii_lowercase();
        let host = join_host_port(http.host.as_deref().unwrap_or(""), &http.port.to_string());
        let path = http.path.as_deref().unwrap_or("");
        let path = if !path.is_empty() && !path.starts_with('/') { format!("/{path}") } else { path.to_string() };
        let scheme = if scheme.is_empty() { String::new() } else { format!("{scheme}:") };
        return format!("http-get {scheme}//{host}{path} {attrs}");
    }
    if let Some(tcp) = &probe.tcp_socket {
        return format!("tcp-socket {}:{} {attrs}", tcp.host.as_deref().unwrap_or(""), tcp.port);
    }
    if let Some(grpc) = &probe.grpc {
        return format!("grpc <pod>:{} {} {attrs}", grpc.port, grpc.service.as_deref().unwrap_or(""));
    }
    format!("unknown {attrs}")
}

/// Go's `net.JoinHostPort`: IPv6 hosts in brackets.
fn join_host_port(host: &str, port: &str) -> String {
    if host.contains(':') { format!("[{host}]:{port}") } else { format!("{host}:{port}") }
}

fn env_from(w: &mut PrefixWriter, container: &Container) {
    w.write(LEVEL_2, "Environment Variables from:\n");
    for source in &container.env_from {
        let (from, reference) = match (&source.config_map_ref, &source.secret_ref) {
            (Some(r), _) => ("ConfigMap", Some(r)),
            (None, Some(r)) => ("Secret", Some(r)),
            (None, None) => ("", None),
        };
        let name = reference.and_then(|r| r.name.clone()).unwrap_or_default();
        let optional = reference.and_then(|r| r.optional).unwrap_or(false);
        match source.prefix.as_deref().filter(|p| !p.is_empty()) {
            None => w.write(LEVEL_3, &format!("{name}\t{from}\tOptional: {optional}\n")),
            Some(prefix) => w.write(LEVEL_3, &format!("{name}\t{from} with prefix '{prefix}'\tOptional: {optional}\n")),
        }
    }
}

fn env_vars(w: &mut PrefixWriter, container: &Container, pod: EnvResolver<'_>) {
    let none = if container.env.is_empty() { "\t<none>" } else { "" };
    w.write(LEVEL_2, &format!("Environment:{none}\n"));
    for env in &container.env {
        env_var(w, container, env, pod);
    }
}

fn env_var(w: &mut PrefixWriter, container: &Container, env: &EnvVar, pod: EnvResolver<'_>) {
    let Some(from) = &env.value_from else {
        for (i, line) in env.value.as_deref().unwrap_or("").split('\n').enumerate() {
            let name = if i == 0 { format!("{}:", env.name) } else { String::new() };
            w.write(LEVEL_3, &format!("{name}\t{line}\n"));
        }
        return;
    };
    let name = &env.name;
    if let Some(field) = &from.field_ref {
        let value = pod.map(|p| field_path_value(p, &field.field_path)).unwrap_or_default();
        let api_version = field.api_version.as_deref().unwrap_or("");
        w.write(LEVEL_3, &format!("{name}:\t{value} ({api_version}:{})\n", field.field_path));
    } else if let Some(resource) = &from.resource_field_ref {
        let mut value = container_resource_value(container, &resource.resource);
        if value == "0" && (resource.resource == "limits.cpu" || resource.resource == "limits.memory") {
            value = "node allocatable".into();
        }
        w.write(LEVEL_3, &format!("{name}:\t{value} ({})\n", resource.resource));
    } else if let Some(key) = &from.secret_key_ref {
        let (secret, optional) = (key.name.as_deref().unwrap_or(""), key.optional.unwrap_or(false));
        let text = format!("{name}:\t<set to the key '{}' in secret '{secret}'>\tOptional: {optional}\n", key.key);
        w.write(LEVEL_3, &text);
    } else if let Some(key) = &from.config_map_key_ref {
        let (map, optional) = (key.name.as_deref().unwrap_or(""), key.optional.unwrap_or(false));
        let text = format!("{name}:\t<set to the key '{}' of config map '{map}'>\tOptional: {optional}\n", key.key);
        w.write(LEVEL_3, &text);
    }
}

/// `fieldpath.ExtractFieldPathAsString` for the paths the downward API allows.
fn field_path_value(pod: &Pod, path: &str) -> String {
    let meta = &pod.metadata;
    let quoted_key =
        |prefix: &str| path.strip_prefix(prefix).and_then(|rest| rest.strip_suffix("']")).map(str::to_string);
    if let Some(key) = quoted_key("metadata.labels['") {
        return meta.labels.get(&key).unwrap_or("").to_string();
    }
    if let Some(key) = quoted_key("metadata.annotations['") {
        return meta.annotations.get(&key).unwrap_or("").to_string();
    }
    let text = |value: &Option<String>| value.clone().unwrap_or_default();
    match path {
        "metadata.name" => meta.name.clone(),
        "metadata.namespace" => meta.namespace.clone(),
        "metadata.uid" => meta.uid.to_string(),
        "spec.nodeName" => text(&pod.spec.node_name),
        "spec.serviceAccountName" => text(&pod.spec.service_account_name),
        "status.hostIP" => text(&pod.status.host_ip),
        "status.podIP" => text(&pod.status.pod_ip),
        "status.podIPs" => pod.status.pod_ips.iter().map(|ip| ip.ip.as_str()).collect::<Vec<_>>().join(","),
        _ => String::new(),
    }
}

/// `resourcehelper.ExtractContainerResourceValue` with the default divisor.
fn container_resource_value(container: &Container, resource: &str) -> String {
    let (list, name) = match resource.split_once('.') {
        Some(("limits", name)) => (&container.resources.limits, name),
        Some(("requests", name)) => (&container.resources.requests, name),
        _ => return String::new(),
    };
    let Some(quantity) = list.get(name) else { return "0".to_string() };
    if name == "cpu" {
        let millis = quantity.milli_value();
        return ((millis + 999).div_euclid(1000)).to_string();
    }
    quantity.value().to_string()
}

fn mounts(w: &mut PrefixWriter, container: &Container) {
    let none = if container.volume_mounts.is_empty() { "\t<none>" } else { "" };
    w.write(LEVEL_2, &format!("Mounts:{none}\n"));
    let mut sorted: Vec<_> = container.volume_mounts.iter().collect();
    sorted.sort_by(|a, b| a.mount_path.cmp(&b.mount_path));
    for mount in sorted {
        let mut flags = vec![if mount.read_only == Some(true) { "ro".to_string() } else { "rw".to_string() }];
        if let Some(sub_path) = mount.sub_path.as_deref().filter(|p| !p.is_empty()) {
            flags.push(format!("path={sub_path:?}"));
        }
        w.write(LEVEL_3, &format!("{} from {} ({})\n", mount.mount_path, mount.name, flags.join(",")));
    }
}

/// `describeVolumes`: each volume with its source, or `<none>`.
pub fn describe_volumes(w: &mut PrefixWriter, volumes: &[Volume], space: &str) {
    if volumes.is_empty() {
        w.write(LEVEL_0, &format!("{space}Volumes:\t<none>\n"));
        return;
    }
    w.write(LEVEL_0, &format!("{space}Volumes:\n"));
    let name_indent = if space.is_empty() { "" } else { " " };
    for volume in volumes {
        w.write(LEVEL_1, &format!("{name_indent}{}:\n", volume.name));
        volume_source(w, volume);
    }
}

fn volume_source(w: &mut PrefixWriter, volume: &Volume) {
    let yes_no = |optional: Option<bool>| optional.unwrap_or(false);
    if let Some(host_path) = &volume.host_path {
        let kind = host_path.type_.as_deref().unwrap_or("<none>");
        let text = format!(
            "Type:\tHostPath (bare host directory volume)\n    Path:\t{}\n    HostPathType:\t{kind}\n",
            host_path.path
        );
        w.write(LEVEL_2, &text);
    } else if let Some(empty_dir) = &volume.empty_dir {
        let limit = empty_dir.size_limit.as_ref().filter(|q| q.milli_value() > 0);
        let limit = limit.map_or("<unset>".to_string(), |q| q.to_string());
        let medium = empty_dir.medium.as_deref().unwrap_or("");
        let text = format!(
            "Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:\t{medium}\n    SizeLimit:\t{limit}\n"
        );
        w.write(LEVEL_2, &text);
    } else if let Some(secret) = &volume.secret {
        let name = secret.secret_name.as_deref().unwrap_or("");
        let text = format!(
            "Type:\tSecret (a volume populated by a Secret)\n    SecretName:\t{name}\n    Optional:\t{}\n",
            yes_no(secret.optional)
        );
        w.write(LEVEL_2, &text);
    } else if let Some(config_map) = &volume.config_map {
        let name = config_map.name.as_deref().unwrap_or("");
        let text = format!(
            "Type:\tConfigMap (a volume populated by a ConfigMap)\n    Name:\t{name}\n    Optional:\t{}\n",
            yes_no(config_map.optional)
        );
        w.write(LEVEL_2, &text);
    } else if let Some(claim) = &volume.persistent_volume_claim {
        let text = format!(
            "Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n    ClaimName:\t{}\n    ReadOnly:\t{}\n",
            claim.claim_name,
            claim.read_only.unwrap_or(false)
        );
        w.write(LEVEL_2, &text);
    } else {
        other_volume_source(w, volume);
    }
}

fn other_volume_source(w: &mut PrefixWriter, volume: &Volume) {
    if let Some(downward) = &volume.downward_api {
        w.write(LEVEL_2, "Type:\tDownwardAPI (a volume populated by information about the pod)\n    Items:\n");
        for item in &downward.items {
            if let Some(field) = &item.field_ref {
                w.write(LEVEL_3, &format!("{} -> {}\n", field.field_path, item.path));
            }
            if let Some(resource) = &item.resource_field_ref {
                w.write(LEVEL_3, &format!("{} -> {}\n", resource.resource, item.path));
            }
        }
    } else if let Some(projected) = &volume.projected {
        w.write(LEVEL_2, "Type:\tProjected (a volume that contains injected data from multiple sources)\n");
        for source in projected.sources.iter() {
            if let Some(secret) = &source.secret {
                let name = secret.name.as_deref().unwrap_or("");
                let optional = secret.optional.unwrap_or(false);
                w.write(LEVEL_2, &format!("SecretName:\t{name}\n    Optional:\t{optional}\n"));
            } else if source.downward_api.is_some() {
                w.write(LEVEL_2, "DownwardAPI:\ttrue\n");
            } else if let Some(config_map) = &source.config_map {
                let name = config_map.name.as_deref().unwrap_or("");
                let optional = config_map.optional.unwrap_or(false);
                w.write(LEVEL_2, &format!("ConfigMapName:\t{name}\n    Optional:\t{optional}\n"));
            } else if let Some(token) = &source.service_account_token {
                let seconds = token.expiration_seconds.unwrap_or(0);
                w.write(LEVEL_2, &format!("TokenExpirationSeconds:\t{seconds}\n"));
            }
        }
    } else {
        w.write(LEVEL_1, "<unknown>\n");
    }
}

/// `DescribePodTemplate`: the `Pod Template:` block of Deployments and ReplicaSets.
pub fn describe_pod_template(w: &mut PrefixWriter, template: &PodTemplateSpec) {
    w.write(LEVEL_0, "Pod Template:\n");
    labels_multiline(w, "", "  Labels", &template.metadata.labels);
    if !template.metadata.annotations.is_empty() {
        super::annotations_multiline(w, "  Annotations", &template.metadata.annotations);
    }
    let spec = &template.spec;
    if let Some(account) = spec.service_account_name.as_deref().filter(|a| !a.is_empty()) {
        w.write(LEVEL_1, &format!("Service Account:\t{account}\n"));
    }
    if !spec.init_containers.is_empty() {
        describe_containers(w, "Init Containers", &spec.init_containers, &[], None, "  ");
    }
    describe_containers(w, "Containers", &spec.containers, &[], None, "  ");
    describe_volumes(w, &spec.volumes, "  ");
    if let Some(class) = spec.priority_class_name.as_deref().filter(|c| !c.is_empty()) {
        w.write(LEVEL_1, &format!("Priority Class Name:\t{class}\n"));
    }
    labels_multiline(w, "", "  Node-Selectors", &spec.node_selector);
    tolerations_multiline(w, "", "  Tolerations", &spec.tolerations);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::container::HttpGetAction;
    use crate::api::intstr::IntOrString;

    fn http_probe(path: &str, port: i32) -> Probe {
        Probe {
            http_get: Some(HttpGetAction {
                path: Some(path.into()),
                port: IntOrString::Int(port),
                host: None,
                scheme: Some("HTTP".into()),
                http_headers: vec![],
            }),
            timeout_seconds: Some(1),
            period_seconds: Some(10),
            success_threshold: Some(1),
            failure_threshold: Some(3),
            ..Default::default()
        }
    }

    #[test]
    fn probes_print_as_urls_with_their_timing() {
        assert_eq!(
            describe_probe(&http_probe("/healthz", 8080)),
            "http-get http://:8080/healthz delay=0s timeout=1s period=10s #success=1 #failure=3"
        );
    }

    #[test]
    fn a_template_container_lists_image_ports_resources_and_probes() {
        let yaml = "name: hello\nimage: hello:v1\nports: [{containerPort: 8080, protocol: TCP}]\nresources: {limits: {memory: 64Mi}, requests: {cpu: 50m, memory: 32Mi}}\nenv: [{name: GREETING, value: hi}]\n";
        let container: Container = serde_yaml::from_str(yaml).unwrap();
        let mut w = PrefixWriter::default();
        describe_containers(&mut w, "Containers", &[container], &[], None, "  ");
        assert_eq!(
            w.finish(),
            "  Containers:\n   hello:\n    Image:      hello:v1\n    Port:       8080/TCP\n    Host Port:  0/TCP\n    Limits:\n      memory:  64Mi\n    Requests:\n      cpu:     50m\n      memory:  32Mi\n    Environment:\n      GREETING:  hi\n    Mounts:      <none>\n"
        );
    }
}
