//! ControllerRevision bookkeeping shared by the DaemonSet and StatefulSet controllers, as
//! upstream's `pkg/controller/history` (controller_history.go): naming, hashing, ordering and
//! equality of revisions.
//!
//! A revision is named `<owner>-<hash>` and labelled `controller-revision-hash: <hash>`; its
//! `data` is a patch that restores the owner's template; `revision` counts up from 1.

use super::deployment::hash::{Fnv32, safe_encode};
use crate::api::controller_revision::ControllerRevision;
use crate::api::meta::{ObjectMeta, OwnerReference};
use crate::api::pod::PodTemplateSpec;
use crate::api::string_map::StringMap;

/// The label a revision (and each pod made from it) carries: the revision's hash
/// (`apps.ControllerRevisionHashLabelKey`, also `DefaultDaemonSetUniqueLabelKey`).
pub const CONTROLLER_REVISION_HASH: &str = "controller-revision-hash";

/// How much of an owner's name a revision name keeps, so `<prefix>-<hash>` fits 253 characters
/// (upstream's `ControllerRevisionName` truncates at 223).
const MAX_PREFIX: usize = 223;

/// `ControllerRevisionName`: the owner's name (truncated) and the hash.
pub fn controller_revision_name(prefix: &str, hash: &str) -> String {
    // Names are ASCII once validated; a cut inside a character keeps the whole prefix.
    let prefix = prefix.get(..MAX_PREFIX).unwrap_or(prefix);
    format!("{prefix}-{hash}")
}

/// `HashControllerRevision`: FNV-1 (32 bit) over the revision's data as the API server stores
/// it (Go's `json.Marshal`: sorted keys, HTML-escaped), then the probe (a collision count) in
/// decimal, printed in decimal and passed through `SafeEncodeString`.
pub fn hash_controller_revision(revision: &ControllerRevision, probe: Option<i32>) -> String {
    let mut hash = Fnv32::default();
    if let Some(data) = &revision.data {
        hash.write(go_json(data).as_bytes());
    }
    if let Some(probe) = probe {
        hash.write(probe.to_string().as_bytes());
    }
    safe_encode(&hash.value().to_string())
}

/// `NewControllerRevision`: a revision of `parent` (owned through `controller_ref`) carrying
/// the template's labels, `data` and number `revision`, named and labelled by its hash.
pub fn new_controller_revision(
    parent: &ObjectMeta,
    controller_ref: OwnerReference,
    template_labels: &StringMap,
    data: serde_json::Value,
    revision: i64,
    collision_count: Option<i32>,
) -> ControllerRevision {
    let mut cr = ControllerRevision {
        metadata: ObjectMeta {
            namespace: parent.namespace.clone(),
            labels: template_labels.clone(),
            owner_references: vec![controller_ref],
            ..Default::default()
        },
        data: Some(data),
        revision,
    };
    let hash = hash_controller_revision(&cr, collision_count);
    cr.metadata.name = controller_revision_name(&parent.name, &hash);
    cr.metadata.labels.insert(CONTROLLER_REVISION_HASH, hash);
    cr
}

/// `EqualRevision`: the same data (the hash labels, when both parse as numbers, must agree;
/// encoded hashes never do, so in practice the data decides).
pub fn equal_revision(a: &ControllerRevision, b: &ControllerRevision) -> bool {
    let number = |cr: &ControllerRevision| cr.metadata.labels.get(CONTROLLER_REVISION_HASH)?.parse::<u32>().ok();
    if let (Some(x), Some(y)) = (number(a), number(b))
        && x != y
    {
        return false;
    }
    a.data == b.data
}

/// `FindEqualRevisions`: the revisions among `revisions` equal to `needle`.
pub fn find_equal_revisions<'a>(
    revisions: &'a [ControllerRevision],
    needle: &ControllerRevision,
) -> Vec<&'a ControllerRevision> {
    revisions.iter().filter(|r| equal_revision(r, needle)).collect()
}

/// `SortControllerRevisions`: by revision number, then creation time, then name.
pub fn sort_controller_revisions(revisions: &mut [ControllerRevision]) {
    revisions.sort_by(|a, b| {
        (a.revision, a.metadata.creation_timestamp, &a.metadata.name).cmp(&(
            b.revision,
            b.metadata.creation_timestamp,
            &b.metadata.name,
        ))
    });
}

/// The template a revision's data (`{"spec":{"template":{…,"$patch":"replace"}}}`) puts
/// back: upstream `ApplyRevision` and kubectl's `applyDaemonSetHistory`; `None` if it holds none.
pub fn revision_template(revision: &ControllerRevision) -> Option<PodTemplateSpec> {
    let mut template = revision.data.as_ref()?.pointer("/spec/template")?.clone();
    if let Some(fields) = template.as_object_mut() {
        fields.remove("$patch");
    }
    serde_json::from_value(template).ok()
}

/// `NextRevision`: one more than the highest revision number (1 for none).
pub fn next_revision(revisions: &[ControllerRevision]) -> i64 {
    revisions.iter().map(|r| r.revision).max().unwrap_or(0) + 1
}

/// JSON as Go's `encoding/json` writes it: keys sorted (serde_json's maps are ordered), and
/// `<`, `>`, `&`, U+2028 and U+2029 escaped as `\u003c` and so on. Those characters occur only
/// inside strings, so replacing them in the text is the same as escaping while writing.
pub fn go_json(value: &serde_json::Value) -> String {
    let text = value.to_string();
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn owner() -> (ObjectMeta, OwnerReference) {
        let meta = ObjectMeta::named("default", "web");
        let reference = OwnerReference {
            api_version: "apps/v1".into(),
            kind: "StatefulSet".into(),
            name: "web".into(),
            uid: Default::default(),
            controller: Some(true),
            block_owner_deletion: Some(true),
        };
        (meta, reference)
    }

    #[test]
    fn a_revision_is_named_and_labelled_by_its_hash() {
        let (meta, reference) = owner();
        let labels: StringMap = [("app", "web")].into_iter().collect();
        let data = json!({"spec": {"template": {"$patch": "replace"}}});
        let cr = new_controller_revision(&meta, reference, &labels, data, 1, None);
        let hash = cr.metadata.labels.get(CONTROLLER_REVISION_HASH).unwrap().to_string();
        assert_eq!(cr.metadata.name, format!("web-{hash}"));
        assert_eq!(cr.metadata.labels.get("app"), Some("web"));
        assert_eq!(cr.metadata.owner_references[0].kind, "StatefulSet");
        assert_eq!(hash_controller_revision(&cr, None), hash);
        assert_ne!(hash_controller_revision(&cr, Some(1)), hash, "a collision count moves the hash");
    }

    #[test]
    fn fnv1_hash_of_the_raw_bytes_is_upstreams() {
        let mut reference = Fnv32::default();
        reference.write(b"a");
        assert_eq!(reference.value(), 0x050c_5d7e, "FNV-1's published vector for \"a\"");
        let cr = ControllerRevision { data: Some(json!({"a": 1})), ..Default::default() };
        let mut hash = Fnv32::default();
        hash.write(b"{\"a\":1}");
        assert_eq!(hash_controller_revision(&cr, None), safe_encode(&hash.value().to_string()));
    }

    #[test]
    fn equal_data_means_equal_revisions_and_numbers_count_up() {
        let a = ControllerRevision { data: Some(json!({"x": "<y>"})), revision: 2, ..Default::default() };
        let mut b = a.clone();
        b.revision = 5;
        let c = ControllerRevision { data: Some(json!({"x": 1})), revision: 3, ..Default::default() };
        assert!(equal_revision(&a, &b));
        assert!(!equal_revision(&a, &c));
        let mut all = vec![b.clone(), c.clone(), a.clone()];
        sort_controller_revisions(&mut all);
        assert_eq!(all.iter().map(|r| r.revision).collect::<Vec<_>>(), [2, 3, 5]);
        assert_eq!(find_equal_revisions(&all, &a).len(), 2);
        assert_eq!(next_revision(&all), 6);
        assert_eq!(next_revision(&[]), 1);
        assert_eq!(go_json(&json!({"x": "<y>&"})), r#"{"x":"\u003cy\u003e\u0026"}"#);
    }

    #[test]
    fn long_owner_names_are_cut_to_fit() {
        let name = controller_revision_name(&"a".repeat(300), "abc");
        assert_eq!(name.len(), MAX_PREFIX + 4);
    }
}
