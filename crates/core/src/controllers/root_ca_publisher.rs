//! The root CA certificate publisher (pkg/controller/certificates/rootcacertpublisher): every
//! active namespace has a `kube-root-ca.crt` ConfigMap holding the cluster's CA, which each
//! pod's `kube-api-access-…` volume projects as `ca.crt`. One deleted or edited is made
//! again; the namespaces the cluster starts with get theirs when the store is made.

use crate::api::string_map::StringMap;
use crate::api::{ConfigMap, Namespace, ObjectMeta};
use crate::kubeadm::CA_CERTIFICATE;
use crate::sim::random::Purpose;
use crate::store::{Store, UserInfo};

/// `RootCACertConfigMapName`.
pub const CONFIG_MAP: &str = "kube-root-ca.crt";
/// The controller's own service account in kube-system.
pub const SERVICE_ACCOUNT: &str = "root-ca-cert-publisher";
const DESCRIPTION_ANNOTATION: &str = "kubernetes.io/description";
const DESCRIPTION: &str = "Contains a CA bundle that can be used to verify the kube-apiserver when using internal \
endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across \
distributions of Kubernetes clusters.";

/// Creates the ConfigMap where it is missing and puts back its data where it changed, as the
/// controller's `syncNamespace` does. Its uids come from a stream of their own.
pub fn publish(store: &mut Store) {
    let due: Vec<(String, bool)> = store
        .list::<Namespace>(None)
        .filter(|ns| ns.metadata.deletion_timestamp.is_none())
        .filter_map(|ns| {
            let namespace = &ns.metadata.name;
            match store.try_get::<ConfigMap>(namespace, CONFIG_MAP) {
                None => Some((namespace.clone(), false)),
                Some(found) if !is_current(found) => Some((namespace.clone(), true)),
                Some(_) => None,
            }
        })
        .collect();
    if due.is_empty() {
        return;
    }
    let caller = store.act_as(UserInfo::controller(SERVICE_ACCOUNT));
    for (namespace, exists) in due {
        if exists {
            let Some(mut found) = store.try_get::<ConfigMap>(&namespace, CONFIG_MAP).cloned() else { continue };
            found.data = data();
            found.metadata.annotations.insert(DESCRIPTION_ANNOTATION, DESCRIPTION);
            let _ = store.update(found);
        } else {
            let _ = store.create_from_stream(Purpose::RootCaConfigMapUid, config_map(&namespace));
        }
    }
    store.act_as(caller);
}

fn is_current(found: &ConfigMap) -> bool {
    found.data == data() && found.metadata.annotations.get(DESCRIPTION_ANNOTATION) == Some(DESCRIPTION)
}

fn data() -> StringMap {
    let mut data = StringMap::new();
    data.insert("ca.crt", CA_CERTIFICATE);
    data
}

fn config_map(namespace: &str) -> ConfigMap {
    let mut metadata = ObjectMeta::named(namespace, CONFIG_MAP);
    metadata.annotations.insert(DESCRIPTION_ANNOTATION, DESCRIPTION);
    ConfigMap { metadata, data: data(), ..Default::default() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_namespace_has_the_ca_and_gets_it_back() {
        let mut store = Store::new(1);
        for namespace in crate::store::INITIAL_NAMESPACES {
            let found = store.get::<ConfigMap>(namespace, CONFIG_MAP).unwrap();
            assert!(found.data.get("ca.crt").unwrap().starts_with("-----BEGIN CERTIFICATE-----\n"));
        }
        store.act_as(UserInfo::admin());
        let mut edited = store.get::<ConfigMap>("default", CONFIG_MAP).unwrap().clone();
        edited.data.insert("ca.crt", "mine");
        store.update(edited).unwrap();
        store.delete::<ConfigMap>("kube-public", CONFIG_MAP, &Default::default()).unwrap();
        publish(&mut store);
        assert_eq!(store.get::<ConfigMap>("default", CONFIG_MAP).unwrap().data, data());
        assert!(store.try_get::<ConfigMap>("kube-public", CONFIG_MAP).is_some());
    }
}
