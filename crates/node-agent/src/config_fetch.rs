//! The ConfigMaps and Secrets a pod names, fetched for its containers' environment when they
//! start (the kubelet's configmap and secret managers, pkg/kubelet/configmap and secret, with
//! their `Get` strategy). The Node authorizer lets a kubelet read only those its pods name.
//! The environment is then made by the simulation's own `make_environment_variables`, so a
//! real node's container sees what a simulated node's would.

use crate::client::{ApiClient, ApiError};
use kubelab_core::api::container::Container;
use kubelab_core::api::pod_references::References;
use kubelab_core::api::{ConfigMap, Node, Pod, Secret};
use kubelab_core::kubelet::config_source::FetchedConfig;
use kubelab_core::kubelet::container_env::make_environment_variables;
use kubelab_core::kubelet::downward_api::PodPlace;
use std::collections::BTreeMap;

/// The objects `pod` names that exist; an error other than NotFound is the config error.
pub async fn fetch(client: &ApiClient, pod: &Pod) -> Result<FetchedConfig, String> {
    let namespace = &pod.metadata.namespace;
    let refs = References::of(pod);
    let mut fetched = FetchedConfig::default();
    for name in refs.config_maps {
        let path = format!("/api/v1/namespaces/{namespace}/configmaps/{name}");
        if let Some(found) = found::<ConfigMap>(client.get_as(&path).await)? {
            fetched.config_maps.insert(name, found);
        }
    }
    for name in refs.secrets {
        let path = format!("/api/v1/namespaces/{namespace}/secrets/{name}");
        if let Some(found) = found::<Secret>(client.get_as(&path).await)? {
            fetched.secrets.insert(name, found);
        }
    }
    Ok(fetched)
}

fn found<T>(answer: Result<T, ApiError>) -> Result<Option<T>, String> {
    match answer {
        Ok(object) => Ok(Some(object)),
        Err(error) if error.is_not_found() => Ok(None),
        Err(error) => Err(error.message),
    }
}

/// The container's environment, or the message `CreateContainerConfigError` shows.
pub async fn container_env(
    client: &ApiClient,
    pod: &Pod,
    container: &Container,
    (pod_ip, host_ip): (&str, &str),
) -> Result<Vec<(String, String)>, String> {
    let fetched = fetch(client, pod).await?;
    let node_name = pod.spec.node_name.as_deref().unwrap_or_default();
    let node: Option<Node> = client.get_as(&format!("/api/v1/nodes/{node_name}")).await.ok();
    let place = PodPlace { node: node.as_ref(), pod_ip, host_ip };
    // Service links (`envvars.rs`) are the lab's: a real node's containers get none yet.
    make_environment_variables(&fetched, pod, container, &place, &BTreeMap::new())
}
