//! Where a kubelet reads the ConfigMaps and Secrets its pods name: the lab's store for a
//! simulated node, or what a real machine's kubelet fetched over the API for one pod (the
//! names it fetches are `api::pod_references`).

use crate::api::{ConfigMap, Secret, ServiceAccount};
use crate::store::Store;
use std::collections::BTreeMap;

/// The objects a container's env and volumes are made from.
pub trait ConfigSource {
    fn config_map(&self, namespace: &str, name: &str) -> Option<&ConfigMap>;
    fn secret(&self, namespace: &str, name: &str) -> Option<&Secret>;
    /// The account a projected token is requested for (none outside the lab's store).
    fn service_account(&self, _namespace: &str, _name: &str) -> Option<&ServiceAccount> {
        None
    }
}

impl ConfigSource for Store {
    fn config_map(&self, namespace: &str, name: &str) -> Option<&ConfigMap> {
        self.try_get::<ConfigMap>(namespace, name)
    }

    fn secret(&self, namespace: &str, name: &str) -> Option<&Secret> {
        self.try_get::<Secret>(namespace, name)
    }

    fn service_account(&self, namespace: &str, name: &str) -> Option<&ServiceAccount> {
        self.try_get::<ServiceAccount>(namespace, name)
    }
}

/// What a kubelet outside the lab fetched for one pod (a missing object is simply absent).
#[derive(Clone, Debug, Default)]
pub struct FetchedConfig {
    pub config_maps: BTreeMap<String, ConfigMap>,
    pub secrets: BTreeMap<String, Secret>,
}

impl ConfigSource for FetchedConfig {
    fn config_map(&self, _namespace: &str, name: &str) -> Option<&ConfigMap> {
        self.config_maps.get(name)
    }

    fn secret(&self, _namespace: &str, name: &str) -> Option<&Secret> {
        self.secrets.get(name)
    }
}
