//! Kustomizations in, what `kubectl kustomize` prints out. The fixture overlays under
//! crates/core/tests/fixtures/kustomize come with kubectl 1.36's own output beside them
//! (`overlay.out`, `legacy.out`); tests/kubectl_oracle.rs checks those against the binary.

use super::verb::render;
use super::*;
use crate::kubectl::MemoryFiles;
use serde_json::json;
use std::path::Path;

/// The fixture tree, keyed by paths relative to its root (as the lab's files are).
fn fixtures() -> MemoryFiles {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/kustomize");
    let mut files = MemoryFiles::new();
    for folder in ["base", "overlay", "legacy", "team"] {
        for entry in std::fs::read_dir(root.join(folder)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            files.insert(format!("{folder}/{name}"), std::fs::read_to_string(&path).unwrap());
        }
    }
    files
}

fn expected(name: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/kustomize");
    std::fs::read_to_string(root.join(name)).unwrap()
}

#[test]
fn an_overlay_prints_as_kubectl_kustomize_does() {
    let built = build_with_warnings(&fixtures(), "overlay").unwrap();
    assert_eq!(render(&built.objects), expected("overlay.out"));
    assert!(built.warnings.is_empty());
}

/// An overlay of the overlay: a Namespace renamed to the namespace, RoleBinding subjects
/// that follow, a generator merged into the base's (by its first name), a strategic-merge
/// patch whose target (regular expressions) overrides its own kind and name, a StatefulSet's
/// `serviceName` following its Service's rename, and a long Secret value in base64 lines.
#[test]
fn an_overlay_of_an_overlay_prints_as_kubectl_kustomize_does() {
    let built = build_with_warnings(&fixtures(), "team").unwrap();
    assert_eq!(render(&built.objects), expected("team.out"));
}

#[test]
fn deprecated_fields_still_build_and_warn() {
    let built = build_with_warnings(&fixtures(), "legacy/").unwrap();
    assert_eq!(render(&built.objects), expected("legacy.out"));
    assert_eq!(built.warnings.join("\n") + "\n", expected("legacy.err"));
}

#[test]
fn generators_merge_and_replace_what_a_base_generated() {
    let mut files = MemoryFiles::new();
    files.insert(
        "base/kustomization.yaml",
        "configMapGenerator:\n- name: cfg\n  literals: [a=1, b=2]\nnamePrefix: base-\n",
    );
    files.insert(
        "merge/kustomization.yaml",
        "resources: [../base]\nconfigMapGenerator:\n- name: cfg\n  behavior: merge\n  literals: [b=3, c=4]\n",
    );
    let merged = build(&files, "merge").unwrap();
    assert_eq!(merged[0]["data"], json!({"a": "1", "b": "3", "c": "4"}));
    files.insert(
        "replace/kustomization.yaml",
        "resources: [../merge]\nconfigMapGenerator:\n- name: base-cfg\n  behavior: replace\n  literals: [z=1]\n",
    );
    // kubectl 1.36 prints `base-cfg-527hd2cc4c` with `data: {z: "1"}`.
    let replaced = build(&files, "replace").unwrap();
    assert_eq!(replaced[0]["metadata"]["name"], json!("base-cfg-527hd2cc4c"));
    assert_eq!(replaced[0]["data"], json!({"z": "1"}));
    files
        .insert("nothing/kustomization.yaml", "configMapGenerator:\n- name: c\n  behavior: merge\n  literals: [a=b]\n");
    assert_eq!(
        build(&files, "nothing").unwrap_err(),
        "error: id resid.ResId{Gvk:resid.Gvk{Group:\"\", Version:\"v1\", Kind:\"ConfigMap\", isClusterScoped:false}, Name:\"c\", Namespace:\"\"} does not exist; cannot merge or replace"
    );
}

#[test]
fn generator_options_and_env_files() {
    let mut files = MemoryFiles::new();
    files.insert(
        "g/kustomization.yaml",
        "configMapGenerator:\n- name: empty\n- name: opts\n  options:\n    labels: {a: b}\n    disableNameSuffixHash: true\n  literals: [\"x=<&>\"]\n  envs: [e.env]\ngeneratorOptions:\n  annotations: {g: h}\n  immutable: true\n",
    );
    files.insert("g/e.env", "# c\nA=1\n B=two words\nC\n");
    let objects = build(&files, "g").unwrap();
    assert_eq!(objects[0]["metadata"], json!({"name": "empty-6ct58987ht", "annotations": {"g": "h"}}));
    assert_eq!(objects[0]["immutable"], json!(true));
    assert_eq!(objects[1]["metadata"]["name"], json!("opts"));
    assert_eq!(objects[1]["data"], json!({"A": "1", "B": "two words", "C": "", "x": "<&>"}));
}

/// What kustomize says about a kustomization it cannot build (kubectl 1.36's words).
#[test]
fn errors_read_as_kustomize_words_them() {
    let mut files = fixtures();
    files.insert("e1/kustomization.yaml", "resources:\n- nope.yaml\n");
    files.insert("e2/kustomization.yaml", "resourcez:\n- a.yaml\n");
    files.insert("e3/kustomization.yaml", "configMapGenerator:\n- name: c\n  literals:\n  - novalue\n");
    files.insert("e4/kustomization.yaml", "patches:\n- path: p.yaml\nresources:\n- ../base\n");
    files.insert(
        "e4/p.yaml",
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: nothere\nspec:\n  replicas: 2\n",
    );
    files.insert("plain/pod.yaml", "kind: Pod\n");
    files.insert("r1/kustomization.yaml", "resources: [../base/service.yaml]\n");
    files.insert("r2/kustomization.yaml", "configMapGenerator:\n- name: c\n  files: [../overlay/app.properties]\n");
    files.insert("r3/kustomization.yaml", "resources: [../base]\npatches:\n- path: ../overlay/memory.yaml\n");
    let cases = [
        (
            "r1",
            "error: accumulating resources: accumulation err='accumulating resources from '../base/service.yaml': security; file 'base/service.yaml' is not in or below 'r1'': must build at directory: 'base/service.yaml': file is not directory",
        ),
        (
            "r2",
            "error: loading KV pairs: file sources: [../overlay/app.properties]: security; file 'overlay/app.properties' is not in or below 'r2'",
        ),
        (
            "r3",
            "error: trouble configuring builtin PatchTransformer with config: `\npath: ../overlay/memory.yaml\n`: failed to get the patch file from path(../overlay/memory.yaml): security; file 'overlay/memory.yaml' is not in or below 'r3'",
        ),
        (
            "e1",
            "error: accumulating resources: accumulation err='accumulating resources from 'nope.yaml': evalsymlink failure on 'e1/nope.yaml' : lstat e1/nope.yaml: no such file or directory': must build at directory: not a valid directory: evalsymlink failure on 'e1/nope.yaml' : lstat e1/nope.yaml: no such file or directory",
        ),
        ("e2", "error: invalid Kustomization: json: unknown field \"resourcez\""),
        (
            "e3",
            "error: loading KV pairs: literal sources [novalue]: invalid literal source novalue, expected key=value",
        ),
        (
            "e4",
            "error: no resource matches strategic merge patch \"Deployment.v1.apps/nothere.[noNs]\": no matches for Id Deployment.v1.apps/nothere.[noNs]; failed to find unique target for patch Deployment.v1.apps/nothere.[noNs]",
        ),
        (
            "nowhere",
            "error: must build at directory: not a valid directory: evalsymlink failure on 'nowhere' : lstat nowhere: no such file or directory",
        ),
        ("base/deployment.yaml", "error: must build at directory: 'base/deployment.yaml': file is not directory"),
        (
            "plain",
            "error: unable to find one of 'kustomization.yaml', 'kustomization.yml' or 'Kustomization' in directory 'plain'",
        ),
    ];
    for (dir, message) in cases {
        assert_eq!(build(&files, dir).unwrap_err(), message, "{dir}");
    }
}

#[test]
fn malformed_objects_do_not_panic() {
    let mut files = MemoryFiles::new();
    files.insert(
        "k/kustomization.yaml",
        "resources: [a.yaml]\nnamespace: x\nnamePrefix: p-\nreplicas: [{name: a, count: 2}]\ncommonLabels: {a: b}\ncommonAnnotations: {c: d}\nimages: [{name: i, newTag: t}]\nconfigMapGenerator: [{name: a, literals: [k=v]}]\npatches:\n- target: {kind: Pod}\n  patch: '[{\"op\": \"add\", \"path\": \"/spec/x\", \"value\": 1}]'\n",
    );
    files.insert(
        "k/a.yaml",
        "kind: Deployment\nmetadata: 5\nspec: 7\n---\nkind: Pod\nmetadata: {name: a}\nspec: {containers: [5, {image: 3}], volumes: [{configMap: 4}]}\n",
    );
    assert!(build(&files, "k").is_ok());
    files.insert("bad/kustomization.yaml", "resources: 5\n");
    assert!(build(&files, "bad").is_err());
}

#[test]
fn names_follow_renames_into_references() {
    let mut files = MemoryFiles::new();
    files.insert(
        "app/kustomization.yaml",
        "resources: [all.yaml]\nnamePrefix: a-\nconfigMapGenerator: [{name: cfg, literals: [k=v]}]\n",
    );
    files.insert(
        "app/all.yaml",
        "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: runner}\n---\napiVersion: v1\nkind: Service\nmetadata: {name: db}\n---\napiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  serviceName: db\n  template:\n    spec:\n      serviceAccountName: runner\n      volumes:\n      - projected:\n          sources:\n          - configMap: {name: cfg}\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: rb}\nroleRef: {kind: Role, name: missing}\nsubjects:\n- {kind: ServiceAccount, name: runner}\n- {kind: User, name: runner}\n",
    );
    let objects = build(&files, "app").unwrap();
    let find = |kind: &str| objects.iter().find(|o| o["kind"] == kind).unwrap();
    let set = find("StatefulSet");
    assert_eq!(set["spec"]["serviceName"], json!("a-db"));
    assert_eq!(set["spec"]["template"]["spec"]["serviceAccountName"], json!("a-runner"));
    let cfg = find("ConfigMap")["metadata"]["name"].clone();
    assert_eq!(set.pointer("/spec/template/spec/volumes/0/projected/sources/0/configMap/name"), Some(&cfg));
    let binding = find("RoleBinding");
    assert_eq!(
        binding["subjects"],
        json!([{"kind": "ServiceAccount", "name": "a-runner"}, {"kind": "User", "name": "runner"}])
    );
    assert_eq!(binding["roleRef"]["name"], json!("missing"));
}
