//! Kinds without a describer of their own (ConfigMaps, Secrets, Namespaces, EndpointSlices,
//! Events): name, namespace, labels and annotations, then every other field by its smart label,
//! as kubectl's generic describer prints unstructured objects. Mirrors `genericDescriber` and
//! `printUnstructuredContent` in staging/src/k8s.io/kubectl/pkg/describe/describe.go.

use super::events::{self, EventQuery};
use super::{Describer, LEVEL_0, PrefixWriter, annotations_multiline, labels_multiline};
use crate::api::{Event, Object};
use serde_json::{Map, Value};

pub fn describe(describer: &Describer<'_>, object: &Object) -> String {
    let mut w = PrefixWriter::default();
    let meta = object.metadata();
    w.write(LEVEL_0, &format!("Name:\t{}\n", meta.name));
    w.write(LEVEL_0, &format!("Namespace:\t{}\n", meta.namespace));
    labels_multiline(&mut w, "", "Labels", &meta.labels);
    annotations_multiline(&mut w, "Annotations", &meta.annotations);
    if let Value::Object(content) = object.to_json_value() {
        let skip = [
            ".metadata.managedFields",
            ".metadata.name",
            ".metadata.namespace",
            ".metadata.labels",
            ".metadata.annotations",
        ];
        unstructured(&mut w, LEVEL_0, &content, "", &skip);
    }
    if describer.show_events {
        let info = object.kind().info();
        let query = EventQuery {
            kind: Some(info.kind_name),
            namespace: &meta.namespace,
            name: &meta.name,
            uid: meta.uid.to_string(),
        };
        let found: Vec<Event> = events::search(describer, &query);
        events::describe(&mut w, describer, found);
    }
    w.finish()
}

fn unstructured(w: &mut PrefixWriter, level: usize, content: &Map<String, Value>, prefix: &str, skip: &[&str]) {
    let mut fields: Vec<&String> = content.keys().collect();
    fields.sort();
    for field in fields {
        let path = format!("{prefix}.{field}");
        if skip.contains(&path.as_str()) {
            continue;
        }
        match &content[field] {
            Value::Object(map) => {
                w.write(level, &format!("{}:\n", smart_label(field)));
                unstructured(w, level + 1, map, &path, skip);
            }
            Value::Array(items) => {
                w.write(level, &format!("{}:\n", smart_label(field)));
                for item in items {
                    match item {
                        Value::Object(map) => unstructured(w, level + 1, map, &path, skip),
                        other => w.write(level + 1, &format!("{}\n", scalar(other))),
                    }
                }
            }
            other => w.write(level, &format!("{}:\t{}\n", smart_label(field), scalar(other))),
        }
    }
}

fn scalar(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => "<nil>".into(),
        other => other.to_string(),
    }
}

/// `smartLabelFor`: `creationTimestamp` → `Creation Timestamp`, `apiVersion` → `API Version`;
/// an acronym run stays joined to the word after it (`insecureSkipTLSVerify` → `Insecure Skip
/// TLSVerify`), and only an all-lower-case word is title-cased.
fn smart_label(field: &str) -> String {
    if field.chars().any(|c| !c.is_alphabetic() && c != '-') {
        return field.to_string();
    }
    const ACRONYMS: [&str; 4] = ["API", "URL", "UID", "GUID"];
    merge_acronyms(camel_case_split(field))
        .into_iter()
        .filter(|part| part != "_")
        .map(|part| {
            let upper = part.to_uppercase();
            if ACRONYMS.contains(&upper.as_str()) {
                upper
            } else if part.to_lowercase() == part {
                title(&part)
            } else {
                part
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A part of two or more capitals is joined to the next part when that starts with a capital.
fn merge_acronyms(parts: Vec<String>) -> Vec<String> {
    let mut merged = Vec::with_capacity(parts.len());
    let mut parts = parts.into_iter().peekable();
    while let Some(part) = parts.next() {
        let acronym = part.chars().count() >= 2 && part.chars().all(|c| !c.is_alphabetic() || c.is_uppercase());
        match parts.peek() {
            Some(next) if acronym && next.starts_with(|c: char| c.is_uppercase()) => {
                let next = parts.next().unwrap_or_default();
                merged.push(part + &next);
            }
            _ => merged.push(part),
        }
    }
    merged
}

fn title(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or(String::new(), |first| first.to_uppercase().chain(chars).collect())
}

/// fatih/camelcase `Split`: runs of lower case, upper case (the last upper starting the next
/// word), digits and other characters.
fn camel_case_split(text: &str) -> Vec<String> {
    let class = |c: char| {
        if c.is_lowercase() {
            1
        } else if c.is_uppercase() {
            2
        } else if c.is_numeric() {
            3
        } else {
            4
        }
    };
    let mut runs: Vec<Vec<char>> = Vec::new();
    let mut last = 0;
    for c in text.chars() {
        let current = class(c);
        match runs.last_mut() {
            Some(run) if current == last => run.push(c),
            _ => runs.push(vec![c]),
        }
        last = current;
    }
    for i in 0..runs.len().saturating_sub(1) {
        let upper = runs[i].first().is_some_and(|c| class(*c) == 2);
        let lower = runs[i + 1].first().is_some_and(|c| class(*c) == 1);
        if upper
            && lower
            && let Some(moved) = runs[i].pop()
        {
            runs[i + 1].insert(0, moved);
        }
    }
    runs.into_iter().filter(|r| !r.is_empty()).map(|r| r.into_iter().collect()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_names_become_smart_labels() {
        assert_eq!(smart_label("creationTimestamp"), "Creation Timestamp");
        assert_eq!(smart_label("apiVersion"), "API Version");
        assert_eq!(smart_label("resourceVersion"), "Resource Version");
        assert_eq!(smart_label("uid"), "UID");
        assert_eq!(smart_label("data"), "Data");
        assert_eq!(smart_label("HTMLParser"), "HTMLParser");
        assert_eq!(smart_label("insecureSkipTLSVerify"), "Insecure Skip TLSVerify");
        assert_eq!(smart_label("podIPs"), "Pod I Ps", "fatih/camelcase moves the last capital of a run");
        assert_eq!(smart_label("my.key"), "my.key");
    }
}
