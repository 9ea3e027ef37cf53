//! MetalLB's controller (with its add-on): every LoadBalancer Service without a
//! `loadBalancerClass` gets the lowest free address of the pool (or its `loadBalancerIP`
//! when that is free), written to `status.loadBalancer.ingress` with an `IPAllocated` event,
//! as MetalLB's allocator does; a Service that stops being a LoadBalancer gives it back.
//! Without the add-on nothing assigns addresses and EXTERNAL-IP stays `<pending>`.

use crate::api::service::LoadBalancerIngress;
use crate::api::{ConfigMap, Kind, Pod, Service};
use crate::runtime::informer::{Changes, Informer};
use crate::store::Store;
use crate::store::event_recorder::{EventType, object_reference};
use std::collections::BTreeSet;
use std::net::Ipv4Addr;

pub const NAMESPACE: &str = "metallb-system";
const POOL: &str = "lab-address-pool";

#[derive(Clone, Debug, Default)]
pub struct LoadBalancerController {
    pub(crate) informer: Informer,
}

impl LoadBalancerController {
    pub fn sync(&mut self, store: &mut Store) {
        let relevant = match self.informer.poll(store) {
            Changes::Events(mut events) => {
                events.any(|e| matches!(e.kind, Kind::Service | Kind::Pod | Kind::ConfigMap))
            }
            Changes::Relist => true,
        };
        if !relevant || !running(store) {
            return;
        }
        let Some(pool) = pool(store) else { return };
        let services: Vec<Service> = store.list::<Service>(None).cloned().collect();
        let mut used: BTreeSet<Ipv4Addr> = services.iter().flat_map(assigned).collect();
        for mut service in services {
            let wants =
                service.spec.type_.as_deref() == Some("LoadBalancer") && service.spec.load_balancer_class.is_none();
            let has = assigned(&service);
            if !wants && !has.is_empty() {
                used.retain(|ip| !has.contains(ip));
                service.status.load_balancer.ingress.clear();
                let _ = store.update_status(service);
                continue;
            }
            if !wants || !has.is_empty() {
                continue;
            }
            let asked = service.spec.load_balancer_ip.as_deref().and_then(|ip| ip.parse::<Ipv4Addr>().ok());
            let free = |ip: &Ipv4Addr| !used.contains(ip);
            let chosen = match asked {
                Some(ip) if pool.contains(&ip) && free(&ip) => Some(ip),
                Some(_) => None,
                None => pool.iter().copied().find(free),
            };
            let Some(ip) = chosen else { continue };
            used.insert(ip);
            let reference = object_reference(&service);
            service.status.load_balancer.ingress =
                vec![LoadBalancerIngress { ip: Some(ip.to_string()), hostname: None }];
            if store.update_status(service).is_ok() {
                store.record_event_from(
                    "metallb-controller",
                    reference,
                    EventType::Normal,
                    "IPAllocated",
                    format!("Assigned IP [\"{ip}\"]"),
                );
            }
        }
    }
}

/// Whether MetalLB's controller has a ready pod.
fn running(store: &Store) -> bool {
    store.list::<Pod>(Some(NAMESPACE)).any(|p| p.metadata.labels.get("component") == Some("controller") && p.is_ready())
}

/// The pool's addresses, from its `FIRST-LAST` range.
fn pool(store: &Store) -> Option<Vec<Ipv4Addr>> {
    let range = store.try_get::<ConfigMap>(NAMESPACE, POOL)?.data.get("addresses")?.to_string();
    let (first, last) = range.split_once('-')?;
    let (first, last): (Ipv4Addr, Ipv4Addr) = (first.trim().parse().ok()?, last.trim().parse().ok()?);
    let (first, last) = (u32::from(first), u32::from(last));
    (last >= first && last - first < 4096).then(|| (first..=last).map(Ipv4Addr::from).collect())
}

fn assigned(service: &Service) -> Vec<Ipv4Addr> {
    service.status.load_balancer.ingress.iter().filter_map(|i| i.ip.as_deref()?.parse().ok()).collect()
}
