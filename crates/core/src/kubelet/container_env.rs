//! A container's environment as the kubelet builds it once, when it starts the container:
//! `envFrom` first, then `env` (literal values with `$(VAR)` expanded, or `valueFrom` a
//! ConfigMap or Secret key, a pod field or a resource), Service links last. Mirrors
//! pkg/kubelet/kubelet_pods.go `makeEnvironmentVariables`; its errors are what
//! `CreateContainerConfigError` shows, worded as upstream's.

use super::config_source::ConfigSource;
use super::downward_api::{PodPlace, field_value, resource_value};
use super::expansion::expand;
use crate::api::container::{Container, KeySelector};
use crate::api::{ConfigMap, Pod, Secret};
use std::collections::BTreeMap;

/// A process's environment in the container: the image's PATH, the hostname the runtime sets,
/// what the kubelet made when the container started (its `env` and `envFrom`, then the Service
/// links), HOME. The main process, its exec probes and hooks, and `kubectl exec` all get it.
pub fn process_environment(pod: &Pod, container_env: &[(String, String)]) -> Vec<(String, String)> {
    let mut env = vec![
        ("PATH".to_string(), crate::workload::IMAGE_PATH.to_string()),
        ("HOSTNAME".to_string(), pod.spec.hostname.clone().unwrap_or_else(|| pod.metadata.name.clone())),
    ];
    env.extend(container_env.iter().cloned());
    env.push(("HOME".to_string(), "/root".to_string()));
    env
}

/// The container's variables in the order they were declared (a later one replaces an
/// earlier one of the same name in place), then the Service links it did not declare.
pub fn make_environment_variables(
    store: &dyn ConfigSource,
    pod: &Pod,
    container: &Container,
    place: &PodPlace,
    service_env: &BTreeMap<String, String>,
) -> Result<Vec<(String, String)>, String> {
    let namespace = &pod.metadata.namespace;
    let mut env = OrderedEnv::default();
    for source in &container.env_from {
        let prefix = source.prefix.as_deref().unwrap_or("");
        let entries = if let Some(reference) = &source.config_map_ref {
            let optional = reference.optional == Some(true);
            config_map(store, namespace, reference.name.as_deref().unwrap_or(""), optional)?.map(config_map_data)
        } else if let Some(reference) = &source.secret_ref {
            let optional = reference.optional == Some(true);
            secret(store, namespace, reference.name.as_deref().unwrap_or(""), optional)?.map(secret_data)
        } else {
            None
        };
        for (key, value) in entries.unwrap_or_default() {
            env.set(format!("{prefix}{key}"), value);
        }
    }
    for var in &container.env {
        let value = match (&var.value, &var.value_from) {
            (Some(value), _) if !value.is_empty() => {
                expand(value, &|name| env.get(name).or_else(|| service_env.get(name)).cloned())
            }
            (_, Some(from)) => match value_from(store, pod, container, from, place)? {
                Some(value) => value,
                // An optional key that is missing: no variable at all.
                None => continue,
            },
            _ => String::new(),
        };
        env.set(var.name.clone(), value);
    }
    for (name, value) in service_env {
        if env.get(name).is_none() {
            env.entries.push((name.clone(), value.clone()));
        }
    }
    Ok(env.entries)
}

/// One `valueFrom`: `Ok(None)` for an optional ConfigMap or Secret key that is missing.
fn value_from(
    store: &dyn ConfigSource,
    pod: &Pod,
    container: &Container,
    from: &crate::api::container::EnvVarSource,
    place: &PodPlace,
) -> Result<Option<String>, String> {
    let namespace = &pod.metadata.namespace;
    if let Some(selector) = &from.config_map_key_ref {
        let data = config_map(store, namespace, name_of(selector), optional(selector))?.map(config_map_data);
        return key_of(data, selector, "ConfigMap", namespace);
    }
    if let Some(selector) = &from.secret_key_ref {
        let data = secret(store, namespace, name_of(selector), optional(selector))?.map(secret_data);
        return key_of(data, selector, "Secret", namespace);
    }
    if let Some(field) = &from.field_ref {
        return field_value(pod, &field.field_path, place).map(Some);
    }
    if let Some(resource) = &from.resource_field_ref {
        return resource_value(pod, container, resource, place).map(Some);
    }
    Ok(Some(String::new()))
}

fn name_of(selector: &KeySelector) -> &str {
    selector.name.as_deref().unwrap_or("")
}

fn optional(selector: &KeySelector) -> bool {
    selector.optional == Some(true)
}

/// The selected key's value, or `couldn't find key GREETING in ConfigMap default/hello-config`.
fn key_of(
    data: Option<Vec<(String, String)>>,
    selector: &KeySelector,
    kind: &str,
    namespace: &str,
) -> Result<Option<String>, String> {
    let Some(data) = data else { return Ok(None) };
    match data.into_iter().find(|(k, _)| *k == selector.key) {
        Some((_, value)) => Ok(Some(value)),
        None if optional(selector) => Ok(None),
        None => Err(format!("couldn't find key {} in {kind} {namespace}/{}", selector.key, name_of(selector))),
    }
}

/// The ConfigMap, `None` when it is missing and optional, or `configmap "NAME" not found`
/// (the configmap manager's NotFound, whose resource is `configmap`).
pub fn config_map<'a>(
    store: &'a dyn ConfigSource,
    namespace: &str,
    name: &str,
    optional: bool,
) -> Result<Option<&'a ConfigMap>, String> {
    match store.config_map(namespace, name) {
        Some(found) => Ok(Some(found)),
        None if optional => Ok(None),
        None => Err(format!("configmap {name:?} not found")),
    }
}

/// The Secret, `None` when it is missing and optional, or `secret "NAME" not found`.
pub fn secret<'a>(
    store: &'a dyn ConfigSource,
    namespace: &str,
    name: &str,
    optional: bool,
) -> Result<Option<&'a Secret>, String> {
    match store.secret(namespace, name) {
        Some(found) => Ok(Some(found)),
        None if optional => Ok(None),
        None => Err(format!("secret {name:?} not found")),
    }
}

/// A ConfigMap's `data` (then `binaryData` as text), by key.
pub fn config_map_data(config_map: &ConfigMap) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = config_map.data.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    for (key, value) in config_map.binary_data.iter() {
        let bytes = crate::api::secret::base64_decode(value).unwrap_or_default();
        out.push((key.to_string(), String::from_utf8_lossy(&bytes).into_owned()));
    }
    out
}

/// A Secret's keys, decoded from base64 (`stringData` as written, should it remain).
pub fn secret_data(secret: &Secret) -> Vec<(String, String)> {
    let decode =
        |v: &str| String::from_utf8_lossy(&crate::api::secret::base64_decode(v).unwrap_or_default()).into_owned();
    let mut out: Vec<(String, String)> = secret.data.iter().map(|(k, v)| (k.to_string(), decode(v))).collect();
    for (key, value) in secret.string_data.iter() {
        out.retain(|(k, _)| k != key);
        out.push((key.to_string(), value.to_string()));
    }
    out
}

/// Variables in declaration order; setting one again replaces its value where it stands.
#[derive(Default)]
struct OrderedEnv {
    entries: Vec<(String, String)>,
}

impl OrderedEnv {
    fn set(&mut self, name: String, value: String) {
        match self.entries.iter_mut().find(|(n, _)| *n == name) {
            Some(entry) => entry.1 = value,
            None => self.entries.push((name, value)),
        }
    }

    fn get(&self, name: &str) -> Option<&String> {
        self.entries.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }
}

#[cfg(test)]
mod tests {
    use crate::kubectl::fixture::run;
    use crate::sim::Sim;

    fn pod_with_env(sim: &mut Sim, env: &str) {
        let manifest = format!(
            "kubectl apply -f - <<END\napiVersion: v1\nkind: Pod\nmetadata:\n  name: app\nspec:\n  containers:\n  - name: app\n    image: busybox:1.37\n    command: [sleep, infinity]\n{env}END\n"
        );
        run(sim, &manifest);
        run(sim, "sleep 10s");
    }

    #[test]
    fn env_overrides_env_from_and_an_optional_missing_key_sets_nothing() {
        let mut sim = Sim::default();
        run(&mut sim, "kubectl create configmap c --from-literal=A=from-cm --from-literal=B=b");
        let env = "    envFrom:\n    - configMapRef: {name: c}\n    env:\n    - {name: A, value: own}\n    - name: C\n      valueFrom:\n        configMapKeyRef: {name: c, key: nope, optional: true}\n";
        pod_with_env(&mut sim, env);
        let got = run(&mut sim, "kubectl exec app -- env");
        assert!(got.contains("\nA=own\nB=b\n") && !got.contains("\nC="), "{got}");
    }

    #[test]
    fn a_missing_secret_holds_the_container_in_create_container_config_error() {
        let mut sim = Sim::default();
        let env = "    env:\n    - name: P\n      valueFrom:\n        secretKeyRef: {name: db, key: password}\n";
        pod_with_env(&mut sim, env);
        let message = run(&mut sim, "kubectl get pod app -o jsonpath={.status.containerStatuses[0].state.waiting}");
        assert!(
            message.contains("CreateContainerConfigError") && message.contains(r#"secret \"db\" not found"#),
            "{message}"
        );
        run(&mut sim, "kubectl create secret generic db --from-literal=password=pw");
        run(&mut sim, "sleep 11s");
        assert_eq!(run(&mut sim, "kubectl exec app -- sh -c 'echo $P'"), "pw\n");
        // A later change never reaches the running container's env.
        run(&mut sim, "kubectl delete secret db");
        run(&mut sim, "sleep 120s");
        assert_eq!(run(&mut sim, "kubectl exec app -- sh -c 'echo $P'"), "pw\n");
    }
}
