//! `kubectl describe` for PersistentVolumeClaims, PersistentVolumes and StorageClasses.
//! Mirrors describe.go's `PersistentVolumeClaimDescriber` (printPersistentVolumeClaim and its
//! "Used By" pods), `PersistentVolumeDescriber` (printVolumeNodeAffinity, the source) and
//! `StorageClassDescriber`.

use super::events::{self, EventQuery};
use super::{Describer, LEVEL_0, LEVEL_1, LEVEL_2, PrefixWriter, annotations_multiline, labels_multiline, since};
use crate::api::persistent_volume::VolumeNodeAffinity;
use crate::api::persistent_volume_claim::access_modes_string;
use crate::api::quantity::Quantity;
use crate::api::string_map::StringMap;
use crate::api::{PersistentVolume, PersistentVolumeClaim, Pod, StorageClass};
use crate::store::Store;

/// Go's `%v` of a string slice: `[a b]`.
fn go_list(items: &[String]) -> String {
    format!("[{}]", items.join(" "))
}

fn status(w: &mut PrefixWriter, describer: &Describer<'_>, deleted: Option<crate::api::meta::Time>, phase: &str) {
    match deleted {
        Some(at) => w.write(LEVEL_0, &format!("Status:\tTerminating (lasts {})\n", since(Some(at), describer.now))),
        None => w.write(LEVEL_0, &format!("Status:\t{phase}\n")),
    }
}

pub fn describe_claim(describer: &Describer<'_>, claim: &PersistentVolumeClaim) -> String {
    let mut w = PrefixWriter::default();
    let meta = &claim.metadata;
    w.write(LEVEL_0, &format!("Name:\t{}\n", meta.name));
    w.write(LEVEL_0, &format!("Namespace:\t{}\n", meta.namespace));
    w.write(LEVEL_0, &format!("StorageClass:\t{}\n", claim.class()));
    status(&mut w, describer, meta.deletion_timestamp, claim.phase());
    let volume = claim.spec.volume_name.clone().unwrap_or_default();
    w.write(LEVEL_0, &format!("Volume:\t{volume}\n"));
    labels_multiline(&mut w, "", "Labels", &meta.labels);
    annotations_multiline(&mut w, "Annotations", &meta.annotations);
    w.write(LEVEL_0, &format!("Finalizers:\t{}\n", go_list(&meta.finalizers)));
    let (capacity, modes) = if volume.is_empty() {
        (String::new(), String::new())
    } else {
        let size = claim.status.capacity.get("storage").cloned().unwrap_or_else(Quantity::zero);
        (size.to_string(), access_modes_string(&claim.status.access_modes))
    };
    w.write(LEVEL_0, &format!("Capacity:\t{capacity}\n"));
    w.write(LEVEL_0, &format!("Access Modes:\t{modes}\n"));
    if let Some(mode) = &claim.spec.volume_mode {
        w.write(LEVEL_0, &format!("VolumeMode:\t{mode}\n"));
    }
    let users = pods_using(describer.store, claim);
    w.write(LEVEL_0, "Used By:\t");
    if users.is_empty() {
        w.write_line("<none>");
    }
    for (i, pod) in users.iter().enumerate() {
        if i != 0 {
            w.write(LEVEL_0, "\t");
        }
        w.write(LEVEL_0, &format!("{pod}\n"));
    }
    events::describe(&mut w, describer, events::search(describer, &EventQuery::for_object(claim)));
    w.finish()
}

/// `getPodsForPVC`: the pods of the claim's namespace that mount it, by name.
fn pods_using(store: &Store, claim: &PersistentVolumeClaim) -> Vec<String> {
    let uses = |pod: &&Pod| {
        pod.spec
            .volumes
            .iter()
            .any(|v| v.persistent_volume_claim.as_ref().is_some_and(|c| c.claim_name == claim.metadata.name))
    };
    store.list::<Pod>(Some(&claim.metadata.namespace)).filter(uses).map(|p| p.metadata.name.clone()).collect()
}

pub fn describe_volume(describer: &Describer<'_>, volume: &PersistentVolume) -> String {
    let mut w = PrefixWriter::default();
    let (meta, spec) = (&volume.metadata, &volume.spec);
    w.write(LEVEL_0, &format!("Name:\t{}\n", meta.name));
    labels_multiline(&mut w, "", "Labels", &meta.labels);
    annotations_multiline(&mut w, "Annotations", &meta.annotations);
    w.write(LEVEL_0, &format!("Finalizers:\t{}\n", go_list(&meta.finalizers)));
    w.write(LEVEL_0, &format!("StorageClass:\t{}\n", volume.class()));
    status(&mut w, describer, meta.deletion_timestamp, volume.phase());
    let claim = spec.claim_ref.as_ref().map_or(String::new(), |r| {
        format!("{}/{}", r.namespace.as_deref().unwrap_or(""), r.name.as_deref().unwrap_or(""))
    });
    w.write(LEVEL_0, &format!("Claim:\t{claim}\n"));
    let policy = spec.persistent_volume_reclaim_policy.clone().unwrap_or_default();
    w.write(LEVEL_0, &format!("Reclaim Policy:\t{policy}\n"));
    w.write(LEVEL_0, &format!("Access Modes:\t{}\n", access_modes_string(&spec.access_modes)));
    if let Some(mode) = &spec.volume_mode {
        w.write(LEVEL_0, &format!("VolumeMode:\t{mode}\n"));
    }
    let size = volume.capacity().cloned().unwrap_or_else(Quantity::zero);
    w.write(LEVEL_0, &format!("Capacity:\t{size}\n"));
    node_affinity(&mut w, spec.node_affinity.as_ref());
    w.write(LEVEL_0, &format!("Message:\t{}\n", volume.status.message.clone().unwrap_or_default()));
    w.write(LEVEL_0, "Source:\n");
    if let Some(host_path) = &spec.host_path {
        let kind = host_path.type_.clone().unwrap_or_else(|| "<none>".to_string());
        w.write(
            LEVEL_2,
            &format!(
                "Type:\tHostPath (bare host directory volume)\n    Path:\t{}\n    HostPathType:\t{kind}\n",
                host_path.path
            ),
        );
    } else if let Some(local) = &spec.local {
        w.write(
            LEVEL_2,
            &format!(
                "Type:\tLocalVolume (a persistent volume backed by local storage on a node)\n    Path:\t{}\n",
                local.path
            ),
        );
    }
    events::describe(&mut w, describer, events::search(describer, &EventQuery::for_object(volume)));
    w.finish()
}

/// `printVolumeNodeAffinity`: each required term's expressions, `key in [a, b]`.
fn node_affinity(w: &mut PrefixWriter, affinity: Option<&VolumeNodeAffinity>) {
    w.write(LEVEL_0, "Node Affinity:\t");
    let Some(required) = affinity.and_then(|a| a.required.as_ref()) else {
        w.write_line("<none>");
        return;
    };
    w.write_line("");
    w.write(LEVEL_1, "Required Terms:\t");
    if required.node_selector_terms.is_empty() {
        w.write_line("<none>");
        return;
    }
    w.write_line("");
    for (i, term) in required.node_selector_terms.iter().enumerate() {
        w.write(LEVEL_2, &format!("Term {i}:\t"));
        if term.match_expressions.is_empty() {
            w.write_line("<none>");
        }
        for (j, requirement) in term.match_expressions.iter().enumerate() {
            if j != 0 {
                w.write(LEVEL_2, "\t");
            }
            let mut expression = format!("{} {}", requirement.key, requirement.operator.to_lowercase());
            if !requirement.values.is_empty() {
                expression = format!("{expression} [{}]", requirement.values.join(", "));
            }
            w.write(LEVEL_0, &format!("{expression}\n"));
        }
    }
}

pub fn describe_storage_class(describer: &Describer<'_>, class: &StorageClass) -> String {
    let mut w = PrefixWriter::default();
    w.write(LEVEL_0, &format!("Name:\t{}\n", class.metadata.name));
    w.write(LEVEL_0, &format!("IsDefaultClass:\t{}\n", if class.is_default() { "Yes" } else { "No" }));
    w.write(LEVEL_0, &format!("Annotations:\t{}\n", format_labels(&class.metadata.annotations)));
    w.write(LEVEL_0, &format!("Provisioner:\t{}\n", class.provisioner));
    w.write(LEVEL_0, &format!("Parameters:\t{}\n", format_labels(&class.parameters)));
    let expansion = match class.allow_volume_expansion {
        Some(true) => "True",
        Some(false) => "False",
        None => "<unset>",
    };
    w.write(LEVEL_0, &format!("AllowVolumeExpansion:\t{expansion}\n"));
    if class.mount_options.is_empty() {
        w.write(LEVEL_0, "MountOptions:\t<none>\n");
    } else {
        w.write(LEVEL_0, "MountOptions:\n");
        for option in &class.mount_options {
            w.write(LEVEL_1, &format!("{option}\n"));
        }
    }
    if let Some(policy) = &class.reclaim_policy {
        w.write(LEVEL_0, &format!("ReclaimPolicy:\t{policy}\n"));
    }
    if let Some(mode) = &class.volume_binding_mode {
        w.write(LEVEL_0, &format!("VolumeBindingMode:\t{mode}\n"));
    }
    events::describe(&mut w, describer, events::search(describer, &EventQuery::for_object(class)));
    w.finish()
}

/// apimachinery's `labels.FormatLabels`: `k=v,k=v` in key order, or `<none>`.
fn format_labels(map: &StringMap) -> String {
    if map.is_empty() {
        return "<none>".to_string();
    }
    map.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(",")
}
