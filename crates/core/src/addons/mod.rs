//! Add-ons: the software a cluster's operators install on top of Kubernetes (a gang scheduler,
//! an ingress controller, a load balancer, the Gateway API, metrics-server, the GPU operator).
//! Each is one file here: its name, what it is, and the objects it installs — through the API
//! door, as `kubectl apply` would. A CRD among them makes its kind served (see
//! `store/custom_resource_definition.rs`); removing the add-on deletes them again, and its
//! custom resources with its CRDs.

mod coscheduling;
mod gateway_api;
mod ingress_nginx;
mod metallb;
mod metrics_server;
mod nvidia_dra_driver;

use crate::api::Object;
use crate::apiserver::Client;
use crate::error::ApiError;
use crate::sim::random::Purpose;
use crate::store::custom_resource_definition::custom_kind;
use crate::store::{DeleteOptions, Store, UserInfo};

/// The label every object an add-on installs carries, naming the add-on.
pub const ADDON_LABEL: &str = "addons.kubelab.dev/name";

/// One add-on.
pub struct Addon {
    pub name: &'static str,
    pub description: &'static str,
    /// What it installs, in order.
    pub objects: fn() -> Vec<Object>,
}

/// Every add-on a lab can install, by name.
pub const ADDONS: &[Addon] = &[
    coscheduling::ADDON,
    gateway_api::ADDON,
    ingress_nginx::ADDON,
    metallb::ADDON,
    metrics_server::ADDON,
    nvidia_dra_driver::ADDON,
];

/// The objects of an add-on's manifest (YAML the add-on ships, checked by its test).
fn manifest_objects(text: &str) -> Vec<Object> {
    let values = crate::manifest::parse_documents(text).unwrap_or_default();
    values.into_iter().filter_map(|value| crate::api::codec::decode(value).ok()).collect()
}

pub fn find(name: &str) -> Result<&'static Addon, String> {
    ADDONS.iter().find(|a| a.name == name).ok_or_else(|| {
        let known: Vec<&str> = ADDONS.iter().map(|a| a.name).collect();
        format!("error: unknown add-on \"{name}\"; known: {}", known.join(", "))
    })
}

impl Addon {
    /// Its objects, labelled as its own.
    fn labelled_objects(&self) -> Vec<Object> {
        let mut objects = (self.objects)();
        for object in &mut objects {
            object.metadata_mut().labels.insert(ADDON_LABEL, self.name);
        }
        objects
    }

    /// Whether every object it installs is there.
    pub fn is_installed(&self, store: &Store) -> bool {
        self.labelled_objects().iter().all(|o| {
            let meta = o.metadata();
            store.get_object(o.kind(), &meta.namespace, &meta.name).is_ok()
        })
    }

    /// Creates its objects as the cluster's admin; one already there is left as it is.
    /// Returns what kubectl would print for each. Their uids come from the control plane's
    /// stream, so installing one leaves the learner's uids as they were (an APIService or a
    /// CRD is neither namespaced in kube-* nor named system:*).
    pub fn install(&self, store: &mut Store) -> Result<Vec<String>, String> {
        store.with_uid_stream(Purpose::SystemUid, |store| self.create_all(store))
    }

    fn create_all(&self, store: &mut Store) -> Result<Vec<String>, String> {
        let mut client = Client::new(store, UserInfo::admin());
        let mut lines = Vec::new();
        for object in self.labelled_objects() {
            let (kind, name) = (object.kind(), object.metadata().name.clone());
            let line = format!("{}/{name}", kind.info().singular_qualified());
            match client.create(object) {
                Ok(_) => lines.push(format!("{line} created")),
                Err(ApiError::AlreadyExists { .. }) => lines.push(format!("{line} unchanged")),
                Err(error) => return Err(format!("Error from server ({}): {}", error.reason(), error.message())),
            }
        }
        Ok(lines)
    }

    /// Deletes its objects, last first.
    pub fn remove(&self, store: &mut Store) -> Vec<String> {
        let mut client = Client::new(store, UserInfo::admin());
        let mut lines = Vec::new();
        for object in self.labelled_objects().iter().rev() {
            let (kind, meta) = (object.kind(), object.metadata());
            if client.delete(kind, &meta.namespace, &meta.name, &DeleteOptions::default()).is_ok() {
                lines.push(format!("{}/{} deleted", kind.info().singular_qualified(), meta.name));
            }
        }
        lines
    }
}

/// The custom resources an add-on's CRDs would bring, for `lab addon list`.
pub fn kinds_brought(addon: &Addon) -> Vec<&'static str> {
    let objects = (addon.objects)();
    let crds = objects.iter().filter_map(|o| match o {
        Object::CustomResourceDefinition(crd) => Some(crd.metadata.name.clone()),
        _ => None,
    });
    crds.filter_map(|name| custom_kind(&name)).map(|r| r.kind_name).collect()
}
