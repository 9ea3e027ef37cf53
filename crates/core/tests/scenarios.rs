//! Scenario transcripts: every `tests/scenarios/*.sim` script at the repository root runs
//! against a fresh lab and its transcript must equal the `.out` file beside it.
//! `KUBELAB_BLESS=1 cargo test -p kubelab-core --test scenarios` rewrites the `.out` files.

use kubelab_core::cluster::ClusterSpec;
use kubelab_core::kubectl::{FileSystem, MemoryFiles};
use kubelab_core::script;
use kubelab_core::sim::Sim;
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
    let text = std::fs::read_to_string(path).unwrap();
    let steps = script::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut sim = Sim::new(1, &ClusterSpec::default());
    script::run(&mut sim, &steps, files, false).text
}

#[test]
fn transcripts_match_their_golden_files() {
    let files = repo_files();
    let bless = std::env::var_os("KUBELAB_BLESS").is_some();
    let mut scripts: Vec<PathBuf> = std::fs::read_dir(scenarios_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "sim"))
        .collect();
    scripts.sort();
    assert!(!scripts.is_empty());
    let mut failures = Vec::new();
    for script in scripts {
        let actual = run(&script, &files);
        let golden = script.with_extension("out");
        if bless {
            std::fs::write(&golden, &actual).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&golden).unwrap_or_default();
        if actual != expected {
            let line = actual.lines().zip(expected.lines()).position(|(a, b)| a != b).unwrap_or(0) + 1;
            failures.push(format!("{}: differs from {} at line {line}", script.display(), golden.display()));
        }
    }
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
