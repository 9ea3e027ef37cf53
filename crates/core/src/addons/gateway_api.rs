//! `gateway-api`: the Gateway API's standard CRDs (kubernetes-sigs/gateway-api v1.2.1:
//! GatewayClass, Gateway, HTTPRoute in gateway.networking.k8s.io/v1) and NGINX Gateway Fabric
//! 1.6 as their controller: the GatewayClass `nginx`, the controller Deployment and its
//! LoadBalancer Service in `nginx-gateway`. Its status loop and routing are
//! `network/gateway.rs`.

use super::{Addon, manifest_objects};
use crate::api::custom_resource_definition::{
    CustomResourceDefinitionNames, CustomResourceDefinitionSpec, CustomResourceDefinitionVersion,
};
use crate::api::{CustomResourceDefinition, Kind, Object, ObjectMeta};
use serde_json::json;

pub const ADDON: Addon = Addon {
    name: "gateway-api",
    description: "The Gateway API (GatewayClass, Gateway, HTTPRoute v1) with NGINX Gateway Fabric as its controller: GatewayClass nginx and a LoadBalancer Service in nginx-gateway",
    objects,
};

fn objects() -> Vec<Object> {
    let column = |name: &str, type_: &str, path: &str| json!({"name": name, "type": type_, "jsonPath": path});
    let age = column("Age", "date", ".metadata.creationTimestamp");
    let mut objects = vec![
        crd(
            Kind::GatewayClass,
            "Cluster",
            vec![
                column("Controller", "string", ".spec.controllerName"),
                column("Accepted", "string", ".status.conditions[?(@.type==\"Accepted\")].status"),
                age.clone(),
            ],
        ),
        crd(
            Kind::Gateway,
            "Namespaced",
            vec![
                column("Class", "string", ".spec.gatewayClassName"),
                column("Address", "string", ".status.addresses[*].value"),
                column("Programmed", "string", ".status.conditions[?(@.type==\"Programmed\")].status"),
                age.clone(),
            ],
        ),
        crd(Kind::HttpRoute, "Namespaced", vec![column("Hostnames", "string", ".spec.hostnames"), age]),
    ];
    objects.extend(manifest_objects(include_str!("manifests/nginx-gateway.yaml")));
    objects
}

/// A CRD of the standard channel: names from the kind table, the v1 version served and
/// stored with a status subresource, its printer columns. The schema keeps unknown fields:
/// the lab's typed decoder is what checks the objects.
fn crd(kind: Kind, scope: &str, columns: Vec<serde_json::Value>) -> Object {
    let info = kind.info();
    let mut metadata = ObjectMeta::named("", &info.plural_qualified());
    metadata
        .annotations
        .insert("api-approved.kubernetes.io", "https://github.com/kubernetes-sigs/gateway-api/pull/2997");
    metadata.annotations.insert("gateway.networking.k8s.io/bundle-version", "v1.2.1");
    metadata.annotations.insert("gateway.networking.k8s.io/channel", "standard");
    let names = CustomResourceDefinitionNames {
        plural: info.plural.to_string(),
        singular: Some(info.singular.to_string()),
        short_names: info.short_names.iter().map(|s| s.to_string()).collect(),
        kind: info.kind_name.to_string(),
        list_kind: Some(format!("{}List", info.kind_name)),
        categories: vec!["gateway-api".to_string()],
    };
    let schema = json!({"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}});
    let version = CustomResourceDefinitionVersion {
        name: info.version.to_string(),
        served: true,
        storage: true,
        schema: Some(schema),
        subresources: Some(json!({"status": {}})),
        additional_printer_columns: columns,
        ..Default::default()
    };
    Object::CustomResourceDefinition(CustomResourceDefinition {
        metadata,
        spec: CustomResourceDefinitionSpec {
            group: info.group.to_string(),
            names,
            scope: scope.to_string(),
            versions: vec![version],
            ..Default::default()
        },
        ..Default::default()
    })
}
