//! `kubectl annotate TYPE NAME k=v k2- [--overwrite] [-l SEL | --all]`. Mirrors
//! staging/src/k8s.io/kubectl/pkg/cmd/annotate/annotate.go; the machinery is label's.

use super::Verb;
use super::label::{FLAGS, MapUpdate, update_metadata};
use super::rollout::CHANGE_CAUSE_ANNOTATION;
use crate::api::string_map::StringMap;

pub const VERB: Verb = Verb {
    name: "annotate",
    short: "Update the annotations on a resource",
    usage: "kubectl annotate [--overwrite] (-f FILENAME | TYPE NAME) KEY_1=VAL_1 ... KEY_N=VAL_N [--resource-version=version] [options]",
    flags: FLAGS,
    run: |ctx, args| update_metadata(ctx, &args, &ANNOTATIONS),
};

const ANNOTATIONS: MapUpdate = MapUpdate {
    noun: "annotation",
    map: |meta| &mut meta.annotations,
    check_overwrite: no_annotation_overwrites,
    message: |_, _, _| "annotated",
    reports_missing: false,
};

/// Upstream `validateNoAnnotationOverwrites`: a different value needs --overwrite, except for
/// the change-cause annotation.
fn no_annotation_overwrites(current: &StringMap, pairs: &[(String, String)]) -> Result<(), String> {
    let found: Vec<String> = pairs
        .iter()
        .filter(|(key, _)| key != CHANGE_CAUSE_ANNOTATION)
        .filter_map(|(key, value)| {
            current.get(key).filter(|v| v != value).map(|v| format!("'{key}' already has a value ({v})"))
        })
        .collect();
    if found.is_empty() {
        return Ok(());
    }
    Err(format!("--overwrite is false but found the following declared annotation(s): {}", found.join("; ")))
}

#[cfg(test)]
mod tests {
    use crate::kubectl::create::tests::kubectl;
    use crate::sim::Sim;

    #[test]
    fn annotations_follow_label_rules_with_their_own_wording() {
        let mut sim = Sim::default();
        kubectl(&mut sim, "create deployment hello --image=hello:v1");
        let (text, _) = kubectl(&mut sim, "annotate deploy hello owner=team-a");
        assert_eq!(text, "deployment.apps/hello annotated\n");
        let (text, _) = kubectl(&mut sim, "annotate deploy hello owner=team-b");
        assert_eq!(
            text,
            "error: --overwrite is false but found the following declared annotation(s): 'owner' already has a value (team-a)\n"
        );
        let (text, _) = kubectl(&mut sim, "annotate deploy/hello owner-");
        assert_eq!(text, "deployment.apps/hello annotated\n");
        let (text, _) = kubectl(&mut sim, "annotate deploy/hello");
        assert_eq!(text, "error: at least one annotation update is required\n");
    }
}
