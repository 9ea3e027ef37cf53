//! Resource metrics as the HPA reads them from `metrics.k8s.io`: the PodMetrics of the pods the
//! selector picks, per pod the sum over its containers (or one named container); a pod lacking
//! the metric for a container is left out; without metrics-server the API's answer is the
//! error. Mirrors metrics/client.go `GetResourceMetric`.

use super::replica_calculator::{PodMetric, PodMetricsInfo};
use crate::api::Pod;
use crate::api::labels::Selector;
use crate::kubelet::Kubelet;
use crate::metrics::api_service::resource_metrics_api;
use crate::metrics::demand::PodDemands;
use crate::metrics::scrape;
use crate::store::Store;

pub fn get_resource_metric(
    store: &Store,
    kubelet: &Kubelet,
    demands: &PodDemands,
    (namespace, selector): (&str, &Selector),
    resource: &str,
    container: &str,
) -> Result<PodMetricsInfo, String> {
    resource_metrics_api(store).map_err(|unavailable| {
        let cause = unavailable.client_error("get pods.metrics.k8s.io");
        format!("unable to fetch metrics from resource metrics API: {cause}")
    })?;
    let mut info = PodMetricsInfo::new();
    for pod in store.list::<Pod>(Some(namespace)).filter(|p| selector.matches(&p.metadata.labels)) {
        let demand = demands.of(&pod.metadata.namespace, &pod.metadata.name);
        let Some(metrics) = scrape(store, kubelet, pod, demand) else { continue };
        let containers = metrics.containers.iter().filter(|c| container.is_empty() || c.name == container);
        let value: i64 = match resource {
            "cpu" => containers.map(|c| c.cpu_millicores as i64).sum(),
            "memory" => containers.map(|c| (c.memory_bytes as i64).saturating_mul(1000)).sum(),
            _ => continue,
        };
        info.insert(
            pod.metadata.name.clone(),
            PodMetric { timestamp: metrics.timestamp, window: metrics.window, value },
        );
    }
    Ok(info)
}
