//! `kubectl describe configmap` and `secret`: the keys, with ConfigMap values in full and
//! Secret values only as sizes. Mirrors `ConfigMapDescriber` and `describeSecret` in
//! staging/src/k8s.io/kubectl/pkg/describe/describe.go.

use super::events::{self, EventQuery};
use super::{Describer, LEVEL_0, PrefixWriter, annotations_multiline, labels_multiline};
use crate::api::{ConfigMap, Secret};

pub fn describe_config_map(describer: &Describer<'_>, cm: &ConfigMap) -> String {
    let mut w = PrefixWriter::default();
    w.write(LEVEL_0, &format!("Name:\t{}\n", cm.metadata.name));
    w.write(LEVEL_0, &format!("Namespace:\t{}\n", cm.metadata.namespace));
    labels_multiline(&mut w, "", "Labels", &cm.metadata.labels);
    annotations_multiline(&mut w, "Annotations", &cm.metadata.annotations);
    w.write(LEVEL_0, "\nData\n====\n");
    for (key, value) in cm.data.iter() {
        w.write(LEVEL_0, &format!("{key}:\n----\n{value}\n\n"));
    }
    w.write(LEVEL_0, "\nBinaryData\n====\n");
    for (key, value) in cm.binary_data.iter() {
        w.write(LEVEL_0, &format!("{key}: {} bytes\n", decoded_len(value)));
    }
    w.write(LEVEL_0, "\n");
    events::describe(&mut w, describer, events::search(describer, &EventQuery::for_object(cm)));
    w.finish()
}

pub fn describe_secret(secret: &Secret) -> String {
    let mut w = PrefixWriter::default();
    w.write(LEVEL_0, &format!("Name:\t{}\n", secret.metadata.name));
    w.write(LEVEL_0, &format!("Namespace:\t{}\n", secret.metadata.namespace));
    labels_multiline(&mut w, "", "Labels", &secret.metadata.labels);
    annotations_multiline(&mut w, "Annotations", &secret.metadata.annotations);
    w.write(LEVEL_0, &format!("\nType:\t{}\n", secret.type_.as_deref().unwrap_or("")));
    w.write(LEVEL_0, "\nData\n====\n");
    for (key, value) in secret.data.iter() {
        w.write(LEVEL_0, &format!("{key}:\t{} bytes\n", decoded_len(value)));
    }
    w.finish()
}

/// Bytes a padded base64 string decodes to.
fn decoded_len(encoded: &str) -> usize {
    let padding = encoded.chars().rev().take_while(|c| *c == '=').count();
    (encoded.len() / 4 * 3).saturating_sub(padding)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_show_sizes_not_values() {
        let secret: Secret = serde_yaml::from_str(
            "metadata: {name: s, namespace: default}\ntype: Opaque\ndata: {DB_PASSWORD: czNjcjN0}\n",
        )
        .unwrap();
        assert_eq!(
            describe_secret(&secret),
            "Name:         s\nNamespace:    default\nLabels:       <none>\nAnnotations:  <none>\n\nType:  Opaque\n\nData\n====\nDB_PASSWORD:  6 bytes\n"
        );
    }
}
