//! The namespace controller: a namespace marked for deletion is emptied, then removed.
//! Mirrors pkg/controller/namespace (NamespacedResourcesDeleter): phase Terminating, delete
//! everything inside, then drop the `kubernetes` finalizer.

use crate::api::labels::Selector;
use crate::api::{Kind, Namespace, RESOURCES};
use crate::store::{DeleteOptions, FieldSelector, Store};

#[derive(Clone, Debug, Default)]
pub struct NamespaceController;

impl NamespaceController {
    pub fn sync(&mut self, store: &mut Store) {
        let terminating: Vec<Namespace> =
            store.list::<Namespace>(None).filter(|ns| ns.metadata.deletion_timestamp.is_some()).cloned().collect();
        for ns in terminating {
            finalize(store, ns);
        }
    }
}

fn finalize(store: &mut Store, mut ns: Namespace) {
    let name = ns.metadata.name.clone();
    if ns.status.phase.as_deref() != Some("Terminating") {
        ns.status.phase = Some("Terminating".to_string());
        let _ = store.update_status(ns);
    }
    let mut remaining = 0;
    for info in RESOURCES.iter().filter(|r| r.namespaced) {
        let objects = store.list_objects(info.kind, Some(&name), &Selector::everything(), &FieldSelector::everything());
        for object in objects {
            remaining += 1;
            if object.metadata().deletion_timestamp.is_none() {
                let _ = store.delete_object(info.kind, &name, &object.metadata().name, &DeleteOptions::default());
            }
        }
    }
    if remaining == 0 {
        let force = DeleteOptions { grace_period_seconds: Some(0), ..Default::default() };
        let _ = store.delete_object(Kind::Namespace, "", &name, &force);
    }
}
