//! The JSON Schema of the lesson format, generated from the Rust types (so editors can
//! complete and validate lesson files). `lessons/lesson.schema.json` holds the committed copy;
//! a test keeps it current (`KUBELAB_BLESS=1 cargo test -p kubelab-core --test lessons` rewrites it).

use super::format::Lesson;
use crate::cluster::ClusterSpec;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use std::borrow::Cow;

/// The schema as pretty JSON, with a trailing newline.
pub fn lesson_schema_json() -> String {
    let schema = schemars::schema_for!(Lesson);
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}

/// A cluster file's shape (`cluster.rs`): nodes with optional capacity, labels, taints and GPUs.
impl JsonSchema for ClusterSpec {
    fn schema_name() -> Cow<'static, str> {
        "ClusterSpec".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let quantity = json_schema!({"type": ["string", "integer"], "description": "A quantity: 4, 500m, 16Gi"});
        let addon_names: Vec<&str> = crate::addons::ADDONS.iter().map(|a| a.name).collect();
        json_schema!({
            "description": "The lab's machines and add-ons. Without nodes, the default three workers; anything a node leaves out takes the default: 4 CPU, 16Gi, 110 pods.",
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "addons": {
                    "type": "array",
                    "items": {"enum": addon_names},
                    "description": "The add-ons a new lab starts with; leave it out for metrics-server alone, [] for kind's bare cluster"
                },
                "nodes": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "additionalProperties": false,
                        "required": ["name"],
                        "properties": {
                            "name": {"type": "string"},
                            "cpu": quantity,
                            "memory": quantity,
                            "pods": {"type": "integer"},
                            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                            "gpu": {
                                "type": "string",
                                "description": "GPUs, MODEL[xN]: A100-SXM4-40GB, A100-SXM4-80GB, H100-SXM5-80GB, H200-SXM5-141GB, L4, T4"
                            },
                            "migStrategy": {"enum": ["none", "single", "mixed"]},
                            "taints": {
                                "type": "array",
                                "items": {
                                    "type": "object",
                                    "required": ["key", "effect"],
                                    "properties": {
                                        "key": {"type": "string"},
                                        "value": {"type": "string"},
                                        "effect": {"enum": ["NoSchedule", "PreferNoSchedule", "NoExecute"]}
                                    }
                                }
                            }
                        }
                    }
                }
            }
        })
    }
}
