//! ingress-nginx's controller loop (with its add-on): the Ingresses of the classes naming it,
//! each one's ADDRESS (the controller Service's load-balancer IPs, `--publish-service`) while a
//! controller pod is ready, cleared when none is (`--update-status-on-shutdown`), a `Sync`
//! event per change, and the round-robin turns its pods route by (`ingress.rs`).

use crate::api::service::LoadBalancerIngress;
use crate::api::{Ingress, IngressClass, Kind, Pod, Service};
use crate::runtime::informer::{Changes, Informer};
use crate::store::Store;
use crate::store::event_recorder::{EventType, object_reference};
use std::collections::{BTreeMap, BTreeSet};

/// ingress-nginx's controller name, namespace and Service, as its deploy manifest names them.
pub const CONTROLLER: &str = "k8s.io/ingress-nginx";
pub const NAMESPACE: &str = "ingress-nginx";
pub const SERVICE: &str = "ingress-nginx-controller";

#[derive(Clone, Debug, Default)]
pub struct IngressController {
    pub(crate) informer: Informer,
    /// The next endpoint of each backend (namespace, Service, port), for round robin.
    turns: BTreeMap<(String, String, i32), usize>,
}

/// The Ingresses `controller` carries out: those whose class names it.
pub(super) fn ingresses_of<'s>(store: &'s Store, controller: &str) -> Vec<&'s Ingress> {
    let classes: BTreeSet<&str> = store
        .list::<IngressClass>(None)
        .filter(|c| c.spec.controller.as_deref() == Some(controller))
        .map(|c| c.metadata.name.as_str())
        .collect();
    store
        .list::<Ingress>(None)
        .filter(|i| i.spec.ingress_class_name.as_deref().is_some_and(|c| classes.contains(c)))
        .collect()
}

impl IngressController {
    pub(super) fn next_turn(&mut self, key: (String, String, i32), count: usize) -> usize {
        let turn = self.turns.entry(key).or_insert(0);
        let index = *turn % count;
        *turn = turn.wrapping_add(1);
        index
    }

    /// Writes the ADDRESS of ingress-nginx's Ingresses and a `Sync` event for each changed one.
    pub fn sync(&mut self, store: &mut Store) {
        let mut changed: BTreeSet<(String, String)> = BTreeSet::new();
        let mut everything = false;
        match self.informer.poll(store) {
            Changes::Events(events) => {
                for event in events {
                    match event.kind {
                        Kind::Ingress => drop(changed.insert((event.namespace.clone(), event.name.clone()))),
                        Kind::Pod | Kind::Service | Kind::IngressClass => {
                            everything |= event.namespace == NAMESPACE || event.kind == Kind::IngressClass
                        }
                        _ => {}
                    }
                }
            }
            Changes::Relist => everything = true,
        }
        if changed.is_empty() && !everything {
            return;
        }
        let addresses = published_addresses(store);
        let ours: Vec<Ingress> = ingresses_of(store, CONTROLLER).into_iter().cloned().collect();
        for mut ingress in ours {
            let key = (ingress.metadata.namespace.clone(), ingress.metadata.name.clone());
            if changed.contains(&key) && addresses.is_some() {
                store.record_event_from(
                    "nginx-ingress-controller",
                    object_reference(&ingress),
                    EventType::Normal,
                    "Sync",
                    "Scheduled for sync".into(),
                );
            }
            let wanted = addresses.clone().unwrap_or_default();
            if ingress.status.load_balancer.ingress != wanted {
                ingress.status.load_balancer.ingress = wanted;
                let _ = store.update_status(ingress);
            }
        }
    }
}

/// The controller Service's load-balancer IPs while a controller pod is ready (`None`: the
/// controller is not running); none yet while the Service's load balancer is pending.
fn published_addresses(store: &Store) -> Option<Vec<LoadBalancerIngress>> {
    let running = store
        .list::<Pod>(Some(NAMESPACE))
        .any(|p| p.metadata.labels.get("app.kubernetes.io/component") == Some("controller") && p.is_ready());
    if !running {
        return None;
    }
    let service = store.try_get::<Service>(NAMESPACE, SERVICE)?;
    let ips = service.status.load_balancer.ingress.iter().filter(|i| i.ip.is_some());
    Some(ips.map(|i| LoadBalancerIngress { ip: i.ip.clone(), hostname: None }).collect())
}
