//! Server-side printing: a list or an object as a `meta.k8s.io/v1` Table, the columns and
//! cells `kubectl get` prints (the same printers the lab's own kubectl uses), each row carrying
//! the object's metadata so kubectl can add NAMESPACE, labels and kinds itself. Mirrors
//! staging/src/k8s.io/apiserver/pkg/registry/rest/table.go and pkg/printers/internalversion.

use crate::api::{Kind, Object};
use crate::kubectl::printers;
use crate::sim::time::SimTime;
use serde_json::{Value, json};

/// What each row carries (`includeObject`): the default is the object's metadata.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IncludeObject {
    None,
    Metadata,
    Object,
}

impl IncludeObject {
    pub fn parse(value: Option<&str>) -> IncludeObject {
        match value {
            Some("None") => IncludeObject::None,
            Some("Object") => IncludeObject::Object,
            _ => IncludeObject::Metadata,
        }
    }
}

/// The Table of `objects` of `kind`, as of `now`.
pub fn table(kind: Kind, objects: &[Object], now: SimTime, resource_version: u64, include: IncludeObject) -> Value {
    let base = printers::headers(kind, false);
    let columns: Vec<Value> = printers::headers(kind, true)
        .iter()
        .map(|header| {
            let priority = if base.contains(header) { 0 } else { 1 };
            let mut column = json!({
                "name": column_name(header),
                "type": "string",
                "format": "",
                "description": "",
                "priority": priority,
            });
            if header == "NAME" {
                column["format"] = json!("name");
                column["description"] = json!("Name must be unique within a namespace.");
            }
            column
        })
        .collect();
    let rows: Vec<Value> = objects
        .iter()
        .map(|object| {
            let cells = printers::row(object, object.metadata().name.clone(), now, true);
            let mut row = json!({"cells": cells});
            match include {
                IncludeObject::None => {}
                IncludeObject::Metadata => {
                    let metadata = serde_json::to_value(object.metadata()).unwrap_or(Value::Null);
                    row["object"] = json!({
                        "kind": "PartialObjectMetadata",
                        "apiVersion": "meta.k8s.io/v1",
                        "metadata": metadata,
                    });
                }
                IncludeObject::Object => row["object"] = object.to_json_value(),
            }
            row
        })
        .collect();
    json!({
        "kind": "Table",
        "apiVersion": "meta.k8s.io/v1",
        "metadata": {"resourceVersion": resource_version.to_string()},
        "columnDefinitions": columns,
        "rows": rows,
    })
}

/// The column's name as upstream's printers declare it (kubectl upper-cases it again).
fn column_name(header: &str) -> String {
    const AS_DECLARED: &[&str] = &[
        "IP",
        "Cluster-IP",
        "External-IP",
        "Internal-IP",
        "Port(s)",
        "Up-to-date",
        "MinPods",
        "MaxPods",
        "OS-Image",
        "Kernel-Version",
        "Container-Runtime",
        "AddressType",
        "Global-Default",
        "PreemptionPolicy",
        "MinMember",
    ];
    if let Some(name) = AS_DECLARED.iter().find(|n| n.eq_ignore_ascii_case(header)) {
        return name.to_string();
    }
    header
        .split(' ')
        .map(|word| {
            let lower = word.to_lowercase();
            let mut chars = lower.chars();
            chars.next().map(|c| c.to_uppercase().chain(chars).collect::<String>()).unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_named_as_upstream_declares_them() {
        let names: Vec<String> =
            ["NAME", "READY", "NOMINATED NODE", "CLUSTER-IP", "PORT(S)", "UP-TO-DATE", "LAST SEEN", "IP"]
                .iter()
                .map(|h| column_name(h))
                .collect();
        assert_eq!(
            names,
            ["Name", "Ready", "Nominated Node", "Cluster-IP", "Port(s)", "Up-to-date", "Last Seen", "IP"]
        );
    }

    #[test]
    fn wide_columns_have_priority_one() {
        let table = table(Kind::Pod, &[], SimTime::ZERO, 7, IncludeObject::Metadata);
        let priorities: Vec<(String, i64)> = table["columnDefinitions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| (c["name"].as_str().unwrap().to_string(), c["priority"].as_i64().unwrap()))
            .collect();
        assert_eq!(priorities[0], ("Name".to_string(), 0));
        assert_eq!(priorities[5], ("IP".to_string(), 1));
        assert_eq!(table["metadata"]["resourceVersion"], "7");
    }
}
