//! `metrics-server`: the resource metrics pipeline (kubernetes-sigs/metrics-server v0.8.0) that
//! `kubectl top` and the HPA's Resource metrics read. A new lab has it, as most managed clusters
//! do; `lab addon remove metrics-server` gives the cluster kind gives you, where the HPA shows
//! `<unknown>` and `kubectl top` answers `error: Metrics API not available`.

use super::{Addon, manifest_objects};
use crate::api::Object;

pub const ADDON: Addon = Addon {
    name: "metrics-server",
    description: "metrics-server: serves metrics.k8s.io (PodMetrics, NodeMetrics) to kubectl top and the HPA",
    objects,
};

fn objects() -> Vec<Object> {
    manifest_objects(include_str!("manifests/metrics-server.yaml"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_document_of_the_manifest_is_an_object_the_lab_stores() {
        let text = include_str!("manifests/metrics-server.yaml");
        let documents = crate::manifest::parse_documents(text).unwrap().len();
        let kinds: Vec<&str> = super::objects().iter().map(|o| o.kind().info().kind_name).collect();
        assert_eq!(kinds.len(), documents, "{kinds:?}");
        assert_eq!(
            kinds,
            [
                "ServiceAccount",
                "ClusterRole",
                "ClusterRole",
                "ClusterRoleBinding",
                "Service",
                "Deployment",
                "APIService"
            ]
        );
    }
}
