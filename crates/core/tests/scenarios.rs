//! Scenario transcripts: every `tests/scenarios/*.sim` script at the repository root runs
//! against a fresh lab and its transcript must equal the `.out` file beside it.
//! `KUBELAB_BLESS=1 cargo test -p kubelab-core --test scenarios` rewrites the `.out` files.

mod support;

use kubelab_core::api::labels::Selector;
use kubelab_core::api::{Kind, RESOURCES};
use kubelab_core::cluster::ClusterSpec;
use kubelab_core::kubectl::{FileSystem, MemoryFiles};
use kubelab_core::script;
use kubelab_core::sim::Sim;
use kubelab_core::store::FieldSelector;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn scenarios_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/scenarios")
}

/// The repository's files under tests/, as the scripts see them (paths relative to the script).
fn repo_files() -> MemoryFiles {
    let mut files = MemoryFiles::new();
    let manifests = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/manifests");
    let mut folders = vec![manifests.clone()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            let name = path.strip_prefix(&manifests).unwrap().to_string_lossy().to_string();
            files.insert(format!("../manifests/{name}"), std::fs::read_to_string(&path).unwrap());
        }
    }
    files
}

fn run(path: &Path, files: &dyn FileSystem) -> String {
    run_in(Sim::new(1, &ClusterSpec::default()), path, files).0
}

/// Runs the script at `path` in `sim`; the transcript and the lab as the script left it.
fn run_in(mut sim: Sim, path: &Path, files: &dyn FileSystem) -> (String, Sim) {
    let text = std::fs::read_to_string(path).unwrap();
    let steps = script::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let transcript = script::run(&mut sim, &steps, files, false).text;
    (transcript, sim)
}

fn scenario_scripts() -> Vec<PathBuf> {
    let mut scripts: Vec<PathBuf> = std::fs::read_dir(scenarios_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "sim"))
        .collect();
    scripts.sort();
    assert!(!scripts.is_empty());
    scripts
}

#[test]
fn transcripts_match_their_golden_files() {
    let files = repo_files();
    let bless = std::env::var_os("KUBELAB_BLESS").is_some();
    let failures = support::parallel_map(&scenario_scripts(), |script| {
        let actual = run(script, &files);
        let golden = script.with_extension("out");
        if bless {
            std::fs::write(&golden, &actual).unwrap();
            return None;
        }
        let expected = std::fs::read_to_string(&golden).unwrap_or_default();
        let line = actual.lines().zip(expected.lines()).position(|(a, b)| a != b).unwrap_or(0) + 1;
        (actual != expected).then(|| format!("{}: differs from {} at line {line}", script.display(), golden.display()))
    });
    let failures: Vec<String> = failures.into_iter().flatten().collect();
    assert!(failures.is_empty(), "{}\n(rerun with KUBELAB_BLESS=1 to accept)", failures.join("\n"));
}

#[test]
fn same_seed_same_trace_different_seed_different_names() {
    let text = std::fs::read_to_string(scenarios_dir().join("apply.sim")).unwrap();
    let steps = script::parse(&text).unwrap();
    let files = repo_files();
    let trace = |seed| {
        let mut sim = Sim::new(seed, &ClusterSpec::default());
        script::run(&mut sim, &steps, &files, false);
        (sim.trace().as_jsonl().to_string(), sim.trace().hash())
    };
    let (a, b, c) = (trace(7), trace(7), trace(8));
    assert_eq!(a, b, "seed 7 twice");
    assert!(!a.0.is_empty());
    assert_eq!(a.0.lines().count(), c.0.lines().count());
}

/// Every scenario again with the watch log cut to a handful of entries, so every reader of it
/// falls behind at once and must relist (as a client does after `410 Gone`): the cluster must
/// end in the same state as with the full log. A reader that skipped what it missed instead
/// would leave, say, a deleted Deployment's pods running.
#[test]
fn with_a_tiny_watch_log_every_reader_relists_and_the_cluster_ends_the_same() {
    let files = repo_files();
    let mut relists: BTreeMap<String, u64> = BTreeMap::new();
    let mut failures = Vec::new();
    let runs = support::parallel_map(&scenario_scripts(), |script| {
        let (_, full) = run_in(Sim::new(1, &ClusterSpec::default()), script, &files);
        let mut tiny = Sim::new(1, &ClusterSpec::default());
        tiny.store_mut().watch_log_mut().set_capacity(1);
        let (_, tiny) = run_in(tiny, script, &files);
        let counts: Vec<(String, u64)> =
            tiny.controllers().relists().into_iter().map(|(name, n)| (name.to_string(), n)).collect();
        let (want, got) = (cluster_state(&full), cluster_state(&tiny));
        let missing: Vec<String> = want.iter().filter(|l| !got.contains(l)).cloned().collect();
        let extra: Vec<String> = got.iter().filter(|l| !want.contains(l)).cloned().collect();
        let differs = (want != got)
            .then(|| format!("{}:\n  full log only: {missing:?}\n  tiny log only: {extra:?}", script.display()));
        (counts, differs)
    });
    for (counts, differs) in runs {
        for (name, count) in counts {
            *relists.entry(name).or_default() += count;
        }
        failures.extend(differs);
    }
    let table: Vec<String> = relists.iter().map(|(name, n)| format!("{name:<40} {n:>6}")).collect();
    println!("relists with a 1-entry watch log, all scenarios:\n{}", table.join("\n"));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let idle: Vec<&String> = relists.iter().filter(|(_, n)| **n == 0).map(|(name, _)| name).collect();
    assert!(idle.is_empty(), "never relisted, so never fell behind: {idle:?}");
}

/// What a learner would look at, object by object, without what legitimately differs between
/// two runs that process the same writes in other batches: generated name suffixes, uids,
/// resourceVersions, which of equal nodes a pod landed on, and Events (their counts and names
/// follow the batches).
fn cluster_state(sim: &Sim) -> Vec<String> {
    let store = sim.store();
    let mut lines = Vec::new();
    for info in RESOURCES.iter().filter(|r| r.kind != Kind::Event) {
        let objects = store.list_objects(info.kind, None, &Selector::everything(), &FieldSelector::everything());
        for object in objects {
            let json = object.to_json_value();
            let meta = object.metadata();
            let name = match meta.generate_name.as_str() {
                "" => meta.name.clone(),
                prefix => format!("{prefix}*"),
            };
            let state = state_of(info.kind_name, &json);
            lines.push(format!("{} {}/{name} {state}", info.kind_name, meta.namespace));
        }
    }
    lines.sort();
    lines
}

fn state_of(kind: &str, json: &serde_json::Value) -> String {
    let at = |pointer: &str| json.pointer(pointer).map_or("-".to_string(), |v| v.to_string());
    let pointers: &[&str] = match kind {
        "Pod" => &["/status/phase", "/metadata/deletionTimestamp", "/spec/containers/0/image"],
        "Deployment" => &["/spec/replicas", "/status/replicas", "/status/updatedReplicas", "/status/readyReplicas"],
        "ReplicaSet" => &["/spec/replicas", "/status/replicas", "/status/readyReplicas"],
        "Node" => &["/spec/unschedulable", "/spec/taints"],
        "HorizontalPodAutoscaler" => &["/status/currentReplicas", "/status/desiredReplicas"],
        _ => &[],
    };
    let mut state: Vec<String> = pointers.iter().map(|p| at(p)).collect();
    if kind == "Pod" {
        let ready = json
            .pointer("/status/conditions")
            .and_then(|c| c.as_array())
            .and_then(|conditions| conditions.iter().find(|c| c["type"] == "Ready").map(|c| c["status"].to_string()));
        state.push(format!("ready={}", ready.unwrap_or_default()));
    }
    if kind == "EndpointSlice" {
        let endpoints = json.pointer("/endpoints").and_then(|e| e.as_array()).map_or(0, Vec::len);
        state.push(format!("endpoints={endpoints}"));
    }
    state.join(" ")
}
