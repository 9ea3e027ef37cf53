//! A pod template described as `kubectl rollout history --revision=N` prints it: upstream's
//! `DescribePodTemplate` (staging/src/k8s.io/kubectl/pkg/describe/describe.go) written without a
//! tabwriter, so the tabs stay as they are. Covers labels, annotations, containers (image,
//! ports, command, resources, probes, env, mounts), volumes, node selectors and tolerations.

use crate::api::affinity::Toleration;
use crate::api::container::{Container, EnvVar, Probe};
use crate::api::pod::PodTemplateSpec;
use crate::api::string_map::StringMap;
use crate::api::volume::Volume;

const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";
const MAX_ANNOTATION_LEN: usize = 140;

/// `Pod Template:` and everything under it, each line ending in a newline.
pub fn describe_pod_template(template: &PodTemplateSpec) -> String {
    let mut w = String::from("Pod Template:\n");
    labels_multiline(&mut w, "  Labels", &template.metadata.labels);
    if !template.metadata.annotations.is_empty() {
        annotations_multiline(&mut w, "  Annotations", &template.metadata.annotations);
    }
    let spec = &template.spec;
    if let Some(account) = spec.service_account_name.as_deref().filter(|a| !a.is_empty()) {
        w.push_str(&format!("  Service Account:\t{account}\n"));
    }
    if !spec.init_containers.is_empty() {
        containers(&mut w, "Init Containers", &spec.init_containers);
    }
    containers(&mut w, "Containers", &spec.containers);
    volumes(&mut w, &spec.volumes);
    if let Some(class) = spec.priority_class_name.as_deref().filter(|c| !c.is_empty()) {
        w.push_str(&format!("  Priority Class Name:\t{class}\n"));
    }
    labels_multiline(&mut w, "  Node-Selectors", &spec.node_selector);
    tolerations_multiline(&mut w, "  Tolerations", &spec.tolerations);
    w
}

fn labels_multiline(w: &mut String, title: &str, labels: &StringMap) {
    w.push_str(&format!("{title}:\t"));
    if labels.is_empty() {
        w.push_str("<none>\n");
        return;
    }
    let lines: Vec<String> = labels.iter().map(|(k, v)| format!("{k}={v}\n")).collect();
    w.push_str(&lines.join("\t"));
}

fn annotations_multiline(w: &mut String, title: &str, annotations: &StringMap) {
    w.push_str(&format!("{title}:\t"));
    let lines: Vec<String> = annotations
        .iter()
        .filter(|(k, _)| *k != LAST_APPLIED)
        .map(|(k, v)| {
            let line = format!("{k}: {v}");
            match line.char_indices().nth(MAX_ANNOTATION_LEN) {
                Some((cut, _)) => format!("{}...\n", &line[..cut]),
                None => format!("{line}\n"),
            }
        })
        .collect();
    if lines.is_empty() {
        w.push_str("<none>\n");
        return;
    }
    w.push_str(&lines.join("\t"));
}

fn containers(w: &mut String, label: &str, containers: &[Container]) {
    w.push_str(&format!("  {label}:\n"));
    for c in containers {
        w.push_str(&format!("   {}:\n", c.name));
        w.push_str(&format!("    Image:\t{}\n", c.image.as_deref().unwrap_or("")));
        ports(w, c);
        command(w, "Command", &c.command);
        command(w, "Args", &c.args);
        resources(w, "Limits", &c.resources.limits);
        resources(w, "Requests", &c.resources.requests);
        for (title, probe) in
            [("Liveness", &c.liveness_probe), ("Readiness", &c.readiness_probe), ("Startup", &c.startup_probe)]
        {
            if let Some(probe) = probe {
                w.push_str(&format!("    {title}:\t{}\n", describe_probe(probe)));
            }
        }
        environment(w, &c.env);
        mounts(w, c);
    }
}

fn ports(w: &mut String, c: &Container) {
    let protocol = |p: &Option<String>| p.clone().unwrap_or_else(|| "TCP".into());
    let ports: Vec<String> =
        c.ports.iter().map(|p| format!("{}/{}", p.container_port, protocol(&p.protocol))).collect();
    let hosts: Vec<String> =
        c.ports.iter().map(|p| format!("{}/{}", p.host_port.unwrap_or(0), protocol(&p.protocol))).collect();
    for (one, many, list) in [("Port", "Ports", ports), ("Host Port", "Host Ports", hosts)] {
        match list.len() {
            0 => w.push_str(&format!("    {one}:\t<none>\n")),
            1 => w.push_str(&format!("    {one}:\t{}\n", list[0])),
            _ => w.push_str(&format!("    {many}:\t{}\n", list.join(", "))),
        }
    }
}

fn command(w: &mut String, title: &str, words: &[String]) {
    if words.is_empty() {
        return;
    }
    w.push_str(&format!("    {title}:\n"));
    for line in words.iter().flat_map(|word| word.split('\n')) {
        w.push_str(&format!("      {line}\n"));
    }
}

fn resources(w: &mut String, title: &str, list: &crate::api::container::ResourceList) {
    if list.is_empty() {
        return;
    }
    w.push_str(&format!("    {title}:\n"));
    for (name, quantity) in list {
        w.push_str(&format!("      {name}:\t{quantity}\n"));
    }
}

/// Upstream `DescribeProbe`, with the API server's defaults for unset timings.
fn describe_probe(probe: &Probe) -> String {
    let attrs = format!(
        "delay={}s timeout={}s period={}s #success={} #failure={}",
        probe.initial_delay_seconds.unwrap_or(0),
        probe.timeout_seconds.unwrap_or(1),
        probe.period_seconds.unwrap_or(10),
        probe.success_threshold.unwrap_or(1),
        probe.failure_threshold.unwrap_or(3)
    );
    if let Some(exec) = &probe.exec {
        return format!("exec [{}] {attrs}", exec.command.join(" "));
    }
    if let Some(http) = &probe.http_get {
        let scheme = http.scheme.as_deref().unwrap_or("HTTP").to_ascii_lowercase();
        let host = http.host.as_deref().unwrap_or("");
        let path = http.path.as_deref().unwrap_or("");
        return format!("http-get {scheme}://{host}:{}{path} {attrs}", http.port);
    }
    if let Some(tcp) = &probe.tcp_socket {
        return format!("tcp-socket {}:{} {attrs}", tcp.host.as_deref().unwrap_or(""), tcp.port);
    }
    if let Some(grpc) = &probe.grpc {
        return format!("grpc <pod>:{} {} {attrs}", grpc.port, grpc.service.as_deref().unwrap_or(""));
    }
    format!("unknown {attrs}")
}

fn environment(w: &mut String, env: &[EnvVar]) {
    if env.is_empty() {
        w.push_str("    Environment:\t<none>\n");
        return;
    }
    w.push_str("    Environment:\n");
    for var in env {
        let Some(from) = &var.value_from else {
            let value = var.value.as_deref().unwrap_or("");
            let lines: Vec<&str> = value.split('\n').collect();
            w.push_str(&format!("      {}:\t{}\n", var.name, lines[0]));
            for line in &lines[1..] {
                w.push_str(&format!("      \t{line}\n"));
            }
            continue;
        };
        let name = &var.name;
        let reference = if let Some(r) = &from.config_map_key_ref {
            let optional = r.optional.unwrap_or(false);
            format!(
                "<set to the key '{}' of config map '{}'>\tOptional: {optional}",
                r.key,
                r.name.as_deref().unwrap_or("")
            )
        } else if let Some(r) = &from.secret_key_ref {
            let optional = r.optional.unwrap_or(false);
            format!(
                "<set to the key '{}' in secret '{}'>\tOptional: {optional}",
                r.key,
                r.name.as_deref().unwrap_or("")
            )
        } else if let Some(r) = &from.field_ref {
            format!(" ({}:{})", r.api_version.as_deref().unwrap_or("v1"), r.field_path)
        } else if let Some(r) = &from.resource_field_ref {
            format!("{} ({})", r.container_name.as_deref().unwrap_or(""), r.resource)
        } else {
            String::new()
        };
        w.push_str(&format!("      {name}:\t{reference}\n"));
    }
}

fn mounts(w: &mut String, c: &Container) {
    if c.volume_mounts.is_empty() {
        w.push_str("    Mounts:\t<none>\n");
        return;
    }
    w.push_str("    Mounts:\n");
    let mut sorted: Vec<_> = c.volume_mounts.iter().collect();
    sorted.sort_by(|a, b| a.mount_path.cmp(&b.mount_path));
    for mount in sorted {
        let mut flags = vec![if mount.read_only == Some(true) { "ro".to_string() } else { "rw".to_string() }];
        if let Some(sub_path) = mount.sub_path.as_deref().filter(|s| !s.is_empty()) {
            flags.push(format!("path={sub_path:?}"));
        }
        w.push_str(&format!("      {} from {} ({})\n", mount.mount_path, mount.name, flags.join(",")));
    }
}

fn volumes(w: &mut String, volumes: &[Volume]) {
    if volumes.is_empty() {
        w.push_str("  Volumes:\t<none>\n");
        return;
    }
    w.push_str("  Volumes:\n");
    for volume in volumes {
        w.push_str(&format!("   {}:\n", volume.name));
        if volume.empty_dir.is_some() {
            w.push_str("    Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n");
        } else if let Some(cm) = &volume.config_map {
            w.push_str("    Type:\tConfigMap (a volume populated by a ConfigMap)\n");
            w.push_str(&format!("    Name:\t{}\n", cm.name.as_deref().unwrap_or("")));
        } else if let Some(secret) = &volume.secret {
            w.push_str("    Type:\tSecret (a volume populated by a Secret)\n");
            w.push_str(&format!("    SecretName:\t{}\n", secret.secret_name.as_deref().unwrap_or("")));
        }
    }
}

fn tolerations_multiline(w: &mut String, title: &str, tolerations: &[Toleration]) {
    w.push_str(&format!("{title}:\t"));
    if tolerations.is_empty() {
        w.push_str("<none>\n");
        return;
    }
    let mut sorted: Vec<&Toleration> = tolerations.iter().collect();
    sorted.sort_by(|a, b| a.key.cmp(&b.key));
    let lines: Vec<String> = sorted.into_iter().map(toleration).collect();
    w.push_str(&lines.join("\t"));
}

fn toleration(t: &Toleration) -> String {
    let key = t.key.as_deref().unwrap_or("");
    let value = t.value.as_deref().unwrap_or("");
    let effect = t.effect.as_deref().unwrap_or("");
    let mut line = key.to_string();
    if !value.is_empty() {
        line.push_str(&format!("={value}"));
    }
    if !effect.is_empty() {
        line.push_str(&format!(":{effect}"));
    }
    if t.operator.as_deref() == Some("Exists") && value.is_empty() {
        line.push_str(if key.is_empty() && effect.is_empty() { "op=Exists" } else { " op=Exists" });
    }
    if let Some(seconds) = t.toleration_seconds {
        line.push_str(&format!(" for {seconds}s"));
    }
    line.push('\n');
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kubectl::rollout::fixtures::template;

    #[test]
    fn templates_describe_like_kubectl() {
        let mut t = template("hello:v1");
        t.metadata.labels.insert("pod-template-hash", "abc");
        t.metadata.annotations.insert("kubernetes.io/change-cause", "v1");
        let expected = "Pod Template:\n  Labels:\tapp=hello\n\tpod-template-hash=abc\n  Annotations:\tkubernetes.io/change-cause: v1\n  Containers:\n   hello:\n    Image:\thello:v1\n    Port:\t<none>\n    Host Port:\t<none>\n    Environment:\t<none>\n    Mounts:\t<none>\n  Volumes:\t<none>\n  Node-Selectors:\t<none>\n  Tolerations:\t<none>\n";
        assert_eq!(describe_pod_template(&t), expected);
    }
}
