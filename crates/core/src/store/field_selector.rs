//! Field selectors (`--field-selector status.phase=Running,spec.nodeName=node-1`): `=`, `==`
//! and `!=` over the few fields each kind supports, as the API server's field label
//! conversion functions allow (pkg/registry/*/strategy.go `GetAttrs`/`*ToSelectableFields`).

use crate::api::{Event, Kind, Namespace, Node, Pod, Resource, ResourceSlice, Secret};

#[derive(Clone, Debug, PartialEq, Eq)]
struct Term {
    field: String,
    equals: bool,
    value: String,
}

/// A parsed field selector; empty matches everything.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FieldSelector {
    terms: Vec<Term>,
}

impl FieldSelector {
    pub fn everything() -> Self {
        FieldSelector::default()
    }

    /// Parses `a=b,c!=d`; checks the fields against what `kind` supports.
    pub fn parse(text: &str, kind: Kind) -> Result<FieldSelector, String> {
        let mut terms = Vec::new();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (field, equals, value) = if let Some((f, v)) = part.split_once("!=") {
                (f, false, v)
            } else if let Some((f, v)) = part.split_once("==").or_else(|| part.split_once('=')) {
                (f, true, v)
            } else {
                return Err(format!("invalid selector: '{text}'; can't understand '{part}'"));
            };
            let field = field.trim();
            if !supported_fields(kind).contains(&field) {
                return Err(format!("field label not supported: {field}"));
            }
            terms.push(Term { field: field.to_string(), equals, value: value.trim().to_string() });
        }
        Ok(FieldSelector { terms })
    }

    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    pub fn matches<T: Resource>(&self, object: &T) -> bool {
        self.terms.iter().all(|term| {
            let actual = field_value(object, &term.field).unwrap_or_default();
            (actual == term.value) == term.equals
        })
    }
}

/// The selector as a client sends it (`metadata.name=web,status.phase!=Running`).
impl std::fmt::Display for FieldSelector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, term) in self.terms.iter().enumerate() {
            let op = if term.equals { "=" } else { "!=" };
            write!(f, "{}{}{op}{}", if i == 0 { "" } else { "," }, term.field, term.value)?;
        }
        Ok(())
    }
}

fn supported_fields(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::Pod => &[
            "metadata.name",
            "metadata.namespace",
            "spec.nodeName",
            "spec.restartPolicy",
            "spec.schedulerName",
            "spec.serviceAccountName",
            "spec.hostNetwork",
            "status.phase",
            "status.podIP",
            "status.nominatedNodeName",
        ],
        Kind::Node => &["metadata.name", "spec.unschedulable"],
        Kind::Namespace => &["metadata.name", "status.phase"],
        Kind::Secret => &["metadata.name", "metadata.namespace", "type"],
        Kind::Event => &[
            "metadata.name",
            "metadata.namespace",
            "involvedObject.kind",
            "involvedObject.namespace",
            "involvedObject.name",
            "involvedObject.uid",
            "involvedObject.apiVersion",
            "involvedObject.resourceVersion",
            "involvedObject.fieldPath",
            "reason",
            "reportingComponent",
            "source",
            "type",
        ],
        // ResourceSlice's field label conversion (pkg/apis/resource/v1 conversion.go).
        Kind::ResourceSlice => {
            &["metadata.name", "metadata.namespace", "spec.nodeName", "spec.driver", "spec.pool.name"]
        }
        _ => &["metadata.name", "metadata.namespace"],
    }
}

/// The value of a selectable field, as its string form.
fn field_value<T: Resource>(object: &T, field: &str) -> Option<String> {
    let meta = object.metadata();
    match field {
        "metadata.name" => return Some(meta.name.clone()),
        "metadata.namespace" => return Some(meta.namespace.clone()),
        _ => {}
    }
    let any: &dyn std::any::Any = object;
    if let Some(pod) = any.downcast_ref::<Pod>() {
        return pod_field(pod, field);
    }
    if let Some(node) = any.downcast_ref::<Node>() {
        return (field == "spec.unschedulable").then(|| node.spec.unschedulable.unwrap_or(false).to_string());
    }
    if let Some(ns) = any.downcast_ref::<Namespace>() {
        return (field == "status.phase").then(|| ns.status.phase.clone().unwrap_or_default());
    }
    if let Some(secret) = any.downcast_ref::<Secret>() {
        return (field == "type").then(|| secret.type_.clone().unwrap_or_default());
    }
    if let Some(slice) = any.downcast_ref::<ResourceSlice>() {
        return match field {
            "spec.nodeName" => Some(slice.spec.node_name.clone().unwrap_or_default()),
            "spec.driver" => Some(slice.spec.driver.clone()),
            "spec.pool.name" => Some(slice.spec.pool.name.clone()),
            _ => None,
        };
    }
    any.downcast_ref::<Event>().and_then(|e| event_field(e, field))
}

fn pod_field(pod: &Pod, field: &str) -> Option<String> {
    let spec = &pod.spec;
    Some(match field {
        "spec.nodeName" => spec.node_name.clone().unwrap_or_default(),
        "spec.restartPolicy" => spec.restart_policy.clone().unwrap_or_default(),
        "spec.schedulerName" => spec.scheduler_name.clone().unwrap_or_default(),
        "spec.serviceAccountName" => spec.service_account_name.clone().unwrap_or_default(),
        "spec.hostNetwork" => spec.host_network.unwrap_or(false).to_string(),
        "status.phase" => pod.phase().to_string(),
        "status.podIP" => pod.status.pod_ip.clone().unwrap_or_default(),
        "status.nominatedNodeName" => pod.status.nominated_node_name.clone().unwrap_or_default(),
        _ => return None,
    })
}

fn event_field(event: &Event, field: &str) -> Option<String> {
    let io = &event.involved_object;
    Some(match field {
        "involvedObject.kind" => io.kind.clone().unwrap_or_default(),
        "involvedObject.namespace" => io.namespace.clone().unwrap_or_default(),
        "involvedObject.name" => io.name.clone().unwrap_or_default(),
        "involvedObject.uid" => io.uid.map(|u| u.to_string()).unwrap_or_default(),
        "involvedObject.apiVersion" => io.api_version.clone().unwrap_or_default(),
        "involvedObject.resourceVersion" => io.resource_version.clone().unwrap_or_default(),
        "involvedObject.fieldPath" => io.field_path.clone().unwrap_or_default(),
        "reason" => event.reason.clone().unwrap_or_default(),
        "reportingComponent" => event.reporting_component.clone().unwrap_or_default(),
        "source" => event.source.component.clone().unwrap_or_default(),
        "type" => event.type_.clone().unwrap_or_default(),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::ObjectMeta;

    #[test]
    fn pod_fields_select_by_phase_and_node() {
        let mut pod = Pod { metadata: ObjectMeta::named("default", "web-1"), ..Default::default() };
        pod.spec.node_name = Some("node-1".into());
        let on_node = FieldSelector::parse("spec.nodeName=node-1", Kind::Pod).unwrap();
        let not_pending = FieldSelector::parse("status.phase!=Pending", Kind::Pod).unwrap();
        assert!(on_node.matches(&pod));
        assert!(!not_pending.matches(&pod));
        assert_eq!(
            FieldSelector::parse("spec.color=red", Kind::Pod).unwrap_err(),
            "field label not supported: spec.color"
        );
    }
}
