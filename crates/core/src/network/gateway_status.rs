//! NGINX Gateway Fabric's status loop (with the gateway-api add-on): what it writes on its
//! GatewayClass, Gateways and HTTPRoutes (Accepted, Programmed, ResolvedRefs and their
//! reasons, as the Gateway API's conformance defines them). How its pods route is `gateway.rs`.

use crate::api::condition::{Condition, set_conditions};
use crate::api::gateway::{GatewayStatusAddress, ListenerStatus, RouteGroupKind};
use crate::api::http_route::{HttpRoute, ParentReference, RouteParentStatus};
use crate::api::meta::Time;
use crate::api::{Gateway, GatewayClass, Kind, Pod, Service};
use crate::runtime::informer::{Changes, Informer};
use crate::store::Store;

pub const CONTROLLER: &str = "gateway.nginx.org/nginx-gateway-controller";
pub const NAMESPACE: &str = "nginx-gateway";
pub const SERVICE: &str = "nginx-gateway";
const GROUP: &str = "gateway.networking.k8s.io";

#[derive(Clone, Debug, Default)]
pub struct GatewayController {
    pub(crate) informer: Informer,
}

/// Whether NGINX Gateway Fabric's pod is ready.
fn running(store: &Store) -> bool {
    store.list::<Pod>(Some(NAMESPACE)).any(|p| p.is_ready())
}

/// The Gateways whose class names this controller.
pub(super) fn our_gateways(store: &Store) -> Vec<&Gateway> {
    let ours =
        |class: &str| store.try_get::<GatewayClass>("", class).is_some_and(|c| c.spec.controller_name == CONTROLLER);
    store.list::<Gateway>(None).filter(|g| ours(&g.spec.gateway_class_name)).collect()
}

/// The Gateway a parentRef names (Gateways only), in the route's namespace unless it says.
fn parent<'s>(store: &'s Store, route: &HttpRoute, parent: &ParentReference) -> Option<&'s Gateway> {
    let is_gateway =
        parent.kind.as_deref().is_none_or(|k| k == "Gateway") && parent.group.as_deref().is_none_or(|g| g == GROUP);
    let namespace = parent.namespace.as_deref().unwrap_or(&route.metadata.namespace);
    is_gateway.then(|| store.try_get::<Gateway>(namespace, &parent.name)).flatten()
}

/// A route may attach to a Gateway of another namespace only if its listeners allow it
/// (`allowedRoutes.namespaces.from`, default `Same`).
fn allowed(gateway: &Gateway, route: &HttpRoute) -> bool {
    gateway.spec.listeners.iter().any(|l| {
        let from = l.allowed_routes.as_ref().and_then(|a| a.pointer("/namespaces/from")).and_then(|f| f.as_str());
        match from.unwrap_or("Same") {
            "All" => true,
            _ => gateway.metadata.namespace == route.metadata.namespace,
        }
    })
}

impl GatewayController {
    pub fn sync(&mut self, store: &mut Store) {
        let relevant = match self.informer.poll(store) {
            Changes::Events(mut events) => events.any(|e| {
                matches!(e.kind, Kind::GatewayClass | Kind::Gateway | Kind::HttpRoute | Kind::Service | Kind::Pod)
            }),
            Changes::Relist => true,
        };
        if !relevant || !store.serves(Kind::Gateway) || !running(store) {
            return;
        }
        let now = Time(store.now());
        accept_classes(store, now);
        let routes: Vec<HttpRoute> = store.list::<HttpRoute>(None).cloned().collect();
        let mut attached: Vec<(String, String)> = Vec::new();
        for route in routes {
            attached.extend(route_status(store, route, now));
        }
        let gateways: Vec<Gateway> = our_gateways(store).into_iter().cloned().collect();
        for gateway in gateways {
            let key = (gateway.metadata.namespace.clone(), gateway.metadata.name.clone());
            let count = attached.iter().filter(|k| **k == key).count() as i32;
            gateway_status(store, gateway, count, now);
        }
    }
}

fn accept_classes(store: &mut Store, now: Time) {
    let classes: Vec<GatewayClass> =
        store.list::<GatewayClass>(None).filter(|c| c.spec.controller_name == CONTROLLER).cloned().collect();
    for mut class in classes {
        let generation = class.metadata.generation;
        let wanted = vec![
            Condition::new("Accepted", true, "Accepted", "GatewayClass is accepted", generation, now),
            Condition::new(
                "SupportedVersion",
                true,
                "SupportedVersion",
                "Gateway API CRD versions are supported",
                generation,
                now,
            ),
        ];
        if set_conditions(&mut class.status.conditions, wanted) {
            let _ = store.update_status(class);
        }
    }
}

/// A Gateway's conditions and listeners; Programmed once its Service has an address (NGINX
/// Gateway Fabric's `AddressNotAssigned` until then).
fn gateway_status(store: &mut Store, mut gateway: Gateway, attached: i32, now: Time) {
    let generation = gateway.metadata.generation;
    let addresses: Vec<GatewayStatusAddress> = store
        .try_get::<Service>(NAMESPACE, SERVICE)
        .map(|s| s.status.load_balancer.ingress.iter().filter_map(|i| i.ip.clone()).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .map(|value| GatewayStatusAddress { type_: Some("IPAddress".into()), value })
        .collect();
    let programmed = if addresses.is_empty() {
        Condition::new(
            "Programmed",
            false,
            "AddressNotAssigned",
            "No addresses have been assigned to the Gateway",
            generation,
            now,
        )
    } else {
        Condition::new("Programmed", true, "Programmed", "Gateway is programmed", generation, now)
    };
    let mut conditions = gateway.status.conditions.clone();
    let accepted = Condition::new("Accepted", true, "Accepted", "Gateway is accepted", generation, now);
    let mut changed = set_conditions(&mut conditions, vec![accepted, programmed]);
    let listeners: Vec<ListenerStatus> = gateway
        .spec
        .listeners
        .iter()
        .map(|listener| {
            let supported = matches!(listener.protocol.as_str(), "HTTP" | "HTTPS");
            let old = gateway.status.listeners.iter().find(|l| l.name == listener.name);
            let mut listener_conditions = old.map(|l| l.conditions.clone()).unwrap_or_default();
            let wanted = if supported {
                vec![
                    Condition::new("Accepted", true, "Accepted", "Listener is accepted", generation, now),
                    Condition::new("Programmed", true, "Programmed", "Listener is programmed", generation, now),
                    Condition::new(
                        "ResolvedRefs",
                        true,
                        "ResolvedRefs",
                        "All references are resolved",
                        generation,
                        now,
                    ),
                    Condition::new("Conflicted", false, "NoConflicts", "No conflicts", generation, now),
                ]
            } else {
                let message = format!("Protocol {:?} is not supported, use \"HTTP\" or \"HTTPS\"", listener.protocol);
                vec![Condition::new("Accepted", false, "UnsupportedProtocol", &message, generation, now)]
            };
            set_conditions(&mut listener_conditions, wanted);
            ListenerStatus {
                name: listener.name.clone(),
                supported_kinds: vec![RouteGroupKind { group: Some(GROUP.into()), kind: "HTTPRoute".into() }],
                attached_routes: if supported { attached } else { 0 },
                conditions: listener_conditions,
            }
        })
        .collect();
    changed |= listeners != gateway.status.listeners || addresses != gateway.status.addresses;
    if changed {
        gateway.status = crate::api::gateway::GatewayStatus { addresses, conditions, listeners };
        let _ = store.update_status(gateway);
    }
}

/// A route's status for each of its parents that is one of our Gateways; returns the Gateways
/// it attached to.
fn route_status(store: &mut Store, mut route: HttpRoute, now: Time) -> Vec<(String, String)> {
    let generation = route.metadata.generation;
    let resolved = unresolved_backend(store, &route).map_or_else(
        || Condition::new("ResolvedRefs", true, "ResolvedRefs", "All references are resolved", generation, now),
        |message| Condition::new("ResolvedRefs", false, "BackendNotFound", &message, generation, now),
    );
    let mut parents = Vec::new();
    let mut attached = Vec::new();
    for parent_ref in &route.spec.parent_refs {
        let Some(gateway) = parent(store, &route, parent_ref) else { continue };
        if store
            .try_get::<GatewayClass>("", &gateway.spec.gateway_class_name)
            .is_none_or(|c| c.spec.controller_name != CONTROLLER)
        {
            continue;
        }
        let accepted = if allowed(gateway, &route) {
            attached.push((gateway.metadata.namespace.clone(), gateway.metadata.name.clone()));
            Condition::new("Accepted", true, "Accepted", "The route is accepted", generation, now)
        } else {
            let message = "HTTPRoute is not allowed by any listener";
            Condition::new("Accepted", false, "NotAllowedByListeners", message, generation, now)
        };
        let old = route.status.parents.iter().find(|p| p.parent_ref == *parent_ref && p.controller_name == CONTROLLER);
        let mut conditions = old.map(|p| p.conditions.clone()).unwrap_or_default();
        set_conditions(&mut conditions, vec![accepted, resolved.clone()]);
        parents.push(RouteParentStatus {
            parent_ref: parent_ref.clone(),
            controller_name: CONTROLLER.into(),
            conditions,
        });
    }
    // Other controllers' entries stay as they are.
    let mut all: Vec<RouteParentStatus> =
        route.status.parents.iter().filter(|p| p.controller_name != CONTROLLER).cloned().collect();
    all.extend(parents);
    if all != route.status.parents {
        route.status.parents = all;
        let _ = store.update_status(route);
    }
    attached
}

/// `spec.rules[0].backendRefs[1].name: Not found: "api"` for the first Service that is missing.
fn unresolved_backend(store: &Store, route: &HttpRoute) -> Option<String> {
    for (i, rule) in route.spec.rules.iter().enumerate() {
        for (j, backend) in rule.backend_refs.iter().enumerate() {
            let namespace = backend.namespace.as_deref().unwrap_or(&route.metadata.namespace);
            if store.try_get::<Service>(namespace, &backend.name).is_none() {
                return Some(format!("spec.rules[{i}].backendRefs[{j}].name: Not found: {:?}", backend.name));
            }
        }
    }
    None
}
